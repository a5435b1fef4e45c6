/**
 * Avatars for the /setAvatar picker, drawn by DiceBear's "Thumbs" style (design CC0 1.0, code MIT).
 * The style is bundled into this route's chunk, so generating needs no network, and the same seed
 * always yields the same SVG. Why a library and what it weighs: docs/decisions/avatars.md.
 */
import { createAvatar } from '@dicebear/core';
import * as thumbs from '@dicebear/thumbs';

/** Returns SVG markup for the avatar described by `seed`. */
export function generateAvatarSvg(seed: number): string {
  // 128 px intrinsic size, as avatars had before; the picker and AvatarImage set their own box.
  return createAvatar(thumbs, { seed: String(seed), size: 128 }).toString();
}

/**
 * base64 of the markup's UTF-8 bytes, as the server decodes it. `btoa` alone takes only Latin-1,
 * and the style's licence metadata in the SVG has typographic quotes.
 */
export function toBase64(markup: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(markup)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** `count` fresh random seeds. */
export function randomSeeds(count: number): number[] {
  const values = new Uint32Array(count);
  crypto.getRandomValues(values);
  return Array.from(values);
}
