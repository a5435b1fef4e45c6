import { formatDateTime } from '../../../lib/format';
import { timeAgo } from '../lib/time';

/** A `<time>` showing relative text, with the exact local date and time as its tooltip. */
export function TimeAgo({ value }: { value: string | undefined }) {
  if (!value) return null;
  return (
    <time dateTime={value} title={formatDateTime(value)}>
      {timeAgo(value)}
    </time>
  );
}
