/**
 * Loaded on demand by ./notify: react-toastify (the unstyled build, see vite.config.ts), its
 * stylesheet and one ToastContainer in a root of its own, mounted when this module first runs.
 * Import `notify` from ./notify instead of this module or react-toastify.
 */
import { createRoot } from 'react-dom/client';
import { ToastContainer, toast } from 'react-toastify';
import 'react-toastify/dist/ReactToastify.css';
import './toaster.css';
import type { NotifyKind, NotifyOptions } from './notify';

const host = document.createElement('div');
host.className = 'toast-host';
document.body.append(host);
createRoot(host).render(<ToastContainer position="bottom-right" theme="dark" autoClose={8000} newestOnTop />);

export function showToast(kind: NotifyKind, message: string, options?: NotifyOptions): void {
  toast[kind](message, options);
}
