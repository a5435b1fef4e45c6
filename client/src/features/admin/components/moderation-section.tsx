/*
 * /admin › Reports: open reports grouped by item, the most reported first, a page at a time (GET
 * /api/moderation/queue/paged, and /log/paged for the log), each with the item in context
 * (its event, its thread, or the last messages of the conversation for a chat message) and the author's
 * record. Actions: dismiss, hide, delete, warn, suspend for N days, ban; each needs a reason (logged, and
 * told to the author), and the reporters are emailed the outcome. Below, the log of every action.
 */
import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { TextAreaField, TextField } from '../../../components/ui/form-field';
import { paths } from '../../../config/paths';
import { LoadMore } from '../../../components/ui/load-more';
import { usePagedList, type PagedList } from '../../../hooks/use-paged-list';
import { getErrorMessage } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import { useT } from '../../../lib/i18n';
import { notify } from '../../../lib/notify';
import { REPORT_KIND_LABELS, REPORT_REASONS, type ReportKind, type ReportReason } from '../../../lib/report-api';
import { getModerationLogPage, getModerationQueuePage, moderate, type LogEntry, type ModerationAction, type QueueItem } from '../api/moderation-api';

/* Catalog keys (admin.*): what a moderator can do, and what the log and the toast say about it. */
const ACTION_LABEL: Record<ModerationAction, string> = {
  dismiss: 'admin.actionDismiss',
  hide: 'admin.actionHide',
  unhide: 'admin.actionUnhide',
  delete: 'admin.actionDelete',
  warn: 'admin.actionWarn',
  suspend: 'admin.actionSuspend',
  ban: 'admin.actionBan',
  lift: 'admin.actionLift',
};

/** The log's sentence for each action ('hid a comment'), with the kind of item as {kind}. */
const LOGGED: Record<ModerationAction, string> = {
  dismiss: 'admin.loggedDismiss',
  hide: 'admin.loggedHide',
  unhide: 'admin.loggedUnhide',
  delete: 'admin.loggedDelete',
  warn: 'admin.loggedWarn',
  suspend: 'admin.loggedSuspend',
  ban: 'admin.loggedBan',
  lift: 'admin.loggedLift',
};

const DONE: Record<ModerationAction, string> = {
  dismiss: 'admin.doneDismiss',
  hide: 'admin.doneHide',
  unhide: 'admin.doneUnhide',
  delete: 'admin.doneDelete',
  warn: 'admin.doneWarn',
  suspend: 'admin.doneSuspend',
  ban: 'admin.doneBan',
  lift: 'admin.doneLift',
};

/** The shared labels are read when shown, so they follow the current language. */
const kindText = (kind: ReportKind) => REPORT_KIND_LABELS[kind] ?? kind;
const reasonText = (reason: ReportReason) => REPORT_REASONS.find((item) => item.value === reason)?.label ?? reason;

function actionsFor(item: QueueItem): ModerationAction[] {
  if (!item.item) return ['dismiss'];
  const account: ModerationAction[] = item.author && item.author.role !== 'admin' ? ['warn', 'suspend', 'ban'] : [];
  if (item.kind === 'user') return ['dismiss', ...account];
  return ['dismiss', item.item.hidden ? 'unhide' : 'hide', 'delete', ...account];
}

interface Pending {
  item: QueueItem;
  action: ModerationAction;
}

