/*
 * /admin › Platform fee (docs/decisions/fees.md): the fee per paid ticket — a percent of its price plus fixed
 * shillings, at least a minimum. Saving adds a setting (the server keeps every earlier one, listed below);
 * orders already held keep the fee they were priced with. Organisers choose who pays it on their events.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/form-field';
import { getErrorMessage, getServerFieldError } from '../../../lib/errors';
import { formatDateTime, formatShillings } from '../../../lib/format';
import { useT } from '../../../lib/i18n';
import { notify } from '../../../lib/notify';
import { getPlatformFee, setPlatformFee, type PlatformFee } from '../api/fees-api';

const FIELDS = ['percent', 'fixed', 'minimum'] as const;
type Field = (typeof FIELDS)[number];
type Draft = Record<Field, string>;

const LABELS: Record<Field, string> = { percent: 'admin.feePercent', fixed: 'admin.feeFixed', minimum: 'admin.feeMinimum' };
/** Settings listed under the form. */
const HISTORY_SHOWN = 5;

const draftOf = (fee: PlatformFee): Draft => ({ percent: String(fee.percent), fixed: String(fee.fixed), minimum: String(fee.minimum) });
/** A blank field is sent as text so the server names it; numbers go as numbers. */
const valueOf = (text: string) => (text.trim() === '' || Number.isNaN(Number(text)) ? text : Number(text));

export function FeesSection() {
  const t = useT();
  const headingId = useId();
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: ['admin', 'fees'], queryFn: ({ signal }) => getPlatformFee(signal) });
  const [draft, setDraft] = useState<Draft | null>(null);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const shown = draft ?? (settings.data ? draftOf(settings.data.fee) : null);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!shown) return;
    setSaving(true);
    setErrors({});
    setFormError(null);
    try {
      const saved = await setPlatformFee({ percent: valueOf(shown.percent), fixed: valueOf(shown.fixed), minimum: valueOf(shown.minimum) });
      queryClient.setQueryData(['admin', 'fees'], saved);
      setDraft(null);
      notify.success(t('admin.feeSaved'));
    } catch (error) {
      const refusal = getServerFieldError(error);
      if (refusal && (FIELDS as readonly string[]).includes(refusal.field)) setErrors({ [refusal.field]: refusal.msg });
      else setFormError(getErrorMessage(error, t('admin.feeSaveFailed')));
    } finally {
      setSaving(false);
    }
  };

  const describe = (fee: PlatformFee) => t('admin.feeRule', { percent: fee.percent, fixed: formatShillings(fee.fixed), minimum: formatShillings(fee.minimum) });

  return (
    <section className="admin-section fees" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('admin.platformFee')}</h2>
      <p className="muted">{t('admin.platformFeeIntro')}</p>
      {settings.isLoading ? (
        <p className="muted" role="status">
          {t('admin.loadingFee')}
        </p>
      ) : !shown ? (
        <p className="form-message form-message--error" role="alert">
          {getErrorMessage(settings.error, t('admin.feeLoadFailed'))}
        </p>
      ) : (
        <form className="fees__form" onSubmit={(event) => void save(event)} noValidate>
          {FIELDS.map((field) => (
            <TextField
              key={field}
              label={t(LABELS[field])}
              name={field}
              type="number"
              inputMode="decimal"
              min={0}
              max={field === 'percent' ? 100 : undefined}
              step={field === 'percent' ? 0.01 : 1}
              value={shown[field]}
              error={errors[field]}
              disabled={saving}
              onChange={(event) => {
                setDraft({ ...shown, [field]: event.target.value });
                if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
              }}
            />
          ))}
          {formError ? (
            <p className="form-message form-message--error" role="alert">
              {formError}
            </p>
          ) : null}
          <Button type="submit" disabled={saving}>
            {t('admin.saveFee')}
          </Button>
        </form>
      )}
      {settings.data && settings.data.history.length > 1 ? (
        <details>
          <summary>{t('admin.feeHistory')}</summary>
          <ul className="fees__history">
            {settings.data.history.slice(0, HISTORY_SHOWN).map((row) => (
              <li key={row.setAt}>
                {formatDateTime(row.setAt)}: {describe(row)}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </section>
  );
}
