import { DEFAULT_LANGUAGE, type Language } from '@tukio/shared/languages';
import en from '../locales/en/mail.json' with { type: 'json' };
import sw from '../locales/sw/mail.json' with { type: 'json' };

export type { Language };

/**
 * Mail and SMS in the recipient's language (docs/decisions/languages.md, "Server"). The catalogs are flat
 * JSON, key → ICU MessageFormat string, in the client's format: `server/src/locales/{en,sw}/mail.json`.
 * They are formatted here with Intl and a small formatter for the ICU subset the catalogs use (`{name}`,
 * `{n, plural, …}` with `#` and `=N`, `{x, select, …}`): the server needs no compile step, and the
 * client's Lingui runtime reads the same syntax.
 */
export type MessageKey = keyof typeof en;
export type MessageParams = Record<string, string | number>;

const catalogs: Record<Language, Record<string, string>> = { en, sw };

type Node =
  | { type: 'text'; value: string }
  | { type: 'arg'; name: string }
  | { type: 'pound' }
  | { type: 'plural' | 'select'; name: string; options: Map<string, Node[]> };

/** Parses one ICU message; `at.i` moves along. Stops at an unmatched `}` (the end of an option). */
function parseNodes(source: string, at: { i: number }, inPlural: boolean): Node[] {
  const nodes: Node[] = [];
  let text = '';
  const flush = () => {
    if (text) nodes.push({ type: 'text', value: text });
    text = '';
  };
  while (at.i < source.length) {
    const char = source[at.i]!;
    if (char === '}') break;
    if (char === '{') {
      flush();
      nodes.push(parseArgument(source, at));
    } else if (char === '#' && inPlural) {
      flush();
      nodes.push({ type: 'pound' });
      at.i += 1;
    } else {
      text += char;
      at.i += 1;
    }
  }
  flush();
  return nodes;
}

function readUntil(source: string, at: { i: number }, stops: string): string {
  const start = at.i;
  while (at.i < source.length && !stops.includes(source[at.i]!)) at.i += 1;
  return source.slice(start, at.i).trim();
}

function parseArgument(source: string, at: { i: number }): Node {
  at.i += 1; // {
  const name = readUntil(source, at, ',}');
  if (source[at.i] === '}') {
    at.i += 1;
    return { type: 'arg', name };
  }
  at.i += 1; // ,
  const kind = readUntil(source, at, ',}');
  if (kind !== 'plural' && kind !== 'select') throw new Error(`unsupported ICU argument type "${kind}" in: ${source}`);
  at.i += 1; // ,
  const options = new Map<string, Node[]>();
  for (;;) {
    while (/\s/.test(source[at.i] ?? '')) at.i += 1;
    if (source[at.i] === '}' || at.i >= source.length) break;
    const selector = readUntil(source, at, '{ \n\t');
    while (/\s/.test(source[at.i] ?? '')) at.i += 1;
    if (source[at.i] !== '{') throw new Error(`expected "{" after "${selector}" in: ${source}`);
    at.i += 1;
    options.set(selector, parseNodes(source, at, kind === 'plural'));
    at.i += 1; // }
  }
  at.i += 1; // }
  return { type: kind, name, options };
}

const parsed = new Map<string, Node[]>();
const pluralRules = new Map<Language, Intl.PluralRules>();

function render(nodes: Node[], params: MessageParams, language: Language, count?: number): string {
  let out = '';
  for (const node of nodes) {
    if (node.type === 'text') out += node.value;
    else if (node.type === 'pound') out += String(count ?? '#');
    else if (node.type === 'arg') out += node.name in params ? String(params[node.name]) : `{${node.name}}`;
    else if (node.type === 'select') {
      const chosen = node.options.get(String(params[node.name])) ?? node.options.get('other') ?? [];
      out += render(chosen, params, language, count);
    } else {
      const value = Number(params[node.name]);
      let rules = pluralRules.get(language);
      if (!rules) pluralRules.set(language, (rules = new Intl.PluralRules(language)));
      const chosen = node.options.get(`=${value}`) ?? node.options.get(rules.select(value)) ?? node.options.get('other') ?? [];
      out += render(chosen, params, language, value);
    }
  }
  return out;
}

/** Formats an ICU message in `language`. Exported for tests and the catalog check. */
export function formatMessage(message: string, params: MessageParams, language: Language): string {
  let nodes = parsed.get(message);
  if (!nodes) parsed.set(message, (nodes = parseNodes(message, { i: 0 }, false)));
  return render(nodes, params, language);
}

/** The catalog text for `key` in `language` (English when the key is missing there), formatted with `params`. */
export function translate(language: Language, key: MessageKey, params: MessageParams = {}): string {
  const message = catalogs[language][key] ?? catalogs[DEFAULT_LANGUAGE][key] ?? key;
  return formatMessage(message, params, language);
}

/** `translate` bound to one language: what a mail or SMS builder is given. */
export type Translate = (key: MessageKey, params?: MessageParams) => string;
export const translator = (language: Language): Translate => (key, params) => translate(language, key, params);

const swWallClock = new Intl.DateTimeFormat('sw-KE', { timeZone: 'UTC', weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

/**
 * An event's start as mails say it. Starts are the Nairobi wall clock kept in UTC fields, so they are read
 * back in UTC: English keeps its `YYYY-MM-DD HH:MM`; Kiswahili names the day and month.
 */
export function mailWallClock(date: Date, language: Language): string {
  if (language === 'sw') return swWallClock.format(date);
  return `${date.toISOString().slice(0, 10)} ${date.toISOString().slice(11, 16)}`;
}

/** Shillings as mails say them (`1,500`); the same digits in both languages. */
export const mailAmount = (amount: number) => amount.toLocaleString('en-KE');
