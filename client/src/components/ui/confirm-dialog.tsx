/*
 * A modal question before an action that cannot be undone (cancel an event, send a refund again): a native
 * <dialog> (focus stays inside, Escape closes it unless the action is running), labelled by its title and
 * described by its text. `children` may hold form fields; Enter in a field submits. The server's refusal is
 * shown inside (an alert) and whatever was typed stays, so the person can fix it and try again.
 */
import { useEffect, useId, useRef, type FormEvent, type ReactNode } from 'react';
import { useModalDialog } from '../../hooks/use-modal-dialog';
import { useT } from '../../lib/i18n';
import { Button } from './button';
import '../../styles/overlay-dialog.css';
import './confirm-dialog.css';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  /** What will happen (the dialog's description). */
  description: ReactNode;
  /** Fields or details between the description and the buttons. */
  children?: ReactNode;
  confirmLabel: string;
  /** Shown on the confirm button while `busy`. */
  busyLabel: string;
  /** The button that leaves without acting. */
  dismissLabel?: string;
  /** 'danger' for actions that take something away. */
  tone?: 'danger' | 'primary';
  busy: boolean;
  /** The last failure, shown as an alert above the buttons. */
  error?: string | null;
  onConfirm: () => void;
  onClose: () => void;
}

export function ConfirmDialog(props: ConfirmDialogProps) {
  const { open, title, description, children, confirmLabel, busyLabel, dismissLabel, tone = 'danger', busy, error, onConfirm, onClose } = props;
  const t = useT();
  const dialogRef = useModalDialog(open);
  const dismissRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const descriptionId = useId();

  // Focus goes to the first thing to do: a field marked data-autofocus, else the safe way out (never the
  // destructive button); again after a failure. While the action runs its buttons are disabled, so the
  // dialog itself holds focus instead of the page behind it.
  useEffect(() => {
    if (!open) return;
    if (busy) {
      dialogRef.current?.focus();
      return;
    }
    const field = dialogRef.current?.querySelector<HTMLElement>('[data-autofocus]');
    (field ?? dismissRef.current)?.focus();
  }, [open, busy, dialogRef]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!busy) onConfirm();
  };

  return (
    <dialog
      ref={dialogRef}
      className="overlay-dialog confirm-dialog"
      aria-labelledby={titleId}
      aria-describedby={descriptionId}
      aria-busy={busy || undefined}
      tabIndex={-1}
      onClose={onClose}
      // While the request runs, Escape does not hide its outcome.
      onCancel={(event) => {
        if (busy) event.preventDefault();
      }}
    >
      <form className="form" onSubmit={submit} noValidate>
        <h2 id={titleId} className="confirm-dialog__title">
          {title}
        </h2>
        <div id={descriptionId} className="confirm-dialog__description">
          {description}
        </div>
        {children}
        {error ? (
          <p className="form-message form-message--error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="button-row confirm-dialog__actions">
          <Button ref={dismissRef} variant="secondary" disabled={busy} onClick={onClose}>
            {dismissLabel ?? t('ui.goBack')}
          </Button>
          <Button type="submit" variant={tone} loading={busy} loadingText={busyLabel}>
            {confirmLabel}
          </Button>
        </div>
      </form>
    </dialog>
  );
}
