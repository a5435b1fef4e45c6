/*
 * The "Ticket types" rows of the plan and edit forms (PUT /api/events/:id/ticket-types): the values as
 * typed, their checks (the server's own, said before sending), and the list the server is sent. Errors are
 * keyed like the server's fields without their prefix: `1.price` for `ticketTypes.1.price`, '' for the list.
 */
import { MAX_TICKETS_PER_ORDER, TICKET_PRICE_MAX } from '@tukio/shared/limits';
import type { TicketTypeView } from '../../../types/api';
import type { TicketTypeInput } from '../api/events-api';
import { formatShillings } from '../../../lib/format';
import { t } from '../../../lib/i18n';

export const TICKET_TYPES_MAX = 10;
export const DEFAULT_TYPE_NAME = 'General admission';

export interface TicketTypeRow {
  /** React's key: stays with the row when rows move. */
  key: string;
  /** The stored type this row edits; absent for a new one. */
  _id?: string;
  name: string;
  price: string;
  capacity: string;
  /** `YYYY-MM-DDTHH:mm` (a datetime-local box) or ''. */
  salesStart: string;
  salesEnd: string;
  maxPerOrder: string;
  /** Paying in parts (docs/decisions/instalments.md): the deposit percent ('' for no plan), the due date, the cancellation fee. */
  instalmentPercent: string;
  instalmentDue: string;
  instalmentFee: string;
  /**
   * On an event series (docs/decisions/event-series.md), which date the type is sold for: SOLD_FOR_PICKED (the
   * date the buyer picks), SOLD_FOR_EVERY (a pass: every date), or one date's id.
   */
  soldFor: string;
}

export const SOLD_FOR_PICKED = '';
export const SOLD_FOR_EVERY = 'every';

export type TicketTypeField = Exclude<keyof TicketTypeRow, 'key' | '_id'>;
export type TicketTypeErrors = Record<string, string>;

let nextKey = 0;
const newKey = () => `type-${(nextKey += 1)}`;

export function newTypeRow(values: Partial<Omit<TicketTypeRow, 'key'>> = {}): TicketTypeRow {
  return { key: newKey(), name: '', price: '', capacity: '', salesStart: '', salesEnd: '', maxPerOrder: '', instalmentPercent: '', instalmentDue: '', instalmentFee: '', soldFor: SOLD_FOR_PICKED, ...values };
}

/** The one row a new paid event starts with: what the server makes of a bare ticket price. */
export const defaultTypeRows = (price = ''): TicketTypeRow[] => [newTypeRow({ name: DEFAULT_TYPE_NAME, price })];

/** The form's rows for the stored types (wall-clock ISO dates cut to the box's minutes). */
export function typeRowsOf(types: TicketTypeView[]): TicketTypeRow[] {
  return types.map((type) =>
    newTypeRow({
      _id: type._id,
      name: type.name,
      price: String(type.price),
      capacity: type.capacity === null ? '' : String(type.capacity),
      salesStart: type.salesStart?.slice(0, 16) ?? '',
      salesEnd: type.salesEnd?.slice(0, 16) ?? '',
      maxPerOrder: type.maxPerOrder >= MAX_TICKETS_PER_ORDER ? '' : String(type.maxPerOrder),
      instalmentPercent: type.instalments ? String(type.instalments.depositPercent) : '',
      instalmentDue: type.instalments?.dueDate.slice(0, 16) ?? '',
      instalmentFee: type.instalments && type.instalments.cancellationFee > 0 ? String(type.instalments.cancellationFee) : '',
      soldFor: type.allDates ? SOLD_FOR_EVERY : (type.dateId ?? SOLD_FOR_PICKED),
    }),
  );
}

const wholeNumber = (text: string) => text.trim() !== '' && Number.isInteger(Number(text));

