/**
 * Deterministic, dependency-free avatar generator. The same seed always yields the same SVG.
 * Avatars are simple geometric "faces": a patterned background, a head shape, hair or a hat,
 * eyes, a mouth and optional cheeks / glasses. Output is plain ASCII SVG markup, so it can be
 * base64-encoded with `btoa` and rendered as `data:image/svg+xml;base64,...`.
 */

/** Small, fast 32-bit PRNG (mulberry32 construction). */
function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const BACKGROUNDS = ['#0a7d3e', '#c8102e', '#1f2937', '#f2a900', '#2563eb', '#7c3aed', '#0e7490', '#be185d', '#ea580c'];
const SKINS = ['#f6d5b8', '#e9b48a', '#c68a5e', '#a0673f', '#7a4a2a', '#5a3520', '#f4c7a1'];
const HAIR = ['#111111', '#3b2314', '#6b3e1f', '#a65e2e', '#d9a441', '#e5e7eb', '#7c2d12'];
const ACCENTS = ['#ffffff', '#111111', '#fde68a', '#bbf7d0', '#fecaca', '#bfdbfe'];

function pick<T>(rand: () => number, items: readonly T[]): T {
  return items[Math.floor(rand() * items.length)] as T;
}

const f = (n: number) => Number(n.toFixed(1));

function background(rand: () => number, color: string, accent: string): string {
  const style = Math.floor(rand() * 4);
  let pattern = '';
  if (style === 1) {
    // diagonal stripes
    for (let i = -128; i < 256; i += 24) {
      pattern += `<path d="M${i} 0 L${i + 128} 128" stroke="${accent}" stroke-opacity="0.18" stroke-width="8"/>`;
    }
  } else if (style === 2) {
    // dots
    for (let y = 12; y < 128; y += 26) {
      for (let x = 12 + ((y / 26) % 2) * 13; x < 128; x += 26) {
        pattern += `<circle cx="${f(x)}" cy="${y}" r="3" fill="${accent}" fill-opacity="0.2"/>`;
      }
    }
  } else if (style === 3) {
    // concentric rings
    for (let r = 20; r < 100; r += 18) {
      pattern += `<circle cx="64" cy="64" r="${r}" fill="none" stroke="${accent}" stroke-opacity="0.14" stroke-width="6"/>`;
    }
  }
  return `<rect width="128" height="128" fill="${color}"/>${pattern}`;
}

function head(rand: () => number, skin: string): { markup: string; top: number } {
  const shape = Math.floor(rand() * 3);
  if (shape === 0) {
    const r = f(32 + rand() * 6);
    return { markup: `<circle cx="64" cy="70" r="${r}" fill="${skin}"/>`, top: 70 - r };
  }
  if (shape === 1) {
    const w = f(58 + rand() * 10);
    const h = f(64 + rand() * 8);
    const y = f(72 - h / 2);
    return {
      markup: `<rect x="${f(64 - w / 2)}" y="${y}" width="${w}" height="${h}" rx="${f(18 + rand() * 8)}" fill="${skin}"/>`,
      top: y,
    };
  }
  const rx = f(30 + rand() * 5);
  const ry = f(36 + rand() * 4);
  return { markup: `<ellipse cx="64" cy="70" rx="${rx}" ry="${ry}" fill="${skin}"/>`, top: 70 - ry };
}

function hair(rand: () => number, color: string, top: number): string {
  const style = Math.floor(rand() * 5);
  const t = f(top);
  switch (style) {
    case 0: // rounded cap of hair
      return `<path d="M30 ${f(t + 22)} Q32 ${f(t - 8)} 64 ${f(t - 6)} Q96 ${f(t - 8)} 98 ${f(t + 22)} Q86 ${f(t + 8)} 64 ${f(t + 10)} Q42 ${f(t + 8)} 30 ${f(t + 22)}Z" fill="${color}"/>`;
    case 1: {
      // spikes
      let d = `M32 ${f(t + 16)}`;
      for (let i = 0; i < 6; i += 1) {
        const x = 32 + i * 11;
        d += ` L${f(x + 5.5)} ${f(t - 6 - rand() * 6)} L${f(x + 11)} ${f(t + 10)}`;
      }
      return `<path d="${d} Z" fill="${color}"/>`;
    }
    case 2: // beanie hat with a band
      return `<path d="M30 ${f(t + 14)} Q64 ${f(t - 24)} 98 ${f(t + 14)}Z" fill="${color}"/><rect x="28" y="${f(t + 8)}" width="72" height="10" rx="5" fill="${color}" stroke="#ffffff" stroke-opacity="0.35" stroke-width="2"/><circle cx="64" cy="${f(t - 8)}" r="5" fill="${color}"/>`;
    case 3: // flat-top
      return `<rect x="34" y="${f(t - 8)}" width="60" height="20" rx="6" fill="${color}"/>`;
    default: // bald / shaved: no hair
      return '';
  }
}

