import { Link } from 'react-router-dom';
import { Button } from '../../../components/ui/button';
import { FormMessage } from '../../../components/ui/form-message';
import { getErrorMessage, getErrorStatus } from '../../../lib/errors';

/**
 * What a page that loads one event shows when it could not: "not found" (unknown, or pending and not
 * the caller's) with a way elsewhere, or the error with "Try again".
 */
export function EventLoadFailure({ error, onRetry, back }: { error: unknown; onRetry: () => void; back: { to: string; label: string } }) {
  const notFound = getErrorStatus(error) === 404;
  return (
    <section className="page page--narrow status-page">
      <h1>{notFound ? 'Event not found' : 'Could not load this event'}</h1>
      {notFound ? (
        <p>This event does not exist, or it is waiting for approval.</p>
      ) : (
        <FormMessage tone="error">{getErrorMessage(error, 'Failed to load the event. Please try again.')}</FormMessage>
      )}
      <div className="status-page__actions">
        {notFound ? null : (
          <Button variant="primary" onClick={onRetry}>
            Try again
          </Button>
        )}
        <Link className="btn btn--secondary" to={back.to}>
          {back.label}
        </Link>
      </div>
    </section>
  );
}