export function ModerationSection() {
  const t = useT();
  const headingId = useId();
  const queue = usePagedList('admin:moderation-queue', getModerationQueuePage);
  const log = usePagedList('admin:moderation-log', getModerationLogPage);
  const [pending, setPending] = useState<Pending | null>(null);
  const [reason, setReason] = useState('');
  const [days, setDays] = useState('7');
  const [hideContent, setHideContent] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const items = queue.items;

  const open = (item: QueueItem, action: ModerationAction) => {
    setPending({ item, action });
    setReason('');
    setError(null);
    setHideContent(false);
  };
  const close = () => {
    if (!busy) setPending(null);
  };

  const confirm = async ({ item, action }: Pending) => {
    if (reason.trim().length < 3) {
      setError(t('admin.reasonTooShort'));
      return;
    }
    const dayCount = Number(days);
    if (action === 'suspend' && !(Number.isInteger(dayCount) && dayCount >= 1 && dayCount <= 365)) {
      setError(t('admin.daysInvalid'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await moderate(item.kind, item.id, {
        action,
        reason: reason.trim(),
        ...(action === 'suspend' ? { days: dayCount } : {}),
        ...(action === 'suspend' || action === 'ban' ? { hideContent } : {}),
      });
      notify.success(t(DONE[action]));
      setPending(null);
      // The queue and the log as the server now has them, from their first pages (the loaded ones shown meanwhile).
      queue.reload();
      log.reload();
    } catch (failure) {
      setError(getErrorMessage(failure, t('admin.actionFailed')));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="admin-section moderation" aria-labelledby={headingId}>
      <div className="refunds__header">
        <h2 id={headingId}>
          {t('admin.reports')}{queue.loading || queue.error ? null : <span className="muted"> ({queue.total})</span>}
        </h2>
      </div>
      {queue.loading ? (
        <p className="muted" role="status">
          {t('admin.loadingReports')}
        </p>
      ) : queue.error ? (
        <p className="form-message form-message--error">{t('admin.reportsLoadFailed')}</p>
      ) : items.length === 0 ? (
        <p className="empty-state">{t('admin.noReports')}</p>
      ) : (
        <ul className="moderation__list">
          {items.map((item) => (
            <li key={`${item.kind}:${item.id}`}>
              <ReportedItem item={item} onAction={(action) => open(item, action)} />
            </li>
          ))}
        </ul>
      )}
      <LoadMore shown={items.length} total={queue.total} hasMore={queue.hasMore} loading={queue.loadingMore} error={queue.loadMoreError} onLoadMore={queue.loadMore} />

      <details className="moderation__log">
        <summary>
          <h3>{t('admin.moderationLog')}</h3>
        </summary>
        <ModerationLog log={log} />
      </details>

      {pending ? (
        <ConfirmDialog
          open
          title={
            pending.item.author
              ? t('admin.dialogTitleBy', { action: t(ACTION_LABEL[pending.action]), kind: kindText(pending.item.kind), username: pending.item.author.username })
              : t('admin.dialogTitle', { action: t(ACTION_LABEL[pending.action]), kind: kindText(pending.item.kind) })
          }
          description={<p>{t(pending.action === 'dismiss' ? 'admin.reasonLogged' : 'admin.reasonLoggedEmailed')}</p>}
          confirmLabel={t(ACTION_LABEL[pending.action])}
          busyLabel={t('admin.working')}
          dismissLabel={t('admin.cancel')}
          tone={pending.action === 'dismiss' || pending.action === 'unhide' || pending.action === 'lift' ? 'primary' : 'danger'}
          busy={busy}
          error={error}
          onConfirm={() => void confirm(pending)}
          onClose={close}
        >
          <TextAreaField label={t('admin.reason')} value={reason} rows={2} maxLength={500} data-autofocus onChange={(event) => setReason(event.target.value)} />
          {pending.action === 'suspend' ? (
            <TextField label={t('admin.days')} type="number" inputMode="numeric" min={1} max={365} value={days} onChange={(event) => setDays(event.target.value)} />
          ) : null}
          {pending.action === 'suspend' || pending.action === 'ban' ? (
            <label className="moderation__check">
              <input type="checkbox" checked={hideContent} onChange={(event) => setHideContent(event.target.checked)} /> {t('admin.hideEverything')}
            </label>
          ) : null}
        </ConfirmDialog>
      ) : null}
    </section>
  );
}

function ReportedItem({ item, onAction }: { item: QueueItem; onAction: (action: ModerationAction) => void }) {
  const t = useT();
  const { author } = item;
  const kind = kindText(item.kind);
  return (
    <article className="moderation-card card" aria-label={author ? t('admin.reportedItemBy', { kind, username: author.username }) : t('admin.reportedItem', { kind })}>
      <header className="moderation-card__top">
        <span className="badge">{kind}</span>
        <strong>{t('admin.reportCount', { count: item.reportCount })}</strong>
        {item.event ? (
          <span className="muted">
            {t('admin.onEvent')} <Link to={paths.event(item.event._id)}>{item.event.title}</Link>
          </span>
        ) : null}
        {item.thread ? (
          <span className="muted">
            {t('admin.inThread')} <Link to={paths.forumThread(item.thread._id)}>{item.thread.title}</Link>
          </span>
        ) : null}
      </header>
      {item.item ? (
        <blockquote className="moderation-card__text">
          {item.item.text}
          {item.item.hidden ? (
            <span className="moderation-card__flag">
              {' '}
              {item.item.hiddenReason ? t('admin.hiddenFlagReason', { reason: item.item.hiddenReason }) : t('admin.hiddenFlag')}
            </span>
          ) : null}
        </blockquote>
      ) : (
        <p className="muted">{t('admin.itemGone')}</p>
      )}
      {author ? (
        <p className="moderation-card__author">
          {t('admin.by')} <strong>{author.username}</strong> ·{' '}
          {t('admin.authorRecord', { warnings: author.warnings, suspensions: author.suspensions, bans: author.bans })}
          {author.bannedAt
            ? ` · ${t('admin.authorBanned')}`
            : author.suspendedUntil && new Date(author.suspendedUntil) > new Date()
              ? ` · ${t('admin.authorSuspendedUntil', { date: formatDateTime(author.suspendedUntil) })}`
              : ''}
        </p>
      ) : null}
      {item.context.posts.length > 0 ? (
        <details className="moderation-card__context">
          <summary>{t('admin.threadContext', { count: item.context.posts.length })}</summary>
          <ol>
            {item.context.posts.map((post) => (
              <li key={post._id} className={post._id === item.id ? 'moderation-card__reported' : undefined}>
                <strong>{post.user.username}:</strong> {post.content}
              </li>
            ))}
          </ol>
        </details>
      ) : null}
      {item.context.messages.length > 0 ? (
        <details className="moderation-card__context" open>
          <summary>{t('admin.conversationContext', { count: item.context.messages.length })}</summary>
          <ol>
            {item.context.messages.map((message) => (
              <li key={message._id} className={message.reported ? 'moderation-card__reported' : undefined}>
                <strong>{message.from.username}:</strong> {message.message}
              </li>
            ))}
          </ol>
        </details>
      ) : null}
      <ul className="moderation-card__reports">
        {item.reports.map((report) => (
          <li key={report._id}>
            <strong>{reasonText(report.reason)}</strong> — {report.automatic ? t('admin.reportedAutomatically') : report.reporter.username}, {formatDateTime(report.createdAt)}
            {report.details ? <>: “{report.details}”</> : null}
          </li>
        ))}
      </ul>
      <div className="button-row moderation-card__actions">
        {actionsFor(item).map((action) => (
          <Button
            key={action}
            variant={action === 'dismiss' || action === 'unhide' ? 'secondary' : action === 'hide' || action === 'warn' ? 'secondary' : 'danger'}
            className="btn--sm"
            onClick={() => onAction(action)}
          >
            {t(ACTION_LABEL[action])}
          </Button>
        ))}
      </div>
    </article>
  );
}

function ModerationLog({ log }: { log: PagedList<LogEntry> }) {
  const t = useT();
  if (log.loading) return <p className="muted">{t('admin.loadingLog')}</p>;
  if (log.items.length === 0) return <p className="empty-state">{t('admin.noActions')}</p>;
  return (
    <>
      <ol className="moderation__log-list">
        {log.items.map((entry) => (
          <li key={entry._id}>
            <span className="muted">{formatDateTime(entry.createdAt)}</span> · <strong>{entry.admin.username}</strong>{' '}
            {LOGGED[entry.action] ? t(LOGGED[entry.action], { kind: kindText(entry.kind) }) : entry.action}
            {entry.user ? ` ${t('admin.loggedBy', { username: entry.user.username })}` : ''}
            {entry.days ? ` ${t('admin.loggedDays', { days: entry.days })}` : ''}: “{entry.reason}”
            {entry.excerpt && entry.kind !== 'user' ? <span className="muted"> — “{entry.excerpt.slice(0, 120)}”</span> : null}
          </li>
        ))}
      </ol>
      <LoadMore shown={log.items.length} total={log.total} hasMore={log.hasMore} loading={log.loadingMore} error={log.loadMoreError} onLoadMore={log.loadMore} />
    </>
  );
}