function eyes(rand: () => number, y: number, dark: string): string {
  const gap = f(12 + rand() * 5);
  const lx = 64 - gap;
  const rx = 64 + gap;
  const style = Math.floor(rand() * 4);
  switch (style) {
    case 0:
      return `<circle cx="${lx}" cy="${y}" r="4.5" fill="${dark}"/><circle cx="${rx}" cy="${y}" r="4.5" fill="${dark}"/>`;
    case 1: // whites with pupils
      return `<circle cx="${lx}" cy="${y}" r="7" fill="#ffffff"/><circle cx="${rx}" cy="${y}" r="7" fill="#ffffff"/><circle cx="${f(lx + 1.5)}" cy="${f(y + 1)}" r="3.4" fill="${dark}"/><circle cx="${f(rx + 1.5)}" cy="${f(y + 1)}" r="3.4" fill="${dark}"/>`;
    case 2: // happy closed arcs
      return `<path d="M${f(lx - 5)} ${f(y + 2)} Q${lx} ${f(y - 5)} ${f(lx + 5)} ${f(y + 2)}M${f(rx - 5)} ${f(y + 2)} Q${rx} ${f(y - 5)} ${f(rx + 5)} ${f(y + 2)}" fill="none" stroke="${dark}" stroke-width="3" stroke-linecap="round"/>`;
    default: // square eyes
      return `<rect x="${f(lx - 4)}" y="${f(y - 4)}" width="8" height="8" rx="1.5" fill="${dark}"/><rect x="${f(rx - 4)}" y="${f(y - 4)}" width="8" height="8" rx="1.5" fill="${dark}"/>`;
  }
}

function mouth(rand: () => number, y: number, dark: string): string {
  const w = f(9 + rand() * 7);
  const style = Math.floor(rand() * 4);
  switch (style) {
    case 0: // smile
      return `<path d="M${f(64 - w)} ${y} Q64 ${f(y + 10)} ${f(64 + w)} ${y}" fill="none" stroke="${dark}" stroke-width="3.2" stroke-linecap="round"/>`;
    case 1: // grin
      return `<path d="M${f(64 - w)} ${y} L${f(64 + w)} ${y} Q64 ${f(y + 16)} ${f(64 - w)} ${y}Z" fill="${dark}"/><path d="M${f(64 - w + 3)} ${f(y + 1.5)} L${f(64 + w - 3)} ${f(y + 1.5)}" stroke="#ffffff" stroke-width="2.5"/>`;
    case 2: // "o"
      return `<ellipse cx="64" cy="${f(y + 3)}" rx="4.5" ry="5.5" fill="${dark}"/>`;
    default: // calm line
      return `<path d="M${f(64 - w * 0.7)} ${f(y + 3)} L${f(64 + w * 0.7)} ${f(y + 3)}" stroke="${dark}" stroke-width="3.2" stroke-linecap="round"/>`;
  }
}

/** Returns SVG markup for the avatar described by `seed`. */
export function generateAvatarSvg(seed: number): string {
  const rand = createRandom(seed);
  const bg = pick(rand, BACKGROUNDS);
  const accent = pick(rand, ACCENTS);
  const skin = pick(rand, SKINS);
  const hairColor = pick(rand, HAIR);
  const dark = '#1b1b1b';

  const headShape = head(rand, skin);
  const eyeY = f(66 + rand() * 4);
  const mouthY = f(eyeY + 17 + rand() * 4);
  let extras = '';
  if (rand() < 0.4) {
    // cheeks
    extras += `<circle cx="42" cy="${f(mouthY - 4)}" r="5" fill="#e11d48" fill-opacity="0.25"/><circle cx="86" cy="${f(mouthY - 4)}" r="5" fill="#e11d48" fill-opacity="0.25"/>`;
  }
  let glasses = '';
  if (rand() < 0.3) {
    glasses = `<g fill="none" stroke="${dark}" stroke-width="2.5"><circle cx="49" cy="${eyeY}" r="10"/><circle cx="79" cy="${eyeY}" r="10"/><path d="M59 ${eyeY} L69 ${eyeY}"/></g>`;
  }
  // Shoulders so the head does not float.
  const shoulders = `<path d="M18 128 Q20 100 64 100 Q108 100 110 128Z" fill="${pick(rand, BACKGROUNDS.filter((c) => c !== bg))}"/>`;

  return [
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 128 128" width="128" height="128">',
    background(rand, bg, accent),
    shoulders,
    headShape.markup,
    hair(rand, hairColor, headShape.top),
    extras,
    eyes(rand, eyeY, dark),
    glasses,
    mouth(rand, mouthY, dark),
    '</svg>',
  ].join('');
}

/** base64 of an ASCII string (the generated SVG is ASCII only). */
export function toBase64(markup: string): string {
  return btoa(markup);
}

/** `count` fresh random seeds. */
export function randomSeeds(count: number): number[] {
  const values = new Uint32Array(count);
  crypto.getRandomValues(values);
  return Array.from(values);
}
