/*
 * The event's promo codes for its organiser (GET/POST/DELETE /api/events/:id/promo-codes): each with what it
 * takes off, its uses against its maximum and its validity; a form to make one (the server's refusal shows
 * at the field it names, and what was typed stays); delete after a confirmation (a used code is ended
 * instead, so the orders that used it keep pointing at it).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { LoadingOrFailure } from '../../../components/ui/disclosure-panel';
import { TextField } from '../../../components/ui/form-field';
import { FormMessage } from '../../../components/ui/form-message';
import { getErrorMessage, getServerFieldError } from '../../../lib/errors';
import { formatEventDate, formatEventTime, formatShillings } from '../../../lib/format';
import { notify } from '../../../lib/notify';
import { useConfirmedAction } from '../../../hooks/use-confirmed-action';
import { getTicketTypes } from '../../../lib/ticket-types-api';
import { createPromoCode, listPromoCodes, removePromoCode, type PromoCode, type PromoCodeKind } from '../api/order-api';
import { t, useT } from '../../../lib/i18n';

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
  if (code.length < 3) errors.code = t('tickets.promoTooShort');
  else if (!/^[A-Za-z0-9_-]+$/.test(code)) errors.code = t('tickets.promoChars');
  const value = Number(values.value);
  if (values.value.trim() === '' || !Number.isInteger(value) || value < 1) errors.value = t('tickets.valueInvalid');
  else if (values.kind === 'percent' && value > 100) errors.value = t('tickets.percentMax');
  if (values.maxUses.trim() !== '' && (!Number.isInteger(Number(values.maxUses)) || Number(values.maxUses) < 1)) errors.maxUses = t('tickets.maxUsesInvalid');
  if (values.validFrom && values.validUntil && values.validFrom >= values.validUntil) errors.validUntil = t('tickets.validUntilBeforeFrom');
  return errors;
}

const wallClock = (value: string) => `${formatEventDate(value)}, ${formatEventTime(value)}`;

/** '20% off' or 'Ksh.100 off each ticket'. */
export const describeDiscount = (code: Pick<PromoCode, 'kind' | 'value'>) =>
  code.kind === 'percent' ? t('tickets.percentOff', { value: code.value }) : t('tickets.shillingsOff', { amount: formatShillings(code.value) });

