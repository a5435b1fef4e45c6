import { useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { notify } from '../../../lib/notify';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/form-field';
import { paths } from '../../../config/paths';
import type { ApiUser } from '../../../types/api';
import { useSession } from '../../../hooks/use-session';
import { AvatarImage } from '../../../components/avatar-image';
import { useT } from '../../../lib/i18n';
import { updateUser } from '../api/profile-api';

interface ProfileCardProps {
  userId: string;
  /** Latest user from the API, or null while loading / when the call failed. */
  user: ApiUser | null;
  /** Fallbacks from the stored session while the API user is not available. */
  fallbackUsername: string;
  fallbackAvatar: string | undefined;
  loading: boolean;
  loadError: boolean;
  onUpdated: (user: ApiUser) => void;
  /** Extra actions (e.g. the transaction-history button). */
  actions?: ReactNode;
}

export function ProfileCard({
  userId,
  user,
  fallbackUsername,
  fallbackAvatar,
  loading,
  loadError,
  onUpdated,
  actions,
}: ProfileCardProps) {
  const t = useT();
  const { updateUser: updateStoredUser } = useSession();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState({ username: '', email: '' });
  const [saving, setSaving] = useState(false);

  const username = user?.username || fallbackUsername;
  const email = user?.email ?? '';
  const avatar = user?.avatarImage || fallbackAvatar;

  const startEditing = () => {
    setDraft({ username, email });
    setEditing(true);
  };

  const handleSave = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (saving) return;
    setSaving(true);
    try {
      const updated = await updateUser(userId, { username: draft.username.trim(), email: draft.email.trim() });
      onUpdated(updated);
      updateStoredUser({ username: updated.username || draft.username.trim() });
      notify.success(t('profile.updated'));
      setEditing(false);
    } catch {
      // Keep the edited values so the user can retry.
      notify.error(t('profile.updateFailed'));
    } finally {
      setSaving(false);
    }
  };

  return (
    <section className="profile-card card" aria-labelledby="profile-name">
      <AvatarImage image={avatar} username={username} size={112} className="profile-card__avatar" />
      <div className="profile-card__body">
        {editing ? (
          <form className="form profile-card__form" onSubmit={handleSave}>
            <h2 id="profile-name" className="visually-hidden">
              {t('profile.editProfileHeading')}
            </h2>
            <TextField
              label={t('profile.username')}
              name="username"
              autoComplete="username"
              required
              minLength={3}
              value={draft.username}
              onChange={(event) => setDraft((d) => ({ ...d, username: event.target.value }))}
            />
            <TextField
              label={t('profile.email')}
              name="email"
              type="email"
              autoComplete="email"
              required
              value={draft.email}
              onChange={(event) => setDraft((d) => ({ ...d, email: event.target.value }))}
            />
            <p className="form__aside form__aside--start">
              <Link to={paths.setAvatar}>{t('profile.editAvatar')}</Link>
            </p>
            <div className="button-row">
              <Button type="submit" loading={saving} loadingText={t('profile.saving')}>
                {t('profile.saveChanges')}
              </Button>
              <Button variant="secondary" onClick={() => setEditing(false)} disabled={saving}>
                {t('profile.cancel')}
              </Button>
            </div>
          </form>
        ) : (
          <>
            <h2 id="profile-name" className="profile-card__name">
              {username}
            </h2>
            <p className="profile-card__email">
              {loading ? t('profile.loadingDetails') : email || (loadError ? t('profile.emailLoadFailed') : '')}
            </p>
            <div className="button-row">
              <Button variant="secondary" onClick={startEditing} disabled={loading && !user}>
                {t('profile.editProfile')}
              </Button>
              {actions}
            </div>
          </>
        )}
      </div>
    </section>
  );
}
