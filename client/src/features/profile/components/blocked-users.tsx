/*
 * PROFILE › "Blocked in chat": the people I blocked, each with Unblock (docs/product.md, community safety).
 * Shown only when there is someone to unblock.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { getBlockedUsers, unblockUser } from '../../../lib/blocks-api';
import { getErrorMessage } from '../../../lib/errors';
import { useT } from '../../../lib/i18n';
import { notify } from '../../../lib/notify';

export function BlockedUsers({ userId }: { userId: string }) {
  const t = useT();
  const queryClient = useQueryClient();
  const { data } = useQuery({ queryKey: ['blocked-users', userId], queryFn: ({ signal }) => getBlockedUsers(signal) });
  const [busy, setBusy] = useState<string | null>(null);
  const blocked = data ?? [];
  if (blocked.length === 0) return null;

  const unblock = async (id: string, username: string) => {
    setBusy(id);
    try {
      await unblockUser(id);
      notify.success(t('profile.unblocked', { username }));
      queryClient.setQueryData<typeof data>(['blocked-users', userId], (list) => list?.filter((user) => user._id !== id));
    } catch (error) {
      notify.error(getErrorMessage(error, t('profile.unblockFailed')));
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className="profile-section" aria-labelledby="blocked-heading">
      <div className="profile-section__header">
        <h2 id="blocked-heading">{t('profile.blockedHeading')}</h2>
      </div>
      <ul className="blocked-users">
        {blocked.map((user) => (
          <li key={user._id} className="blocked-users__item card">
            <span className="blocked-users__name">{user.username}</span>
            <Button variant="secondary" className="btn--sm" loading={busy === user._id} loadingText={t('profile.unblocking')} onClick={() => void unblock(user._id, user.username)}>
              {t('profile.unblock')}<span className="visually-hidden">{` ${user.username}`}</span>
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}
