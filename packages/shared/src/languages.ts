/**
 * The languages Tukio speaks (docs/decisions/languages.md): English, the default, and Kiswahili. The account
 * keeps one for its mail and SMS; a signed-out visitor's browser says it in `Accept-Language`.
 * Browser-safe: no imports.
 */
export const LANGUAGES = ['en', 'sw'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

export const isLanguage = (value: unknown): value is Language => value === 'en' || value === 'sw';

/** The language for a list of BCP 47 tags in order of preference: the first Kiswahili or English one decides. */
export function pickLanguage(tags: readonly string[]): Language {
  for (const tag of tags) {
    const primary = tag.trim().toLowerCase().split(/[-_]/)[0];
    if (primary === 'sw') return 'sw';
    if (primary === 'en') return 'en';
  }
  return DEFAULT_LANGUAGE;
}

/** The language an `Accept-Language` header asks for (highest quality first; ties keep their order). */
export function languageFromAcceptLanguage(header: string | undefined | null): Language {
  if (!header) return DEFAULT_LANGUAGE;
  const ranked = header
    .slice(0, 500)
    .split(',')
    .map((part, index) => {
      const [tag = '', ...options] = part.split(';');
      const q = options.map((option) => /^\s*q\s*=\s*([\d.]+)\s*$/.exec(option)?.[1]).find((value) => value !== undefined);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.tag && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return pickLanguage(ranked.map((entry) => entry.tag));
}
