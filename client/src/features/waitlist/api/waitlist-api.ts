/* WAITLIST API (server/src/modules/waitlist, /api/docs "Waitlist"). */
import { api } from '../../../lib/api-client';

const seg = (value: string) => encodeURIComponent(value);

export type WaitlistStatus = 'waiting' | 'offered' | 'accepted' | 'expired' | 'left' | 'closed';

export interface WaitlistEntry {
  _id: string;
  status: WaitlistStatus;
  /** Seats asked for. */
  quantity: number;
  /** 1 = next to be offered; null unless waiting. */
  position: number | null;
  offeredQuantity: number | null;
  offeredAt: string | null;
  offerExpiresAt: string | null;
  joinedAt: string;
}

export interface WaitlistPlace {
  eventId: string;
  /** Seats this person can buy now, their own offer included; null when the event has no seat limit. */
  seatsAvailable: number | null;
  /** People waiting (live offers not counted). */
  waiting: number;
  /** The open place, else the latest one that ended, else null (never joined). */
  entry: WaitlistEntry | null;
}

export interface OrganiserWaitlistEntry {
  _id: string;
  username: string;
  quantity: number;
  status: WaitlistStatus;
  offeredQuantity: number | null;
  offerExpiresAt: string | null;
  joinedAt: string;
}

export interface OrganiserWaitlist {
  eventId: string;
  /** People waiting. */
  length: number;
  offered: number;
  accepted: number;
  expired: number;
  left: number;
  entries: OrganiserWaitlistEntry[];
}

/** GET /api/events/:id/waitlist/mine -> the signed-in person's place and the seats they can buy now. */
export async function getMyPlace(eventId: string, signal?: AbortSignal): Promise<WaitlistPlace> {
  return (await api.get<WaitlistPlace>(`/events/${seg(eventId)}/waitlist/mine`, { signal })).data;
}

/** POST /api/events/:id/waitlist {quantity} -> 201 the new place (409 while seats are available, or already on it). */
export async function joinWaitlist(eventId: string, quantity: number): Promise<WaitlistPlace> {
  const { data } = await api.post<WaitlistPlace>(`/events/${seg(eventId)}/waitlist`, { quantity });
  return data;
}

/** DELETE /api/events/:id/waitlist -> the place, now `left` (a held offer passes to the next person). */
export async function leaveWaitlist(eventId: string): Promise<WaitlistPlace> {
  const { data } = await api.delete<WaitlistPlace>(`/events/${seg(eventId)}/waitlist`);
  return data;
}

/** GET /api/events/:id/waitlist (organiser or admin) -> counts and the places, by username only. */
export async function getEventWaitlist(eventId: string, signal?: AbortSignal): Promise<OrganiserWaitlist> {
  const { data } = await api.get<OrganiserWaitlist>(`/events/${seg(eventId)}/waitlist`, { signal });
  return data;
}
