import './load-more.css';
import { useT } from '../../lib/i18n';
import { Button } from './button';

/**
 * The foot of a paged list (hooks/use-paged-list): how many of how many are shown, and a button for
 * the next page while there is one. A failed page says so beside the button, which retries it.
 */
export function LoadMore({ shown, total, hasMore, loading, error, onLoadMore }: { shown: number; total: number; hasMore: boolean; loading: boolean; error?: unknown; onLoadMore: () => void }) {
  const t = useT();
  if (!hasMore && shown >= total) return null;
  return (
    <div className="load-more">
      <p className="load-more__count" aria-live="polite">
        {t('ui.shownOfTotal', { shown, total })}
      </p>
      {error ? (
        <p className="load-more__error" role="alert">
          {t('ui.loadMoreFailed')}
        </p>
      ) : null}
      {hasMore ? (
        <Button variant="secondary" loading={loading} loadingText={t('ui.loadingMore')} onClick={onLoadMore}>
          {t('ui.loadMore')}
        </Button>
      ) : null}
    </div>
  );
}
