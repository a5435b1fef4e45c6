/**
 * Avatars for the demo users, so they appear in each other's chat contacts from the first start (contacts are
 * users with an avatar). The same shape as the avatars the client generates: a face on a coloured disc.
 * Returned as base64 SVG, the form the avatar route stores.
 */
export function demoAvatar(colors: { background: string; skin: string; hair: string; shirt: string }): string {
  const svg = [
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64">',
    `<circle cx="32" cy="32" r="32" fill="${colors.background}"/>`,
    `<path d="M10 64c2-13 11-19 22-19s20 6 22 19z" fill="${colors.shirt}"/>`,
    `<circle cx="32" cy="28" r="15" fill="${colors.skin}"/>`,
    `<path d="M17 26c0-10 7-15 15-15s15 5 15 15c-4-5-9-7-15-7s-11 2-15 7z" fill="${colors.hair}"/>`,
    '<circle cx="26.5" cy="29" r="2" fill="#111"/><circle cx="37.5" cy="29" r="2" fill="#111"/>',
    '<path d="M26 35c3 3 9 3 12 0" stroke="#111" stroke-width="2" fill="none" stroke-linecap="round"/>',
    '</svg>',
  ].join('');
  return Buffer.from(svg).toString('base64');
}
