/*
 * The signed-in user's tickets, saved on the device as each page of GET /api/tickets/mine/paged loads, so
 * /profile still shows them, QR codes included, with no network (docs/decisions/offline.md). Kept in
 * localStorage per user, not in the service worker's cache (that is keyed by URL, not by who asked),
 * under the `tukio-offline:` prefix that logging out clears.
 */
import type { MyPagedTicket } from '../api/tickets-api';
import { readJson, writeJson } from './storage';

interface SavedTickets {
  savedAt: string;
  tickets: MyPagedTicket[];
}

const key = (userId: string) => `tukio-offline:my-tickets:${userId}`;

export function saveTickets(userId: string, tickets: MyPagedTicket[]): void {
  writeJson(key(userId), { savedAt: new Date().toISOString(), tickets } satisfies SavedTickets);
}

export function readSavedTickets(userId: string): SavedTickets | null {
  const saved = readJson<SavedTickets>(key(userId));
  return saved && Array.isArray(saved.tickets) && typeof saved.savedAt === 'string' ? saved : null;
}
