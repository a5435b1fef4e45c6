import { useEffect, useRef } from 'react';

/**
 * A native <dialog> shown as a modal while `open` is true (focus stays inside, Escape closes it) and
 * closed otherwise. Attach the returned ref to the <dialog>.
 */
export function useModalDialog(open: boolean) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return dialogRef;
}
