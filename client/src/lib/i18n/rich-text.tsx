import { Fragment, type ReactNode } from 'react';
import type { TranslationValues } from './messages';
import { useT } from './react';

const PART_MARK = '\u0000';

/**
 * A text with elements inside it: `<RichText id="events.cancelledNoEdit" parts={{ title: <Link …/> }} />`
 * for "{title} was cancelled…", so each language places the link where its sentence needs it.
 */
export function RichText({ id, values, parts }: { id: string; values?: TranslationValues; parts: Record<string, ReactNode> }) {
  const t = useT();
  const marks = Object.fromEntries(Object.keys(parts).map((name) => [name, `${PART_MARK}${name}${PART_MARK}`]));
  const pieces = t(id, { ...values, ...marks }).split(new RegExp(`${PART_MARK}(\\w+)${PART_MARK}`));
  return <>{pieces.map((piece, index) => (index % 2 === 1 ? <Fragment key={index}>{parts[piece]}</Fragment> : piece))}</>;
}
