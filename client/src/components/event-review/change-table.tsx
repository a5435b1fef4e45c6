/*
 * A proposed edit of a published event as a side-by-side table, one row per changed field: the published
 * value | the proposed one. The organiser's notice (/edit-event) and the admin's queue (/admin) show the same.
 */
import { formatEventDate, formatEventTime, formatShillings } from '../../lib/format';
import { useT } from '../../lib/i18n';
import type { FieldChange, ReviewedField } from '../../lib/event-review-api';
import './change-table.css';

const FIELD_LABEL: Record<ReviewedField, string> = {
  title: 'event-review.fieldTitle',
  description: 'event-review.fieldDescription',
  image: 'event-review.fieldImage',
  date: 'event-review.fieldDate',
  location: 'event-review.fieldLocation',
  price: 'event-review.fieldPrice',
};

function Value({ field, value }: { field: ReviewedField; value: string | number | null }) {
  const t = useT();
  if (field === 'price') return <>{typeof value === 'number' && value > 0 ? formatShillings(value) : t('event-review.free')}</>;
  if (field === 'date' && typeof value === 'string') return <time dateTime={value}>{`${formatEventDate(value)} · ${formatEventTime(value)}`}</time>;
  if (field === 'image') return value ? <img className="change-table__image" src={String(value)} alt="" loading="lazy" /> : <>{t('event-review.noImage')}</>;
  return <>{value ?? ''}</>;
}

export function ChangeTable({ changes, caption }: { changes: FieldChange[]; caption?: string }) {
  const t = useT();
  return (
    <table className="change-table">
      {caption ? <caption className="visually-hidden">{caption}</caption> : null}
      <thead>
        <tr>
          <th scope="col">{t('event-review.field')}</th>
          <th scope="col">{t('event-review.published')}</th>
          <th scope="col">{t('event-review.proposed')}</th>
        </tr>
      </thead>
      <tbody>
        {changes.map((change) => (
          <tr key={change.field}>
            <th scope="row">{t(FIELD_LABEL[change.field])}</th>
            <td className="change-table__from" data-label={t('event-review.published')}>
              <Value field={change.field} value={change.from} />
            </td>
            <td className="change-table__to" data-label={t('event-review.proposed')}>
              <Value field={change.field} value={change.to} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
