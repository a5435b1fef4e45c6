import { useState } from 'react';
import { getErrorMessage } from '../lib/errors';

/**
 * An action taken on one item after a ConfirmDialog (delete a question, end a promo code, retry a refund): `ask(item)`
 * opens the dialog, `dialog` is spread onto it. While the action runs the dialog stays open and cannot be closed; it
 * closes when the action succeeds, and shows the server's reason (or `failureText`) when it fails, or the words the
 * action returns when it refuses before asking the server (a reason too short), so the person can fix it and retry.
 */
export function useConfirmedAction<T>(action: (item: T) => Promise<string | void>, failureText: string) {
  const [item, setItem] = useState<T | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const confirm = async (target: T) => {
    setBusy(true);
    setError(null);
    try {
      const refusal = await action(target);
      if (refusal) setError(refusal);
      else setItem(null);
    } catch (failure) {
      setError(getErrorMessage(failure, failureText));
    } finally {
      setBusy(false);
    }
  };
  return {
    item,
    ask(target: T) {
      setError(null);
      setItem(target);
    },
    dialog: {
      open: item !== null,
      busy,
      error,
      onConfirm: () => void (item !== null && confirm(item)),
      onClose: () => void (busy || setItem(null)),
    },
  };
}
