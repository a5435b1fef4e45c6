import { useState, type ImgHTMLAttributes } from 'react';

export const PLACEHOLDER_IMAGE = '/event-placeholder.svg';

export interface EventImageProps extends Omit<ImgHTMLAttributes<HTMLImageElement>, 'src' | 'alt'> {
  src: string | null | undefined;
  alt: string;
}

/** An event image that falls back to the local placeholder when missing or broken. */
export function EventImage({ src, alt, ...rest }: EventImageProps) {
  // Remember which address failed, so a new `src` gets its own chance to load.
  const [failed, setFailed] = useState<string | null>(null);
  const usable = src && src !== failed ? src : PLACEHOLDER_IMAGE;
  return (
    <img
      {...rest}
      src={usable}
      alt={alt}
      onError={() => {
        if (usable !== PLACEHOLDER_IMAGE) setFailed(usable);
      }}
    />
  );
}
