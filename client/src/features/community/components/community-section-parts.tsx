import type { FormEvent, ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '../../../components/ui/button';
import { paths } from '../../../config/paths';
import { RichText, useT } from '../../../lib/i18n';

/** "Loading comments…" while a section loads; after a failure, the message and a Retry button. */
export function SectionLoadState({
  noun,
  loading,
  onRetry,
}: {
  noun: 'comments' | 'reviews';
  loading: boolean;
  onRetry: () => void;
}) {
  const t = useT();
  const text = noun === 'comments' ? { loading: 'community.loadingComments', failed: 'community.commentsLoadFailed' } : { loading: 'community.loadingReviews', failed: 'community.reviewsLoadFailed' };
  return loading ? (
    <p className="muted" role="status">
      {t(text.loading)}
    </p>
  ) : (
    <div className="community-error" role="alert">
      <p>{t(text.failed)}</p>
      <Button variant="ghost" className="btn--sm" onClick={onRetry}>
        {t('community.retry')}
      </Button>
    </div>
  );
}

/**
 * The comment and review forms: the fields, then the submit button (`label`) and, for a logged-out
 * visitor, "Log in to …".
 */
export function CommunityForm({
  onSubmit,
  labelledBy,
  label,
  pending,
  loadingText,
  disabled,
  isLoggedIn,
  action,
  children,
}: {
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  labelledBy?: string;
  label: string;
  pending: boolean;
  loadingText: string;
  disabled?: boolean;
  isLoggedIn: boolean;
  action: 'comment' | 'review';
  children: ReactNode;
}) {
  const t = useT();
  return (
    <form className="form community-form" onSubmit={onSubmit} noValidate aria-labelledby={labelledBy}>
      {children}
      <div className="button-row">
        <Button type="submit" loading={pending} loadingText={loadingText} disabled={disabled}>
          {label}
        </Button>
        {!isLoggedIn ? (
          <span className="muted community-form__hint">
            <RichText
              id={action === 'comment' ? 'community.loginToComment' : 'community.loginToReview'}
              parts={{ link: <Link to={paths.login}>{t('community.logIn')}</Link> }}
            />
          </span>
        ) : null}
      </div>
    </form>
  );
}
