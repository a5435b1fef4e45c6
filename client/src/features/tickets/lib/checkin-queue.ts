/*
 * Scans made while the door device is offline wait in localStorage and are sent once the
 * connection returns. One list per event; a code is queued at most once.
 */
import { readJson, writeJson } from './storage';

export interface QueuedScan {
  code: string;
  scannedAt: string;
  /** From the offline check, to match the attendee list; may be absent. */
  ticketId?: string;
  /** The gate device that scanned it (absent in scans queued before devices had names). */
  device?: string;
  /** On an event series: the date it was scanned for (synced with it, whatever the desk admits for by then). */
  dateId?: string;
}

const key = (eventId: string) => `tukio-checkin-queue:${eventId}`;

export function readQueue(eventId: string): QueuedScan[] {
  const list = readJson<QueuedScan[]>(key(eventId));
  return Array.isArray(list) ? list.filter((item) => item && typeof item.code === 'string') : [];
}

/** Adds the scan unless the same code already waits; answers false when it was already queued. */
export function enqueueScan(eventId: string, scan: QueuedScan): boolean {
  const list = readQueue(eventId);
  if (list.some((item) => item.code === scan.code)) return false;
  writeJson(key(eventId), [...list, scan]);
  return true;
}

export function removeFromQueue(eventId: string, code: string): void {
  const rest = readQueue(eventId).filter((item) => item.code !== code);
  writeJson(key(eventId), rest.length ? rest : null);
}

/**
 * Writes what changed between two copies of the queue held in memory: scans added are queued and
 * scans gone are removed, each against what storage holds now (another tab's scans stay).
 */
export function saveQueueChanges(eventId: string, before: QueuedScan[], after: QueuedScan[]): void {
  if (before === after) return;
  const kept = new Set(after.map((item) => item.code));
  const had = new Set(before.map((item) => item.code));
  for (const item of before) if (!kept.has(item.code)) removeFromQueue(eventId, item.code);
  for (const item of after) if (!had.has(item.code)) enqueueScan(eventId, item);
}