export function validateTypeRows(rows: TicketTypeRow[]): TicketTypeErrors {
  const errors: TicketTypeErrors = {};
  if (rows.length === 0) errors[''] = t('events.typesMin');
  if (rows.length > TICKET_TYPES_MAX) errors[''] = t('events.typesMax', { max: TICKET_TYPES_MAX });
  const seen = new Set<string>();
  rows.forEach((row, index) => {
    const name = row.name.trim();
    if (!name) errors[`${index}.name`] = t('events.typeNameRequired');
    else if (name.length > 60) errors[`${index}.name`] = t('events.typeNameTooLong');
    else if (seen.has(name.toLowerCase())) errors[`${index}.name`] = t('events.typeNameDuplicate');
    seen.add(name.toLowerCase());
    const price = Number(row.price);
    if (row.price.trim() === '') errors[`${index}.price`] = t('events.priceRequired');
    else if (!Number.isFinite(price) || price < 1) errors[`${index}.price`] = t('events.priceMin');
    else if (!Number.isInteger(price)) errors[`${index}.price`] = t('events.priceWhole');
    else if (price > TICKET_PRICE_MAX) errors[`${index}.price`] = t('events.priceMax', { max: formatShillings(TICKET_PRICE_MAX) });
    if (row.capacity.trim() !== '' && (!wholeNumber(row.capacity) || Number(row.capacity) < 1)) errors[`${index}.capacity`] = t('events.capacityInvalid');
    if (row.maxPerOrder.trim() !== '' && (!wholeNumber(row.maxPerOrder) || Number(row.maxPerOrder) < 1 || Number(row.maxPerOrder) > MAX_TICKETS_PER_ORDER)) {
      errors[`${index}.maxPerOrder`] = t('events.maxPerOrderInvalid', { max: MAX_TICKETS_PER_ORDER });
    }
    if (row.salesStart && row.salesEnd && row.salesStart >= row.salesEnd) errors[`${index}.salesEnd`] = t('events.salesEndBeforeStart');
    if (hasPlan(row)) {
      const percent = Number(row.instalmentPercent);
      if (!wholeNumber(row.instalmentPercent) || percent < 10 || percent > 90) errors[`${index}.instalmentPercent`] = t('events.instalmentPercentInvalid');
      if (!row.instalmentDue) errors[`${index}.instalmentDue`] = t('events.instalmentDueRequired');
      const deposit = Math.ceil((Number(row.price) * percent) / 100);
      if (row.instalmentFee.trim() !== '' && (!wholeNumber(row.instalmentFee) || Number(row.instalmentFee) < 0)) errors[`${index}.instalmentFee`] = t('events.instalmentFeeInvalid');
      else if (Number(row.instalmentFee || 0) >= deposit && Number.isFinite(deposit)) errors[`${index}.instalmentFee`] = t('events.instalmentFeeTooHigh');
    }
  });
  return errors;
}

/** The list PUT sends. */
export function typeInputs(rows: TicketTypeRow[]): TicketTypeInput[] {
  return rows.map((row) => ({
    ...(row._id ? { _id: row._id } : {}),
    name: row.name.trim(),
    price: Number(row.price),
    capacity: row.capacity.trim() === '' ? null : Number(row.capacity),
    salesStart: row.salesStart || null,
    salesEnd: row.salesEnd || null,
    maxPerOrder: row.maxPerOrder.trim() === '' ? null : Number(row.maxPerOrder),
    instalments: hasPlan(row) ? { depositPercent: Number(row.instalmentPercent), dueDate: row.instalmentDue, cancellationFee: row.instalmentFee.trim() === '' ? 0 : Number(row.instalmentFee) } : null,
    ...soldForInput(row.soldFor),
  }));
}

/** A row's "Sold for" as the server's fields: a date's id, a pass for every date, or neither (the buyer picks). */
export function soldForInput(soldFor: string): Pick<TicketTypeInput, 'dateId' | 'allDates'> {
  if (soldFor === SOLD_FOR_EVERY) return { dateId: null, allDates: true };
  return { dateId: soldFor === SOLD_FOR_PICKED ? null : soldFor, allDates: false };
}

