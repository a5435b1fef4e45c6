/*
 * "Report" next to something another person wrote (or on a person): a reason and, for "something else",
 * a few words, sent to the moderators. Signed-in callers only; the author never learns who reported.
 */
import { useState } from 'react';
import { getErrorMessage } from '../../lib/errors';
import { useT } from '../../lib/i18n';
import { notify } from '../../lib/notify';
import { REPORT_KIND_LABELS, REPORT_REASONS, sendReport, type ReportKind, type ReportReason } from '../../lib/report-api';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { TextAreaField } from '../ui/form-field';
import './moderation.css';

export interface ReportButtonProps {
  kind: ReportKind;
  id: string;
  /** Whose words (or who), for the dialog's title and the button's accessible name. */
  authorName?: string;
  className?: string;
}

export function ReportButton({ kind, id, authorName, className }: ReportButtonProps) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState<ReportReason>('spam');
  const [details, setDetails] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const t = useT();
  const what = kind === 'user' ? authorName ?? t('ui.thisUser') : authorName ? t('ui.someonesThing', { name: authorName, thing: REPORT_KIND_LABELS[kind] }) : t('ui.thisThing', { thing: REPORT_KIND_LABELS[kind] });

  const close = () => {
    if (busy) return;
    setOpen(false);
    setError(null);
  };

  const submit = async () => {
    if (reason === 'other' && !details.trim()) {
      setError(t('ui.reportNeedsDetails'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      notify.success(await sendReport({ kind, id, reason, details: details.trim() }));
      setSent(true);
      setOpen(false);
    } catch (caught) {
      setError(getErrorMessage(caught, t('ui.reportFailed')));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <button
        type="button"
        className={`report-button${className ? ` ${className}` : ''}`}
        aria-label={t('ui.reportWhat', { what })}
        disabled={sent}
        onClick={() => setOpen(true)}
      >
        {sent ? t('ui.reported') : t('ui.report')}
      </button>
      {open ? (
        <ConfirmDialog
          open={open}
          title={t('ui.reportWhat', { what })}
          description={<p>{kind === 'user' ? t('ui.reportReviewUser') : t('ui.reportReviewAuthor')}</p>}
          confirmLabel={t('ui.sendReport')}
          busyLabel={t('ui.sending')}
          dismissLabel={t('ui.cancel')}
          tone="primary"
          busy={busy}
          error={error}
          onConfirm={() => void submit()}
          onClose={close}
        >
          <fieldset className="report-reasons">
            <legend className="field__label">{t('ui.reportWhy')}</legend>
            {REPORT_REASONS.map((option, index) => (
              <label key={option.value} className="report-reasons__option">
                <input
                  type="radio"
                  name={`report-reason-${id}`}
                  value={option.value}
                  checked={reason === option.value}
                  data-autofocus={index === 0 ? true : undefined}
                  onChange={() => setReason(option.value)}
                />
                {option.label}
              </label>
            ))}
          </fieldset>
          <TextAreaField
            label={reason === 'other' ? t('ui.reportWhatIsWrong') : t('ui.reportAnythingToAdd')}
            value={details}
            maxLength={1000}
            rows={3}
            onChange={(event) => setDetails(event.target.value)}
          />
        </ConfirmDialog>
      ) : null}
    </>
  );
}

/**
 * What the author of hidden words sees under them: that a moderator hid them, and why. Everyone else
 * already gets "[hidden by a moderator]" from the server in place of the words.
 */
export function HiddenNote({ hidden, reason }: { hidden?: boolean | undefined; reason?: string | undefined }) {
  const t = useT();
  if (!hidden || reason === undefined) return null;
  return (
    <p className="hidden-note" role="note">
      {reason ? t('ui.hiddenWithReason', { reason }) : t('ui.hidden')}
    </p>
  );
}
