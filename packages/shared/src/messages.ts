/*
 * Renders translation catalogs' messages, compiled from ICU MessageFormat by Lingui's compiler
 * (./compile-messages.ts, run by the client's build and once at start by the API server). The compiled form is
 * a list of pieces: plain text, [name] for a placeholder and [name, 'plural' | 'select', cases]; the other ICU
 * forms (number, date, selectordinal, offset) are refused at compile time, since the apps format those with Intl
 * themselves. In a plural case the piece '#' stands for the number (plain digits, as the texts always wrote
 * it). Lingui's own runtime (@lingui/core) renders the same form but weighs ~2.5 KB gzip more on the client's
 * first load than this, which the page-weight budget cannot afford (docs/decisions/languages.md).
 * Browser-safe: imports nothing.
 */

export type CompiledMessage = string | CompiledPiece[];
type CompiledPiece = string | [string] | [string, string] | [string, string, unknown];
export type Messages = Record<string, CompiledMessage>;
export type TranslationValues = Record<string, string | number | null | undefined>;

type Cases = Record<string, CompiledMessage>;

/** One Intl.PluralRules per language, made when its first plural is rendered (making one is the costly part). */
const pluralRules = new Map<string, Intl.PluralRules>();
function pluralCategory(locale: string, count: number): string {
  let rules = pluralRules.get(locale);
  if (!rules) {
    rules = new Intl.PluralRules(locale);
    pluralRules.set(locale, rules);
  }
  return rules.select(count);
}

/** Placeholders, plural (with '#' and exact =N cases, compiled to the key "N") and select. */
export function renderMessage(message: CompiledMessage, values: TranslationValues | undefined, locale: string, count?: number): string {
  if (typeof message === 'string') return message;
  let text = '';
  for (const piece of message) {
    if (typeof piece === 'string') {
      text += piece === '#' && count !== undefined ? String(count) : piece; // digits as the texts always wrote them (no grouping)
      continue;
    }
    const [name, kind, options] = piece;
    const value = values?.[name];
    const cases = options as Cases;
    if (kind === 'plural') {
      const number = Number(value);
      text += renderMessage(cases[String(number)] ?? cases[pluralCategory(locale, number)] ?? cases.other ?? '', values, locale, number);
    } else if (kind === 'select') {
      text += renderMessage(cases[String(value)] ?? cases.other ?? '', values, locale, count);
    } else {
      text += value ?? '';
    }
  }
  return text;
}