/**
 * The "Sold for" choices of a series' type rows: the buyer's pick, each active date, every date. A row tied to a
 * date since cancelled keeps that date as a choice, so the row shows what is stored until the organiser changes it.
 * None (no select shown) on an event with fewer than two active dates and no row tied to a date.
 */
export function soldForChoices<D extends { _id: string; startsAt: string; status: string }>(dates: D[], rows: Array<Pick<TicketTypeRow, 'soldFor'>>): Array<{ value: string; date?: D }> {
  const active = dates.filter((date) => date.status === 'active');
  const tied = new Set(rows.map((row) => row.soldFor).filter((value) => value !== SOLD_FOR_PICKED && value !== SOLD_FOR_EVERY));
  if (active.length < 2 && tied.size === 0 && !rows.some((row) => row.soldFor === SOLD_FOR_EVERY)) return [];
  const shown = dates.filter((date) => date.status === 'active' || tied.has(date._id));
  return [{ value: SOLD_FOR_PICKED }, ...shown.map((date) => ({ value: date._id, date })), { value: SOLD_FOR_EVERY }];
}

/** A row offers paying in parts once its deposit percent is given. */
export const hasPlan = (row: Pick<TicketTypeRow, 'instalmentPercent'>) => row.instalmentPercent.trim() !== '';

/** The cheapest row's price: the event's `ticketPrice` (what lists show as "from"). */
export const cheapestPrice = (rows: TicketTypeRow[]) => Math.min(...rows.map((row) => Number(row.price)));

/**
 * True when the rows say no more than a bare ticket price does (one new "General admission" row without
 * limits): the event is created with that price alone, exactly as before ticket types.
 */
export function isPlainPrice(rows: TicketTypeRow[]): boolean {
  if (rows.length !== 1) return false;
  const [row] = rows as [TicketTypeRow];
  return !row._id && row.name.trim() === DEFAULT_TYPE_NAME && !row.capacity.trim() && !row.salesStart && !row.salesEnd && !row.maxPerOrder.trim() && !hasPlan(row) && row.soldFor === SOLD_FOR_PICKED;
}

/**
 * The errors left after an edit of the rows: the edited field's goes; a row moved or removed shifts the
 * indexes errors are keyed by, so they all go (they are checked again on sending).
 */
export function errorsAfterEdit(errors: TicketTypeErrors, touched: string | undefined): TicketTypeErrors {
  if (!touched) return {};
  return errors[touched] ? { ...errors, [touched]: '' } : errors;
}

const ROW_FIELDS = ['name', 'price', 'capacity', 'salesStart', 'salesEnd', 'maxPerOrder'];
/** The server's names of a plan's fields, as the row's. */
const PLAN_FIELDS: Record<string, string> = { depositPercent: 'instalmentPercent', dueDate: 'instalmentDue', cancellationFee: 'instalmentFee' };

/**
 * A server refusal's field as an error key: `ticketTypes.1.price` -> `1.price`, another part of a row
 * (`ticketTypes.1._id`, `ticketTypes.1`) -> `1` (said under the row), the list -> ''; null for another field.
 */
export function typeErrorKey(field: string): string | null {
  if (field === 'ticketTypes') return '';
  const plan = /^ticketTypes\.(\d+)\.instalments(?:\.(\w+))?/.exec(field);
  if (plan) return `${plan[1]}.${PLAN_FIELDS[plan[2] ?? ''] ?? 'instalmentPercent'}`;
  const date = /^ticketTypes\.(\d+)\.(?:dateId|allDates)$/.exec(field);
  if (date) return `${date[1]}.soldFor`;
  const match = /^ticketTypes\.(\d+)(?:\.(\w+))?/.exec(field);
  if (!match) return null;
  return match[2] && ROW_FIELDS.includes(match[2]) ? `${match[1]}.${match[2]}` : match[1]!;
}
