import { useMemo, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { notify } from '../../../lib/notify';
import { Button } from '../../../components/ui/button';
import { paths } from '../../../config/paths';
import { useSession } from '../../../hooks/use-session';
import { setAvatarRequest } from '../api/avatar-api';
import { generateAvatarSvg, randomSeeds, toBase64 } from '../lib/generate-avatar';
import { avatarSrc } from '../../../lib/avatar-src';
import { useT } from '../../../lib/i18n';

const AVATAR_COUNT = 4;

export function AvatarPicker({ userId }: { userId: string }) {
  const t = useT();
  const navigate = useNavigate();
  const { updateUser } = useSession();
  const [seeds, setSeeds] = useState(() => randomSeeds(AVATAR_COUNT));
  const [selected, setSelected] = useState<number | null>(null);
  const [pending, setPending] = useState(false);
  // Said beside the choices, not in a toast: a toast outlives the page and would follow the user onto /profile.
  const [noChoice, setNoChoice] = useState(false);

  const avatars = useMemo(() => seeds.map((seed) => toBase64(generateAvatarSvg(seed))), [seeds]);

  const regenerate = () => {
    setSeeds(randomSeeds(AVATAR_COUNT));
    setSelected(null);
  };

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    const image = selected === null ? undefined : avatars[selected];
    if (!image) {
      setNoChoice(true);
      return;
    }
    setPending(true);
    try {
      const data = await setAvatarRequest(userId, image);
      if (data.isSet) {
        updateUser({ avatarImage: data.image || image, isAvatarImageSet: true });
        void navigate(paths.profile);
        return;
      }
      notify.error(t('avatar.notSet'));
    } catch {
      notify.error(t('avatar.setFailed'));
    }
    setPending(false);
  };

  return (
    <form className="avatar-picker" onSubmit={handleSubmit}>
      <fieldset className="avatar-picker__fieldset">
        <legend className="avatar-picker__legend">{t('avatar.choose')}</legend>
        <div className="avatar-picker__grid">
          {avatars.map((image, index) => (
            <label
              key={seeds[index]}
              className={`avatar-option${selected === index ? ' avatar-option--selected' : ''}`}
            >
              <input
                type="radio"
                name="avatar"
                className="avatar-option__input"
                checked={selected === index}
                onChange={() => {
                  setSelected(index);
                  setNoChoice(false);
                }}
              />
              <img src={avatarSrc(image)} alt={t('avatar.numbered', { number: index + 1 })} width={112} height={112} />
            </label>
          ))}
        </div>
        {noChoice && (
          <p className="form-message form-message--error" role="alert">
            {t('avatar.selectOne')}
          </p>
        )}
      </fieldset>
      <div className="avatar-picker__actions">
        <Button variant="secondary" onClick={regenerate} disabled={pending}>
          {t('avatar.generateNew')}
        </Button>
        <Button type="submit" loading={pending} loadingText={t('avatar.saving')}>
          {t('avatar.setAsProfile')}
        </Button>
      </div>
    </form>
  );
}