export default function PromoCodesManager({ eventId }: { eventId: string }) {
  const t = useT();
  const queryClient = useQueryClient();
  const codes = useQuery({ queryKey: ['promo-codes', eventId], queryFn: ({ signal }) => listPromoCodes(eventId, signal) });
  const types = useQuery({ queryKey: ['ticket-types', eventId, 'manage'], queryFn: ({ signal }) => getTicketTypes(eventId, signal) });
  const reloadCodes = () => void codes.refetch();
  const [values, setValues] = useState<CodeValues>(emptyCode);
  const [errors, setErrors] = useState<CodeErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
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
      queryClient.setQueryData<typeof codes.data>(['promo-codes', eventId], (current) => [...(current ?? []), created]);
      setValues(emptyCode);
      notify.success(t('tickets.promoCreated', { code: created.code }));
    } catch (error) {
      const refusal = getServerFieldError(error);
      if (refusal && refusal.field in emptyCode) setErrors({ [refusal.field]: refusal.msg });
      else setFormError(getErrorMessage(error, t('tickets.promoCreateFailed')));
    } finally {
      setSaving(false);
    }
  };

  const removal = useConfirmedAction(async (code: PromoCode) => {
    notify.success((await removePromoCode(eventId, code._id)).msg);
    reloadCodes();
  }, t('tickets.promoRemoveFailed'));
  const removing = removal.item;

  if (!codes.data) {
    return <LoadingOrFailure error={codes.error} reload={reloadCodes} loadingText={t('tickets.loadingPromoCodes')} failureText={t('tickets.promoLoadFailed')} />;
  }

  return (
    <div className="promo-panel__body">
      {codes.data.length === 0 ? (
        <p className="empty-state">{t('tickets.noPromoCodes')}</p>
      ) : (
        <ul className="promo-panel__list">
          {codes.data.map((code) => (
            <li key={code._id} className="promo-panel__item" aria-label={t('tickets.promoCodeNamed', { code: code.code })}>
              <div className="promo-panel__item-top">
                <strong className="promo-panel__code">{code.code}</strong>
                <span>{describeDiscount(code)}</span>
              </div>
              <p className="muted">
                {code.maxUses === null ? t('tickets.used', { uses: code.uses }) : t('tickets.usedOf', { uses: code.uses, max: code.maxUses })}
                {code.validFrom ? ` · ${t('tickets.fromWhen', { when: wallClock(code.validFrom) })}` : ''}
                {code.validUntil ? ` · ${t('tickets.untilWhen', { when: wallClock(code.validUntil) })}` : ''}
                {code.ticketTypeIds && code.ticketTypeIds.length > 0 ? ` · ${t('tickets.typesOnly', { types: code.ticketTypeIds.map(typeName).join(', ') })}` : ''}
              </p>
              <Button
                variant="ghost"
                className="btn--sm promo-panel__remove"
                onClick={() => removal.ask(code)}
              >
                {t('tickets.deleteCode', { code: code.code })}
              </Button>
            </li>
          ))}
        </ul>
      )}

      <form className="form promo-panel__form" onSubmit={(submit) => void create(submit)} noValidate aria-label={t('tickets.newPromoCode')}>
        <h3 className="promo-panel__subtitle">{t('tickets.newPromoCode')}</h3>
        <TextField label={t('tickets.code')} name="code" autoCapitalize="characters" autoComplete="off" maxLength={40} value={values.code} error={errors.code} onChange={(event) => change('code', event.target.value)} />
        <div className="form__row">
          <div className="field">
            <label className="field__label" htmlFor={`promo-kind-${eventId}`}>
              {t('tickets.discount')}
            </label>
            <select id={`promo-kind-${eventId}`} className="field__control" value={values.kind} onChange={(event) => change('kind', event.target.value as PromoCodeKind)}>
              <option value="percent">{t('tickets.percentOffOption')}</option>
              <option value="fixed">{t('tickets.shillingsOffOption')}</option>
            </select>
          </div>
          <TextField
            label={values.kind === 'percent' ? t('tickets.percent') : t('tickets.shillings')}
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
        <TextField label={t('tickets.maxUses')} name="maxUses" type="number" inputMode="numeric" min={1} step={1} value={values.maxUses} error={errors.maxUses} onChange={(event) => change('maxUses', event.target.value)} />
        <div className="form__row">
          <TextField label={t('tickets.validFrom')} name="validFrom" type="datetime-local" value={values.validFrom} error={errors.validFrom} onChange={(event) => change('validFrom', event.target.value)} />
          <TextField label={t('tickets.validUntil')} name="validUntil" type="datetime-local" value={values.validUntil} error={errors.validUntil} onChange={(event) => change('validUntil', event.target.value)} />
        </div>
        {typeList.length > 1 ? (
          <fieldset className="promo-panel__types">
            <legend>{t('tickets.onlyTypes')}</legend>
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
        <Button type="submit" variant="secondary" loading={saving} loadingText={t('tickets.creating')}>
          {t('tickets.createPromo')}
        </Button>
      </form>

      <ConfirmDialog
        {...removal.dialog}
        title={t('tickets.deleteQuestion', { code: removing?.code ?? t('tickets.thePromoCode') })}
        description={
          removing && removing.uses > 0
            ? t('tickets.codeWasUsed', { code: removing.code, uses: removing.uses })
            : t('tickets.buyersCannotUse')
        }
        confirmLabel={removing && removing.uses > 0 ? t('tickets.endCode') : t('tickets.deleteTheCode')}
        busyLabel={t('tickets.removing')}
      />
    </div>
  );
}
