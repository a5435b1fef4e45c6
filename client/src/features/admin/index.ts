/* Admin feature: event moderation for /admin and /admpst (docs/product.md). Stylesheet: ./admin.css. */
export { SYSTEM_USER_ID } from './api/admin-api';
export { isApproved, isCancelled, isPending } from './components/admin-event-card';
export { AdminEventList } from './components/admin-event-list';
export { AdminEventsView, ModeratedEventCard } from './components/admin-events-view';
export { RefundsSection } from './components/refunds-section';
export { FeesSection } from './components/fees-section';
export { FinanceSection } from './components/finance-section';
export { useAdminEventList, useAdminEvents } from './hooks/use-admin-events';
export type { AdminAction, AdminMessages, PagedAdminEvents } from './hooks/use-admin-events';
export { useAdminGuard } from './hooks/use-admin-guard';
export type { AdminAccess } from './hooks/use-admin-guard';
export { ModerationSection } from './components/moderation-section';
export { EventChangesSection } from './components/event-changes-section';
export { AccountDeletionsSection } from './components/account-deletions-section';
