/**
 * Loaded on demand by ./notify: react-toastify (the unstyled build, see vite.config.ts), its
 * stylesheet and one ToastContainer in a root of its own, mounted when this module first runs.
 * Import `notify` from ./notify instead of this module or react-toastify.
 */
import type { MouseEvent } from 'react';
import { createRoot } from 'react-dom/client';
import { ToastContainer, toast } from 'react-toastify';
import 'react-toastify/dist/ReactToastify.css';
import './toaster.css';
import type { NotifyKind, NotifyOptions } from './notify';
import { t } from './i18n/runtime';

const host = document.createElement('div');
host.className = 'toast-host';
document.body.append(host);
// Our own close button: react-toastify's names itself 'close' in English whatever the page's language.
const closeButton = ({ closeToast }: { closeToast: (event: MouseEvent<HTMLElement>) => void }) => (
  <button type="button" className="Toastify__close-button Toastify__close-button--dark" aria-label={t('ui.closeNotification')} onClick={closeToast}>
    <span aria-hidden="true">×</span>
  </button>
);

createRoot(host).render(<ToastContainer position="bottom-right" theme="dark" autoClose={8000} newestOnTop closeButton={closeButton} />);

export function showToast(kind: NotifyKind, message: string, options?: NotifyOptions): void {
  toast[kind](message, options);
}
