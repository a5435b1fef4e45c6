import type { ListPage } from '../../../hooks/use-paged-list';
import { api } from '../../../lib/api-client';
import { pagePath } from '../../../lib/page-path';
import type { DeleteEventResult } from '../../../lib/event-deletion';
import type { ApiUser, ListedEvent, TukioEvent, UserResponse } from '../../../types/api';

const id = (value: string) => encodeURIComponent(value);

/** GET /api/auth/user/:id (auth) -> {user} */
export async function getUser(userId: string, signal?: AbortSignal): Promise<ApiUser> {
  const { data } = await api.get<UserResponse>(`/auth/user/${id(userId)}`, { signal });
  return data.user;
}

export interface ProfileUpdate {
  username: string;
  email: string;
}

/** PUT /api/auth/user/:id (auth) {username, email} -> {user} */
export async function updateUser(userId: string, input: ProfileUpdate): Promise<ApiUser> {
  const { data } = await api.put<UserResponse>(`/auth/user/${id(userId)}`, input);
  return data.user;
}

/** GET /api/events/user/:userId/paged?cursor= (auth) -> a page of the user's own events, soonest first (the first page is the path alone, which /profile reads early). */
export async function getUserEventPage(userId: string, cursor: string | null, signal?: AbortSignal): Promise<ListPage<ListedEvent>> {
  const { data } = await api.get<ListPage<ListedEvent>>(pagePath(`/events/user/${id(userId)}/paged`, cursor), { signal });
  return data;
}

/** GET /api/events/:id (auth) -> the server's copy of one of the user's events. */
export async function getOwnEvent(eventId: string): Promise<TukioEvent> {
  const { data } = await api.get<TukioEvent>(`/events/${id(eventId)}`);
  return data;
}

/** DELETE /api/events/:id (auth, owner) -> {msg} or, when it had orders, {msg, cancelled: true}. */
export async function deleteEvent(eventId: string): Promise<DeleteEventResult> {
  const { data } = await api.delete<DeleteEventResult | undefined>(`/events/${id(eventId)}`);
  return data ?? {};
}

/** "Download my data" (docs/decisions/data-rights.md): the latest request's state and when the next is possible. */
export interface DataExportStatus {
  state: 'none' | 'requested' | 'ready' | 'downloaded' | 'expired';
  requestedAt: string | null;
  /** When the emailed link stops working (ready). */
  expiresAt: string | null;
  /** From when a new request is accepted; null: now. */
  nextRequestAt: string | null;
}

/** GET /api/me/data-export (auth) -> the latest request's status. */
export async function getDataExportStatus(signal?: AbortSignal): Promise<DataExportStatus> {
  const { data } = await api.get<DataExportStatus>('/me/data-export', { signal });
  return data;
}

/** POST /api/me/data-export (auth) -> 202 the new request; 429 when asked less than a day ago. */
export async function requestDataExport(): Promise<DataExportStatus> {
  const { data } = await api.post<DataExportStatus>('/me/data-export');
  return data;
}

/** GET /api/me/data-export/:token (auth, the account that asked) -> the ZIP; 410 used or expired, 404 another account's link. */
export async function downloadDataExport(token: string): Promise<Blob> {
  const { data } = await api.get<Blob>(`/me/data-export/${id(token)}`, { responseType: 'blob' });
  return data;
}

/** What a deletion must settle first (409): tickets to events still to come, or an organiser's events and balances. */
export interface DeletionBlockers {
  tickets?: Array<{ ticketId: string; eventId: string; title: string; startsAt: string; ticketType: string | null; pricePaid: number; cancellable: boolean; refund: number }>;
  futureEvents?: Array<{ eventId: string; title: string; startsAt: string }>;
  moneyOwed?: Array<{ eventId: string; title: string; owed: number }>;
}

/** A deletion request still waiting for its emailed confirmation (a signed-in account is never scheduled). */
export type AccountDeletionStatus = { state: 'none' } | { state: 'requested'; email: string; expiresAt: string };

/** GET /api/me/account-deletion (auth) -> the request awaiting its link, if any. */
export async function getAccountDeletionStatus(signal?: AbortSignal): Promise<AccountDeletionStatus> {
  const { data } = await api.get<AccountDeletionStatus>('/me/account-deletion', { signal });
  return data;
}

/** POST /api/me/account-deletion (auth) -> 202 the confirmation link was emailed; 403 wrong password; 409 with what to settle first. */
export async function requestAccountDeletion(password: string, forfeitTickets: boolean): Promise<{ state: 'requested'; email: string }> {
  const { data } = await api.post<{ state: 'requested'; email: string }>('/me/account-deletion', { password, ...(forfeitTickets ? { forfeitTickets } : {}) });
  return data;
}

/** POST /api/account-deletion/confirm -> the account is closed, erased at `eraseAt`; 410 used or expired. */
export async function confirmAccountDeletion(token: string): Promise<{ state: 'scheduled'; eraseAt: string }> {
  const { data } = await api.post<{ state: 'scheduled'; eraseAt: string }>('/account-deletion/confirm', { token });
  return data;
}

/** POST /api/account-deletion/undo -> the account is restored; 410 used or already erased. */
export async function undoAccountDeletion(token: string): Promise<{ state: 'cancelled' }> {
  const { data } = await api.post<{ state: 'cancelled' }>('/account-deletion/undo', { token });
  return data;
}

/** GET /api/auth/user/:id/sms-promotions (self) -> whether the account opted in to promotional SMS. */
export async function getSmsPromotions(userId: string, signal?: AbortSignal): Promise<boolean> {
  const { data } = await api.get<{ smsPromotions: boolean }>(`/auth/user/${id(userId)}/sms-promotions`, { signal });
  return data.smsPromotions;
}

/** PUT /api/auth/user/:id/sms-promotions (self) {smsPromotions} -> the saved choice. */
export async function setSmsPromotions(userId: string, smsPromotions: boolean): Promise<boolean> {
  const { data } = await api.put<{ smsPromotions: boolean }>(`/auth/user/${id(userId)}/sms-promotions`, { smsPromotions });
  return data.smsPromotions;
}
