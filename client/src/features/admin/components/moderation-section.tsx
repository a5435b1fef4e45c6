/*
 * /admin › Reports: open reports grouped by item, the most reported first, each with the item in context
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
import { useFetch } from '../../../hooks/use-fetch';
import { getErrorMessage } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import { notify } from '../../../lib/notify';
import { REPORT_KIND_LABELS, REPORT_REASONS } from '../../../lib/report-api';
import { getModerationLog, getModerationQueue, moderate, type LogEntry, type ModerationAction, type QueueItem } from '../api/moderation-api';

const REASON_LABEL = Object.fromEntries(REPORT_REASONS.map((reason) => [reason.value, reason.label]));

const ACTION_LABEL: Record<ModerationAction, string> = {
  dismiss: 'Dismiss',
  hide: 'Hide',
  unhide: 'Show again',
  delete: 'Delete',
  warn: 'Warn author',
  suspend: 'Suspend author',
  ban: 'Ban author',
  lift: 'Lift suspension or ban',
};

const LOGGED: Record<ModerationAction, string> = {
  dismiss: 'dismissed reports on',
  hide: 'hid',
  unhide: 'showed again',
  delete: 'deleted',
  warn: 'warned the author of',
  suspend: 'suspended the author of',
  ban: 'banned the author of',
  lift: 'lifted the measures on the author of',
};

const DONE: Record<ModerationAction, string> = {
  dismiss: 'Reports dismissed.',
  hide: 'Hidden. The reporters are told.',
  unhide: 'Shown again.',
  delete: 'Deleted. The reporters are told.',
  warn: 'The author is warned.',
  suspend: 'The author is suspended and signed out everywhere.',
  ban: 'The author is banned and signed out everywhere.',
  lift: 'The account is active again.',
};

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
  const headingId = useId();
  const queue = useFetch('admin:moderation-queue', (signal) => getModerationQueue(signal));
  const log = useFetch('admin:moderation-log', (signal) => getModerationLog(signal));
  const [pending, setPending] = useState<Pending | null>(null);
  const [reason, setReason] = useState('');
  const [days, setDays] = useState('7');
  const [hideContent, setHideContent] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const items = queue.data ?? [];

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
      setError('Please give a reason (at least 3 characters): it is logged and told to the author.');
      return;
    }
    const dayCount = Number(days);
    if (action === 'suspend' && !(Number.isInteger(dayCount) && dayCount >= 1 && dayCount <= 365)) {
      setError('Days must be a whole number from 1 to 365.');
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
      notify.success(DONE[action]);
      setPending(null);
      void getModerationQueue().then((fresh) => queue.setData(() => fresh), queue.reload);
      void getModerationLog().then((fresh) => log.setData(() => fresh), log.reload);
    } catch (failure) {
      setError(getErrorMessage(failure, 'That did not work. Please try again.'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="admin-section moderation" aria-labelledby={headingId}>
      <div className="refunds__header">
        <h2 id={headingId}>
          Reports{queue.data ? <span className="muted"> ({items.length})</span> : null}
        </h2>
      </div>
      {queue.loading ? (
        <p className="muted" role="status">
          Loading reports…
        </p>
      ) : queue.error ? (
        <p className="form-message form-message--error">Failed to load the reports.</p>
      ) : items.length === 0 ? (
        <p className="empty-state">No open reports.</p>
      ) : (
        <ul className="moderation__list">
          {items.map((item) => (
            <li key={`${item.kind}:${item.id}`}>
              <ReportedItem item={item} onAction={(action) => open(item, action)} />
            </li>
          ))}
        </ul>
      )}

      <details className="moderation__log">
        <summary>
          <h3>Moderation log</h3>
        </summary>
        <ModerationLog entries={log.data ?? []} loading={log.loading} />
      </details>

      {pending ? (
        <ConfirmDialog
          open
          title={`${ACTION_LABEL[pending.action]}: ${REPORT_KIND_LABELS[pending.item.kind]}${pending.item.author ? ` by ${pending.item.author.username}` : ''}`}
          description={<p>The reason is logged{pending.action === 'dismiss' ? '' : ' and emailed to the author'}. The reporters are told the outcome.</p>}
          confirmLabel={ACTION_LABEL[pending.action]}
          busyLabel="Working…"
          dismissLabel="Cancel"
          tone={pending.action === 'dismiss' || pending.action === 'unhide' || pending.action === 'lift' ? 'primary' : 'danger'}
          busy={busy}
          error={error}
          onConfirm={() => void confirm(pending)}
          onClose={close}
        >
          <TextAreaField label="Reason" value={reason} rows={2} maxLength={500} data-autofocus onChange={(event) => setReason(event.target.value)} />
          {pending.action === 'suspend' ? (
            <TextField label="Days" type="number" inputMode="numeric" min={1} max={365} value={days} onChange={(event) => setDays(event.target.value)} />
          ) : null}
          {pending.action === 'suspend' || pending.action === 'ban' ? (
            <label className="moderation__check">
              <input type="checkbox" checked={hideContent} onChange={(event) => setHideContent(event.target.checked)} /> Also hide everything this account wrote
            </label>
          ) : null}
        </ConfirmDialog>
      ) : null}
    </section>
  );
}

function ReportedItem({ item, onAction }: { item: QueueItem; onAction: (action: ModerationAction) => void }) {
  const { author } = item;
  return (
    <article className="moderation-card card" aria-label={`Reported ${REPORT_KIND_LABELS[item.kind]}${author ? ` by ${author.username}` : ''}`}>
      <header className="moderation-card__top">
        <span className="badge">{REPORT_KIND_LABELS[item.kind]}</span>
        <strong>
          {item.reportCount} report{item.reportCount === 1 ? '' : 's'}
        </strong>
        {item.event ? (
          <span className="muted">
            on <Link to={paths.event(item.event._id)}>{item.event.title}</Link>
          </span>
        ) : null}
        {item.thread ? (
          <span className="muted">
            in <Link to={paths.forumThread(item.thread._id)}>{item.thread.title}</Link>
          </span>
        ) : null}
      </header>
      {item.item ? (
        <blockquote className="moderation-card__text">
          {item.item.text}
          {item.item.hidden ? <span className="moderation-card__flag"> (hidden{item.item.hiddenReason ? `: ${item.item.hiddenReason}` : ''})</span> : null}
        </blockquote>
      ) : (
        <p className="muted">This item no longer exists.</p>
      )}
      {author ? (
        <p className="moderation-card__author">
          By <strong>{author.username}</strong> · {author.warnings} warning{author.warnings === 1 ? '' : 's'}, {author.suspensions} suspension
          {author.suspensions === 1 ? '' : 's'}, {author.bans} ban{author.bans === 1 ? '' : 's'}
          {author.bannedAt ? ' · banned' : author.suspendedUntil && new Date(author.suspendedUntil) > new Date() ? ` · suspended until ${formatDateTime(author.suspendedUntil)}` : ''}
        </p>
      ) : null}
      {item.context.posts.length > 0 ? (
        <details className="moderation-card__context">
          <summary>The thread ({item.context.posts.length === 1 ? '1 post' : `${item.context.posts.length} posts`})</summary>
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
          <summary>The conversation (last {item.context.messages.length} messages)</summary>
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
            <strong>{REASON_LABEL[report.reason] ?? report.reason}</strong> — {report.reporter.username}, {formatDateTime(report.createdAt)}
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
            {ACTION_LABEL[action]}
          </Button>
        ))}
      </div>
    </article>
  );
}

function ModerationLog({ entries, loading }: { entries: LogEntry[]; loading: boolean }) {
  if (loading) return <p className="muted">Loading the log…</p>;
  if (entries.length === 0) return <p className="empty-state">No moderation actions yet.</p>;
  return (
    <ol className="moderation__log-list">
      {entries.map((entry) => (
        <li key={entry._id}>
          <span className="muted">{formatDateTime(entry.createdAt)}</span> · <strong>{entry.admin.username}</strong> {LOGGED[entry.action]} a{' '}
          {REPORT_KIND_LABELS[entry.kind]}
          {entry.user ? ` by ${entry.user.username}` : ''}
          {entry.days ? ` (${entry.days} days)` : ''}: “{entry.reason}”
          {entry.excerpt && entry.kind !== 'user' ? <span className="muted"> — “{entry.excerpt.slice(0, 120)}”</span> : null}
        </li>
      ))}
    </ol>
  );
}
