import { Link } from 'react-router-dom';
import { Button } from '../../../components/ui/button';
import { FormMessage } from '../../../components/ui/form-message';
import { getErrorMessage, getErrorStatus } from '../../../lib/errors';
import { useT } from '../../../lib/i18n';

/**
 * What a page that loads one event shows when it could not: "not found" (unknown, or pending and not
 * the caller's) with a way elsewhere (`back`; none in the ticket widget's frame), or the error with "Try again".
 */
export function EventLoadFailure({ error, onRetry, back }: { error: unknown; onRetry: () => void; back?: { to: string; label: string } }) {
  const t = useT();
  const notFound = getErrorStatus(error) === 404;
  return (
    <section className="page page--narrow status-page">
      <h1>{notFound ? t('events.notFoundTitle') : t('events.couldNotLoad')}</h1>
      {notFound ? (
        <p>{t('events.notFoundText')}</p>
      ) : (
        <FormMessage tone="error">{getErrorMessage(error, t('events.loadEventFailed'))}</FormMessage>
      )}
      <div className="status-page__actions">
        {notFound ? null : (
          <Button variant="primary" onClick={onRetry}>
            {t('events.tryAgain')}
          </Button>
        )}
        {back ? (
          <Link className="btn btn--secondary" to={back.to}>
            {back.label}
          </Link>
        ) : null}
      </div>
    </section>
  );
}
