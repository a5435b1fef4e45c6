/** `avatarImage` values are base64 SVG markup; this turns one into an <img> src. */
export function avatarSrc(base64: string): string {
  return base64.startsWith('data:') ? base64 : `data:image/svg+xml;base64,${base64}`;
}
