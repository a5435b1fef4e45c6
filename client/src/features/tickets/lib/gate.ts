/*
 * A gate device (docs/decisions/offline.md): the name staff give it ("Gate B"), kept on the device and
 * sent with every scan, and the event's gate list (every ticket, void ones too, and the scans flagged
 * as duplicates), saved after each download so the device checks tickets with no network. The list
 * holds attendees' names and emails: it is kept under the `tukio-offline:` prefix, which logging out
 * clears. The device name is the device's, not the user's, and stays.
 */
import type { GateList, GateTicket } from '../api/tickets-api';
import { readJson, writeJson } from './storage';
import { perLocale } from '../../../lib/format';
import { t } from '../../../lib/i18n';

const DEVICE_KEY = 'tukio-gate-device';
const listKey = (eventId: string) => `tukio-offline:gate-list:${eventId}`;
export const MAX_DEVICE_NAME = 40;

/** This device's name; a new device gets "Gate" and a short random tag until staff rename it. */
export function readDeviceName(): string {
  const saved = readJson<string>(DEVICE_KEY);
  if (typeof saved === 'string' && saved.trim()) return saved;
  const name = t('tickets.gateDefaultName', { tag: Math.random().toString(36).slice(2, 6).toUpperCase() });
  writeJson(DEVICE_KEY, name);
  return name;
}

export function saveDeviceName(name: string): string {
  const clean = name.trim().slice(0, MAX_DEVICE_NAME);
  if (clean) writeJson(DEVICE_KEY, clean);
  return clean || readDeviceName();
}

export function saveGateList(list: GateList): void {
  writeJson(listKey(list.eventId), list);
}

export function readSavedGateList(eventId: string): GateList | null {
  const saved = readJson<GateList>(listKey(eventId));
  return saved && saved.eventId === eventId && Array.isArray(saved.tickets) ? saved : null;
}

/** Tickets that still hold a seat, as the attendee list shows them (a cancelled or transferred ticket is nobody's). */
export const heldTickets = (list: GateList | null | undefined): GateTicket[] =>
  (list?.tickets ?? []).filter((ticket) => ticket.voidReason === null || ticket.voidReason === 'event_cancelled');

/** The 24-hour clock of a Kenyan gate, month names in the reader's language. */
const clock = perLocale((locale) => new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit' }));
const dayAndClock = perLocale((locale) => new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' }));

/** "19:42" today, "22 Nov, 19:42" another day: how a gate says when a ticket was scanned. */
export function scanTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return date.toDateString() === new Date().toDateString() ? clock().format(date) : dayAndClock().format(date);
}

/** " at Gate B, 19:42" (", 19:42" for a scan from before devices had names). */
export const atDeviceAndTime = (scan: { device: string | null; scannedAt: string }) => `${scan.device ? ` ${t('tickets.atDevice', { device: scan.device })}` : ''}, ${scanTime(scan.scannedAt)}`;

/** "Already checked in at Gate B, 19:42" */
export const checkedInAtText = (first: { device: string | null; scannedAt: string }) => `${t('tickets.alreadyCheckedIn')}${atDeviceAndTime(first)}`;

/** Why a void ticket admits nobody, as the server says it. */
export function voidText(reason: GateTicket['voidReason']): string {
  if (reason === 'self_cancel') return t('tickets.voidSelfCancel');
  if (reason === 'transferred') return t('tickets.voidTransferred');
  if (reason === 'payment_reversed') return t('tickets.voidPaymentReversed');
  return t('tickets.voidEventCancelled');
}
