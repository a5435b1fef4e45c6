/*
 * A titled section whose body is rendered only once opened: a lazily imported body downloads its code and
 * data when someone asks for it (the organiser's Refunds and Waitlist panels on the event page).
 */
import { Suspense, useId, useState, type ReactNode } from 'react';
import { getServerMessage } from '../../lib/errors';
import { useT } from '../../lib/i18n';
import { Button } from './button';

export interface DisclosurePanelProps {
  title: string;
  /** The toggle's words, e.g. 'Show refunds' / 'Hide refunds'. */
  showLabel: string;
  hideLabel: string;
  /** Said while the body's code loads. */
  loadingText: string;
  /** Class names of the section, its header row and its heading (each panel keeps its own look). */
  className: string;
  headerClassName: string;
  titleClassName: string;
  children: ReactNode;
}

export function DisclosurePanel({ title, showLabel, hideLabel, loadingText, className, headerClassName, titleClassName, children }: DisclosurePanelProps) {
  const headingId = useId();
  const bodyId = useId();
  const [open, setOpen] = useState(false);
  return (
    <section className={className} aria-labelledby={headingId}>
      <div className={headerClassName}>
        <h2 id={headingId} className={titleClassName}>
          {title}
        </h2>
        <Button variant="secondary" className="btn--sm" aria-expanded={open} aria-controls={bodyId} onClick={() => setOpen((shown) => !shown)}>
          {open ? hideLabel : showLabel}
        </Button>
      </div>
      <div id={bodyId} hidden={!open}>
        {open ? (
          <Suspense
            fallback={
              <p className="muted" role="status">
                {loadingText}
              </p>
            }
          >
            {children}
          </Suspense>
        ) : null}
      </div>
    </section>
  );
}

/** What a panel's body shows until its data came: the server's reason and Try again, or that it is loading. */
export function LoadingOrFailure({ error, reload, loadingText, failureText, className }: { error: unknown; reload: () => void; loadingText: string; failureText: string; className?: string }) {
  const t = useT();
  if (!error) {
    return (
      <p className="muted" role="status">
        {loadingText}
      </p>
    );
  }
  return (
    <div className={className}>
      <p className="form-message form-message--error" role="alert">
        {getServerMessage(error) ?? failureText}
      </p>
      <Button variant="secondary" className="btn--sm" onClick={reload}>
        {t('ui.tryAgain')}
      </Button>
    </div>
  );
}
