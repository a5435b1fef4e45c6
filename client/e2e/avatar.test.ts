/**
 * The /setAvatar picker's avatars (src/features/avatar/lib/generate-avatar.ts, DiceBear "Thumbs") must be
 * deterministic, self-contained and accepted by the server's avatar check (server/src/modules/auth/avatar.ts),
 * or a user could pick an avatar the API refuses. A unit test: no server or browser needed; the picking
 * itself is covered by the account journey (accounts.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { validateAvatarImage } from '../../server/src/modules/auth/avatar.js';
import { generateAvatarSvg, randomSeeds, toBase64 } from '../src/features/avatar/lib/generate-avatar.js';

const SEEDS = [0, 1, 42, 0xffffffff, ...randomSeeds(200)];

describe('generated avatars', () => {
  it('are the same SVG for the same seed and differ between seeds', () => {
    for (const seed of SEEDS.slice(0, 20)) expect(generateAvatarSvg(seed), `seed ${seed}`).toBe(generateAvatarSvg(seed));
    expect(new Set([1, 2, 3, 4].map(generateAvatarSvg)).size).toBe(4);
  });

  it('pass the server check, and the stored value decodes to the markup shown', () => {
    for (const seed of SEEDS) {
      const svg = generateAvatarSvg(seed);
      const image = toBase64(svg);
      expect(validateAvatarImage(image), `seed ${seed}`).toBe(image);
      expect(Buffer.from(image, 'base64').toString('utf8')).toBe(svg);
    }
  });

  it('reference nothing outside themselves (no network when shown)', () => {
    for (const seed of SEEDS) {
      const svg = generateAvatarSvg(seed);
      expect(svg, `seed ${seed}`).toMatch(/^<svg[\s>][\s\S]*<\/svg>$/);
      expect(svg, `seed ${seed}`).not.toMatch(/<image|<use|href\s*=|url\((?!#)|@import/i);
    }
  });
});
