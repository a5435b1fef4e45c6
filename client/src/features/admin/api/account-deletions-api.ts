/* Deleting an account on the person's written request (server/src/modules/data-rights; admins only). */
import { api } from '../../../lib/api-client';

const seg = (value: string) => encodeURIComponent(value);

export interface AdminDeletion {
  id: string;
  userId: string;
  /** The `deleted-<id>` placeholder once erased. */
  username: string | null;
  status: 'requested' | 'scheduled' | 'cancelled' | 'erased';
  requestedBy: string | null;
  reason: string | null;
  eraseAt: string | null;
  cancelledBy: string | null;
  createdAt: string;
}

/** GET /api/admin/account-deletions/accounts?q= -> accounts whose username starts with `q`, or with that exact email. */
export async function findAccounts(q: string, signal?: AbortSignal): Promise<Array<{ _id: string; username: string; email: string }>> {
  const { data } = await api.get<{ users: Array<{ _id: string; username: string; email: string }> }>('/admin/account-deletions/accounts', { params: { q }, signal });
  return data.users;
}

/** GET /api/admin/account-deletions -> the deletions administrators made or undid, newest first. */
export async function getAdminDeletions(signal?: AbortSignal): Promise<AdminDeletion[]> {
  const { data } = await api.get<{ deletions: AdminDeletion[] }>('/admin/account-deletions', { signal });
  return data.deletions;
}

/** POST /api/admin/users/:id/deletion {reason} -> scheduled (erased at `eraseAt`); 409 with what to settle first. */
export async function scheduleAccountDeletion(userId: string, reason: string): Promise<{ eraseAt: string }> {
  const { data } = await api.post<{ eraseAt: string }>(`/admin/users/${seg(userId)}/deletion`, { reason });
  return data;
}

/** DELETE /api/admin/users/:id/deletion -> the account is restored. */
export async function undoAccountDeletionAsAdmin(userId: string): Promise<void> {
  await api.delete(`/admin/users/${seg(userId)}/deletion`);
}
