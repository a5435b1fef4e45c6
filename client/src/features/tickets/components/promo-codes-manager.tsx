/*
 * The event's promo codes for its organiser (GET/POST/DELETE /api/events/:id/promo-codes): each with what it
 * takes off, its uses against its maximum and its validity; a form to make one (the server's refusal shows
 * at the field it names, and what was typed stays); delete after a confirmation (a used code is ended
 * instead, so the orders that used it keep pointing at it).
 */
import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { LoadingOrFailure } from '../../../components/ui/disclosure-panel';
import { TextField } from '../../../components/ui/form-field';
import { FormMessage } from '../../../components/ui/form-message';
import { useFetch } from '../../../hooks/use-fetch';
import { getErrorMessage, getServerFieldError } from '../../../lib/errors';
import { formatEventDate, formatEventTime, formatShillings } from '../../../lib/format';
import { notify } from '../../../lib/notify';
import { getTicketTypes } from '../../../lib/ticket-types-api';
import { createPromoCode, listPromoCodes, removePromoCode, type PromoCode, type PromoCodeKind } from '../api/order-api';

interface CodeValues {
  code: string;
  kind: PromoCodeKind;
  value: string;
  maxUses: string;
  validFrom: string;
  validUntil: string;
  ticketTypeIds: string[];
}

const emptyCode: CodeValues = { code: '', kind: 'percent', value: '', maxUses: '', validFrom: '', validUntil: '', ticketTypeIds: [] };
type CodeErrors = Partial<Record<keyof CodeValues, string>>;

/** The checks the server makes too, said before sending. */
function validateCode(values: CodeValues): CodeErrors {
  const errors: CodeErrors = {};
  const code = values.code.trim();
  if (code.length < 3) errors.code = 'Promo codes are at least 3 characters.';
  else if (!/^[A-Za-z0-9_-]+$/.test(code)) errors.code = 'Promo codes are letters, digits, - and _ only.';
  const value = Number(values.value);
  if (values.value.trim() === '' || !Number.isInteger(value) || value < 1) errors.value = 'Value must be a whole number of at least 1.';
  else if (values.kind === 'percent' && value > 100) errors.value = 'A percentage is at most 100.';
  if (values.maxUses.trim() !== '' && (!Number.isInteger(Number(values.maxUses)) || Number(values.maxUses) < 1)) errors.maxUses = 'Maximum uses must be a whole number of at least 1.';
  if (values.validFrom && values.validUntil && values.validFrom >= values.validUntil) errors.validUntil = 'Valid until must be after valid from.';
  return errors;
}

const wallClock = (value: string) => `${formatEventDate(value)}, ${formatEventTime(value)}`;

/** '20% off' or 'Ksh.100 off each ticket'. */
export const describeDiscount = (code: Pick<PromoCode, 'kind' | 'value'>) => (code.kind === 'percent' ? `${code.value}% off` : `${formatShillings(code.value)} off each ticket`);

