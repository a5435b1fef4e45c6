import { formatDateTime } from '../../../lib/format';
import { useLanguage } from '../../../lib/i18n';
import { timeAgo } from '../lib/time';

/** A `<time>` showing relative text, with the exact local date and time as its tooltip. */
export function TimeAgo({ value }: { value: string | undefined }) {
  useLanguage(); // the text follows a language switch
  if (!value) return null;
  return (
    <time dateTime={value} title={formatDateTime(value)}>
      {timeAgo(value)}
    </time>
  );
}
