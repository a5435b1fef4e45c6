import { avatarSrc } from '../lib/avatar-src';
import { useT } from '../lib/i18n';

/** Round avatar; falls back to the username's initial when no image is set. */
export function AvatarImage({
  image,
  username,
  size = 96,
  className,
}: {
  image?: string | null | undefined;
  username: string;
  size?: number;
  className?: string;
}) {
  const t = useT();
  const classes = `avatar-image${className ? ` ${className}` : ''}`;
  if (!image) {
    return (
      <span className={`${classes} avatar-image--fallback`} style={{ width: size, height: size }} aria-hidden="true">
        {username.charAt(0).toUpperCase() || '?'}
      </span>
    );
  }
  return <img className={classes} src={avatarSrc(image)} alt={t('ui.avatarOf', { username })} width={size} height={size} />;
}