export default function PromoCodesManager({ eventId }: { eventId: string }) {
  const codes = useFetch(`promo-codes:${eventId}`, (signal) => listPromoCodes(eventId, signal));
  const types = useFetch(`ticket-types:${eventId}:manage`, (signal) => getTicketTypes(eventId, signal));
  const [values, setValues] = useState<CodeValues>(emptyCode);
  const [errors, setErrors] = useState<CodeErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [removing, setRemoving] = useState<PromoCode | null>(null);
  const [removeBusy, setRemoveBusy] = useState(false);
  const [removeError, setRemoveError] = useState<string | null>(null);
  const typeList = types.data?.ticketTypes ?? [];
  const typeName = (id: string) => typeList.find((type) => type._id === id)?.name ?? 'a removed type';

  const change = <K extends keyof CodeValues>(field: K, value: CodeValues[K]) => {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const create = async (submit: FormEvent<HTMLFormElement>) => {
    submit.preventDefault();
    if (saving) return;
    setFormError(null);
    const found = validateCode(values);
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    setSaving(true);
    try {
      const created = await createPromoCode(eventId, {
        code: values.code.trim(),
        kind: values.kind,
        value: Number(values.value),
        maxUses: values.maxUses.trim() === '' ? null : Number(values.maxUses),
        validFrom: values.validFrom || null,
        validUntil: values.validUntil || null,
        ticketTypeIds: values.ticketTypeIds.length > 0 ? values.ticketTypeIds : null,
      });
      codes.setData((current) => [...(current ?? []), created]);
      setValues(emptyCode);
      notify.success(`Promo code ${created.code} created.`);
    } catch (error) {
      const refusal = getServerFieldError(error);
      if (refusal && refusal.field in emptyCode) setErrors({ [refusal.field]: refusal.msg });
      else setFormError(getErrorMessage(error, 'The promo code could not be created. Please try again.'));
    } finally {
      setSaving(false);
    }
  };

  const confirmRemove = async () => {
    if (!removing) return;
    setRemoveBusy(true);
    setRemoveError(null);
    try {
      const result = await removePromoCode(eventId, removing._id);
      notify.success(result.msg);
      setRemoving(null);
      codes.reload();
    } catch (error) {
      setRemoveError(getErrorMessage(error, 'The promo code could not be removed. Please try again.'));
    } finally {
      setRemoveBusy(false);
    }
  };

  if (!codes.data) {
    return <LoadingOrFailure error={codes.error} reload={codes.reload} loadingText="Loading the promo codes…" failureText="Could not load the promo codes. Please try again." />;
  }

  return (
    <div className="promo-panel__body">
      {codes.data.length === 0 ? (
        <p className="empty-state">No promo codes yet.</p>
      ) : (
        <ul className="promo-panel__list">
          {codes.data.map((code) => (
            <li key={code._id} className="promo-panel__item" aria-label={`Promo code ${code.code}`}>
              <div className="promo-panel__item-top">
                <strong className="promo-panel__code">{code.code}</strong>
                <span>{describeDiscount(code)}</span>
              </div>
              <p className="muted">
                {code.maxUses === null ? `${code.uses} used` : `${code.uses} / ${code.maxUses} used`}
                {code.validFrom ? ` · from ${wallClock(code.validFrom)}` : ''}
                {code.validUntil ? ` · until ${wallClock(code.validUntil)}` : ''}
                {code.ticketTypeIds && code.ticketTypeIds.length > 0 ? ` · ${code.ticketTypeIds.map(typeName).join(', ')} only` : ''}
              </p>
              <Button
                variant="ghost"
                className="btn--sm promo-panel__remove"
                onClick={() => {
                  setRemoveError(null);
                  setRemoving(code);
                }}
              >
                Delete {code.code}
              </Button>
            </li>
          ))}
        </ul>
      )}

      <form className="form promo-panel__form" onSubmit={(submit) => void create(submit)} noValidate aria-label="New promo code">
        <h3 className="promo-panel__subtitle">New promo code</h3>
        <TextField label="Code" name="code" autoCapitalize="characters" autoComplete="off" maxLength={40} value={values.code} error={errors.code} onChange={(event) => change('code', event.target.value)} />
        <div className="form__row">
          <div className="field">
            <label className="field__label" htmlFor={`promo-kind-${eventId}`}>
              Discount
            </label>
            <select id={`promo-kind-${eventId}`} className="field__control" value={values.kind} onChange={(event) => change('kind', event.target.value as PromoCodeKind)}>
              <option value="percent">Percent off</option>
              <option value="fixed">Shillings off each ticket</option>
            </select>
          </div>
          <TextField
            label={values.kind === 'percent' ? 'Percent' : 'Shillings'}
            name="value"
            type="number"
            inputMode="numeric"
            min={1}
            max={values.kind === 'percent' ? 100 : undefined}
            step={1}
            value={values.value}
            error={errors.value}
            onChange={(event) => change('value', event.target.value)}
          />
        </div>
        <TextField label="Maximum uses (optional)" name="maxUses" type="number" inputMode="numeric" min={1} step={1} value={values.maxUses} error={errors.maxUses} onChange={(event) => change('maxUses', event.target.value)} />
        <div className="form__row">
          <TextField label="Valid from (optional)" name="validFrom" type="datetime-local" value={values.validFrom} error={errors.validFrom} onChange={(event) => change('validFrom', event.target.value)} />
          <TextField label="Valid until (optional)" name="validUntil" type="datetime-local" value={values.validUntil} error={errors.validUntil} onChange={(event) => change('validUntil', event.target.value)} />
        </div>
        {typeList.length > 1 ? (
          <fieldset className="promo-panel__types">
            <legend>Only for these ticket types (optional)</legend>
            {typeList.map((type) => (
              <label key={type._id} className="checkbox">
                <input
                  type="checkbox"
                  checked={values.ticketTypeIds.includes(type._id)}
                  onChange={(event) =>
                    change('ticketTypeIds', event.target.checked ? [...values.ticketTypeIds, type._id] : values.ticketTypeIds.filter((id) => id !== type._id))
                  }
                />
                <span>{type.name}</span>
              </label>
            ))}
            {errors.ticketTypeIds ? <p className="field__error">{errors.ticketTypeIds}</p> : null}
          </fieldset>
        ) : null}
        {formError ? <FormMessage tone="error">{formError}</FormMessage> : null}
        <Button type="submit" variant="secondary" loading={saving} loadingText="Creating…">
          Create promo code
        </Button>
      </form>

      <ConfirmDialog
        open={removing !== null}
        title={`Delete ${removing?.code ?? 'the promo code'}?`}
        description={
          removing && removing.uses > 0
            ? `${removing.code} was used ${removing.uses === 1 ? 'once' : `${removing.uses} times`}: it will be ended now and kept for the records.`
            : 'Buyers will no longer be able to use it.'
        }
        confirmLabel={removing && removing.uses > 0 ? 'End the code' : 'Delete the code'}
        busyLabel="Removing…"
        busy={removeBusy}
        error={removeError}
        onConfirm={() => void confirmRemove()}
        onClose={() => {
          if (!removeBusy) setRemoving(null);
        }}
      />
    </div>
  );
}
