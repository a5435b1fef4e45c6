/**
 * Toast notifications without loading the toast library up front. `notify.error('…')` fetches
 * react-toastify, its stylesheet and the container (./toaster) on first use; calls made while it
 * loads are queued by react-toastify and shown once the container mounts. Nothing on a page's
 * first paint needs a toast, so the home route never downloads them.
 */
export type NotifyKind = 'success' | 'error' | 'info' | 'warning';

export interface NotifyOptions {
  /** Same id = the same toast (not shown twice while it is on screen). */
  toastId?: string;
}

type Toaster = typeof import('./toaster');
let toaster: Promise<Toaster> | null = null;

function loadToaster(): Promise<Toaster> {
  toaster ??= import('./toaster').catch((error: unknown) => {
    toaster = null; // a later toast tries again (e.g. the chunk failed while offline)
    throw error;
  });
  return toaster;
}

function show(kind: NotifyKind, message: string, options?: NotifyOptions): void {
  loadToaster().then(
    (module) => module.showToast(kind, message, options),
    () => {
      // The toast chunk could not be loaded: never lose an error message silently.
      if (kind === 'error' || kind === 'warning') console.warn(message);
    },
  );
}

export const notify = {
  success: (message: string, options?: NotifyOptions) => show('success', message, options),
  error: (message: string, options?: NotifyOptions) => show('error', message, options),
  info: (message: string, options?: NotifyOptions) => show('info', message, options),
  warning: (message: string, options?: NotifyOptions) => show('warning', message, options),
  /** Start downloading the toast code now (e.g. just before an action that may toast). */
  preload: () => {
    loadToaster().catch(() => undefined);
  },
};
