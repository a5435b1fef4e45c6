import { useT } from '../../lib/i18n';

export function Spinner({ size = 'md' }: { size?: 'sm' | 'md' | 'lg' }) {
  return <span className={`spinner spinner--${size}`} aria-hidden="true" />;
}

/** Full-area loading indicator with an accessible status message. */
export function PageLoader({ label }: { label?: string }) {
  const t = useT();
  return (
    <div className="page-loader" role="status" aria-live="polite">
      <Spinner size="lg" />
      <span>{label ?? t('common.loading')}</span>
    </div>
  );
}
