import { AppError } from '../../lib/app-error.js';

const maxSvgBytes = 100 * 1024;

/**
 * Avatars are stored as base64 SVG and shown through <img src="data:...">, where scripts never run.
 * Script-capable markup is still refused so the stored value stays safe if it is ever inlined.
 */
export function validateAvatarImage(base64: string): string {
  const cleaned = base64.replace(/^data:image\/svg\+xml;base64,/, '').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(cleaned)) throw AppError.badRequest('avatar_not_svg', 'The avatar must be a base64-encoded SVG image.', 'image');
  const markup = Buffer.from(cleaned, 'base64').toString('utf8');
  if (Buffer.byteLength(markup) > maxSvgBytes) throw AppError.badRequest('avatar_too_large', 'The avatar image is too large (at most 100 KB).', 'image');
  const start = markup.replace(/^\uFEFF/, '').replace(/^\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*/, '');
  if (!/^<svg[\s>]/i.test(start) || !/<\/svg>\s*$/i.test(markup)) {
    throw AppError.badRequest('avatar_not_svg', 'The avatar must be a base64-encoded SVG image.', 'image');
  }
  if (/<script|<foreignObject|\son[a-z]+\s*=|javascript:|<!ENTITY|<iframe|<embed|<object/i.test(markup)) {
    throw AppError.badRequest('avatar_unsafe', 'The avatar contains content that is not allowed.', 'image');
  }
  return cleaned;
}
