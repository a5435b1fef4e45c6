import { Component, type ReactNode } from 'react';
import { paths } from '../config/paths';
import { useDocumentTitle } from '../hooks/use-document-title';
import { useT } from '../lib/i18n';

/**
 * Shown when rendering a route throws (including a lazily loaded chunk that failed to
 * download, e.g. after a new deploy). `standalone` renders its own <main> landmark because
 * the layout itself is not available. Works outside the router (plain links).
 */
export function RouteError({ error, standalone = false }: { error: unknown; standalone?: boolean }) {
  const t = useT();
  useDocumentTitle(t('common.errorTitle'));
  const detail = error instanceof Error ? error.message : null;

  const body = (
    <section className="page page--narrow status-page">
      <h1>{t('common.errorTitle')}</h1>
      <p>{t('common.errorText')}</p>
      {detail ? <p className="muted">{detail}</p> : null}
      <div className="status-page__actions">
        <button type="button" className="btn btn--primary" onClick={() => window.location.reload()}>
          {t('common.reloadPage')}
        </button>
        <a className="btn btn--secondary" href={paths.home}>
          {t('common.goHome')}
        </a>
      </div>
    </section>
  );

  return standalone ? <main id="main-content">{body}</main> : body;
}

interface BoundaryProps {
  children: ReactNode;
  standalone?: boolean;
  /** A new value (e.g. the next pathname) clears a caught error, so navigating away recovers. */
  resetKey?: string;
}

interface BoundaryState {
  error: unknown;
  failed: boolean;
  resetKey: string | undefined;
}

/** Catches render errors below it and shows RouteError instead. */
export class RouteErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { error: null, failed: false, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { error, failed: true };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    if (props.resetKey === state.resetKey) return null;
    return { error: null, failed: false, resetKey: props.resetKey };
  }

  override render() {
    return this.state.failed ? <RouteError error={this.state.error} standalone={this.props.standalone} /> : this.props.children;
  }
}
