/*
 * "Ticket types" in the plan and edit forms of a paid event: one row per kind of ticket (name, price, and
 * optionally its own capacity, sale window and per-order maximum), in the order buyers see them. A new event
 * starts with one "General admission" row, which is all an event with one price needs. Errors show at the
 * row's field, the server's included (`ticketTypes.1.price` -> row 2's price).
 */
import { MAX_TICKETS_PER_ORDER } from '@tukio/shared/limits';
import { useState, type ReactNode } from 'react';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/form-field';
import { newTypeRow, SOLD_FOR_EVERY, SOLD_FOR_PICKED, soldForChoices, TICKET_TYPES_MAX, type TicketTypeErrors, type TicketTypeField, type TicketTypeRow } from '../lib/ticket-type-rows';
import { formatSeriesDate } from '../../../lib/format';
import { useT } from '../../../lib/i18n';
import type { EventDate } from '../../../types/api';

export interface TicketTypesFieldsProps {
  rows: TicketTypeRow[];
  errors: TicketTypeErrors;
  onChange: (rows: TicketTypeRow[], touched?: string) => void;
  disabled?: boolean;
  /** The event's series dates (docs/decisions/event-series.md): with two or more, each row says which date it is sold for. */
  dates?: EventDate[] | undefined;
}

export function TicketTypesFields({ rows, errors, onChange, disabled, dates = [] }: TicketTypesFieldsProps) {
  const t = useT();
  const choices = soldForChoices(dates, rows);
  const choiceLabel = (choice: (typeof choices)[number]) =>
    choice.date
      ? choice.date.status === 'cancelled'
        ? t('events.soldForCancelledDate', { date: formatSeriesDate(choice.date.startsAt) })
        : formatSeriesDate(choice.date.startsAt)
      : choice.value === SOLD_FOR_EVERY
        ? t('events.soldForEvery')
        : t('events.soldForPicked');
  const set = (index: number, field: TicketTypeField, value: string) =>
    onChange(
      rows.map((row, at) => (at === index ? { ...row, [field]: value } : row)),
      `${index}.${field}`,
    );
  const move = (index: number, by: -1 | 1) => {
    const next = [...rows];
    const [row] = next.splice(index, 1);
    next.splice(index + by, 0, row!);
    onChange(next);
  };
  const remove = (index: number) => onChange(rows.filter((_, at) => at !== index));

  return (
    <div className="ticket-types">
      <div>
        <h3 className="ticket-types__title">{t('events.ticketTypes')}</h3>
        <p className="muted ticket-types__hint">
          {t('events.typesHint')}
        </p>
      </div>
      {errors[''] ? (
        <p className="field__error" role="alert">
          {errors['']}
        </p>
      ) : null}
      <ol className="ticket-types__list">
        {rows.map((row, index) => {
          const error = (field: TicketTypeField) => errors[`${index}.${field}`];
          const label = row.name.trim() || t('events.typeNumberLower', { number: index + 1 });
          return (
            <li key={row.key}>
              <fieldset className="ticket-types__row" disabled={disabled}>
                <legend>{t('events.typeNumber', { number: index + 1 })}</legend>
                <div className="ticket-types__main">
                  <TextField label={t('events.typeName')} name={`type-${index}-name`} maxLength={60} value={row.name} error={error('name')} onChange={(event) => set(index, 'name', event.target.value)} />
                  <TextField
                    label={t('events.priceKsh')}
                    name={`type-${index}-price`}
                    type="number"
                    inputMode="numeric"
                    min={1}
                    step={1}
                    value={row.price}
                    error={error('price')}
                    onChange={(event) => set(index, 'price', event.target.value)}
                  />
                </div>
                {choices.length > 0 ? (
                  <label className={`field${error('soldFor') ? ' field--invalid' : ''}`}>
                    <span className="field__label">{t('events.soldFor')}</span>
                    <select className="field__control" name={`type-${index}-sold-for`} value={row.soldFor} onChange={(event) => set(index, 'soldFor', event.target.value)}>
                      {choices.map((choice) => (
                        <option key={choice.value || SOLD_FOR_PICKED} value={choice.value}>
                          {choiceLabel(choice)}
                        </option>
                      ))}
                    </select>
                    {error('soldFor') ? <span className="field__error">{error('soldFor')}</span> : null}
                  </label>
                ) : null}
                <Limits set={Boolean(row.capacity || row.salesStart || row.salesEnd || row.maxPerOrder)} invalid={Boolean(error('capacity') || error('salesStart') || error('salesEnd') || error('maxPerOrder'))}>
                    <TextField
                      label={t('events.capacityOptional')}
                      name={`type-${index}-capacity`}
                      type="number"
                      inputMode="numeric"
                      min={1}
                      step={1}
                      value={row.capacity}
                      error={error('capacity')}
                      onChange={(event) => set(index, 'capacity', event.target.value)}
                    />
                    <TextField
                      label={t('events.maxPerOrder')}
                      name={`type-${index}-max`}
                      type="number"
                      inputMode="numeric"
                      min={1}
                      max={MAX_TICKETS_PER_ORDER}
                      step={1}
                      hint={t('events.upTo', { max: MAX_TICKETS_PER_ORDER })}
                      value={row.maxPerOrder}
                      error={error('maxPerOrder')}
                      onChange={(event) => set(index, 'maxPerOrder', event.target.value)}
                    />
                    <TextField
                      label={t('events.salesStart')}
                      name={`type-${index}-sales-start`}
                      type="datetime-local"
                      value={row.salesStart}
                      error={error('salesStart')}
                      onChange={(event) => set(index, 'salesStart', event.target.value)}
                    />
                    <TextField
                      label={t('events.salesEnd')}
                      name={`type-${index}-sales-end`}
                      type="datetime-local"
                      value={row.salesEnd}
                      error={error('salesEnd')}
                      onChange={(event) => set(index, 'salesEnd', event.target.value)}
                    />
                </Limits>
                <Instalments set={Boolean(row.instalmentPercent)} invalid={Boolean(error('instalmentPercent') || error('instalmentDue') || error('instalmentFee'))}>
                  <TextField
                    label={t('events.instalmentPercent')}
                    name={`type-${index}-instalment-percent`}
                    type="number"
                    inputMode="numeric"
                    min={10}
                    max={90}
                    step={1}
                    hint={t('events.instalmentPercentHint')}
                    value={row.instalmentPercent}
                    error={error('instalmentPercent')}
                    onChange={(event) => set(index, 'instalmentPercent', event.target.value)}
                  />
                  <TextField
                    label={t('events.instalmentDue')}
                    name={`type-${index}-instalment-due`}
                    type="datetime-local"
                    hint={t('events.instalmentDueHint')}
                    value={row.instalmentDue}
                    error={error('instalmentDue')}
                    onChange={(event) => set(index, 'instalmentDue', event.target.value)}
                  />
                  <TextField
                    label={t('events.instalmentFee')}
                    name={`type-${index}-instalment-fee`}
                    type="number"
                    inputMode="numeric"
                    min={0}
                    step={1}
                    hint={t('events.instalmentFeeHint')}
                    value={row.instalmentFee}
                    error={error('instalmentFee')}
                    onChange={(event) => set(index, 'instalmentFee', event.target.value)}
                  />
                </Instalments>
                {errors[String(index)] ? <p className="field__error">{errors[String(index)]}</p> : null}
                <div className="button-row ticket-types__actions">
                  <Button variant="ghost" className="btn--sm" disabled={index === 0} onClick={() => move(index, -1)} aria-label={t('events.moveUpNamed', { label })}>
                    {t('events.moveUp')}
                  </Button>
                  <Button variant="ghost" className="btn--sm" disabled={index === rows.length - 1} onClick={() => move(index, 1)} aria-label={t('events.moveDownNamed', { label })}>
                    {t('events.moveDown')}
                  </Button>
                  <Button variant="ghost" className="btn--sm" disabled={rows.length === 1} onClick={() => remove(index)} aria-label={t('events.removeNamed', { label })}>
                    {t('events.remove')}
                  </Button>
                </div>
              </fieldset>
            </li>
          );
        })}
      </ol>
      {rows.length < TICKET_TYPES_MAX ? (
        <Button variant="secondary" className="ticket-types__add" disabled={disabled} onClick={() => onChange([...rows, newTypeRow()])}>
          {t('events.addType')}
        </Button>
      ) : null}
    </div>
  );
}

/** A row's instalment plan ("Lipa pole pole"), folded away until wanted: open when set or in error. */
function Instalments({ set, invalid, children }: { set: boolean; invalid: boolean; children: ReactNode }) {
  const t = useT();
  const [open, setOpen] = useState(set);
  return (
    <details className="ticket-types__more" open={open || invalid} onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>{t('events.instalmentsSummary')}</summary>
      <p className="muted">{t('events.instalmentsHint')}</p>
      <div className="ticket-types__limits">{children}</div>
    </details>
  );
}

/** A row's optional limits, folded away until wanted: open when any is set, and whenever one is in error. */
function Limits({ set, invalid, children }: { set: boolean; invalid: boolean; children: ReactNode }) {
  const t = useT();
  const [open, setOpen] = useState(set);
  return (
    <details className="ticket-types__more" open={open || invalid} onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>{t('events.limitsSummary')}</summary>
      <div className="ticket-types__limits">{children}</div>
    </details>
  );
}
