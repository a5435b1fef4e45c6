import type { Database } from '../../db/database.js';
import { formatWallClock } from '../../lib/event-clock.js';
import type { AuthUser } from '../auth/index.js';
import { createCheckinScansRepository, type ScanRow } from './checkin-scans.repository.js';
import type { TicketSigner } from './ticket-signer.js';

/*
 * Gates that scan offline (docs/decisions/offline.md). A gate device downloads the event's gate list
 * and the public key, checks signatures with no network, queues its scans and sends them here when the
 * connection returns. Across devices the earliest scan admits the ticket; every later one is flagged
 * with who was first. Scan times come from the device's clock, corrected by how far that clock is
 * from the server's when the batch arrives (`sentAt`).
 */

export interface OfflineScan {
  ticketCode: string;
  /** The device's clock when it scanned. */
  scannedAt: string;
  /** The name staff gave the device ("Gate B"). */
  device: string;
  /** On an event series (docs/decisions/event-series.md): the date the gate was admitting for. */
  dateId?: string | undefined;
}

/** The door's refusals on a series, worded as the online check-in words them. */
export const seriesGateMessages = {
  dateRequired: 'This event has several dates: choose the date you are checking in for.',
  unknownDate: 'No such date for this event.',
  cancelledDate: 'This date was cancelled.',
  wrongDate: (when: string) => `This ticket is for ${when}, not for this date.`,
};

export type ScanOutcome =
  | { status: 'accepted'; ticketId: string; checkedInAt: string }
  | { status: 'duplicate'; ticketId: string; first: { device: string | null; scannedAt: string }; message: string }
  | { status: 'void'; ticketId: string; voidReason: string; voidedAt: string; message: string }
  | { status: 'invalid'; message: string; ticketId?: string };

export type ScanAnswer = OfflineScan & ScanOutcome;

interface Deps {
  db: Database;
  signer: TicketSigner;
  voidedMessage: (reason: 'event_cancelled' | 'self_cancel' | 'transferred' | 'payment_reversed' | null) => string;
}

const firstOf = (scans: ScanRow[]) => scans[0]!;

export const duplicateMessage = (first: { device: string | null; scannedAt: Date }) =>
  `Already checked in${first.device ? ` at ${first.device}` : ''} at ${first.scannedAt.toISOString()}.`;

/**
 * The scan's time on the server's clock: the device's time moved by the device's measured offset,
 * never later than now (a clock running fast) nor earlier than the ticket was issued (one running slow).
 */
export function correctedTime(deviceTime: Date, offsetMs: number, issuedAt: Date, now: Date): Date {
  const corrected = deviceTime.getTime() + offsetMs;
  return new Date(Math.min(now.getTime(), Math.max(issuedAt.getTime(), corrected)));
}

export function createCheckinSync(deps: Deps) {
  const { db, signer } = deps;

  /** One scan, decided under the ticket's row lock: record it (once), then the earliest scan admits. */
  async function decide(eventId: string, scan: OfflineScan, actor: AuthUser, offsetMs: number, now: Date): Promise<ScanOutcome> {
    const claims = signer.verify(scan.ticketCode);
    if (!claims) return { status: 'invalid', message: 'This ticket code is not valid.' };
    if (claims.eventId !== eventId) return { status: 'invalid', message: 'This ticket is for a different event.' };
    return db.transaction(async (tx) => {
      const repo = createCheckinScansRepository(tx);
      const ticket = await repo.lockTicket(claims.ticketId);
      if (!ticket || ticket.eventId !== eventId) return { status: 'invalid', message: 'This ticket does not exist (it may have been cancelled).' };
      if (ticket.voidedAt) {
        return { status: 'void', ticketId: ticket.id, voidReason: ticket.voidReason!, voidedAt: ticket.voidedAt.toISOString(), message: deps.voidedMessage(ticket.voidReason) };
      }
      // A series: the scan names its date and a day ticket admits on its own date only, as at the online door.
      const dates = await repo.eventDates(eventId);
      if (dates.length > 0) {
        if (!scan.dateId) return { status: 'invalid', message: seriesGateMessages.dateRequired };
        const date = dates.find((candidate) => candidate.id === scan.dateId);
        if (!date) return { status: 'invalid', message: seriesGateMessages.unknownDate };
        if (date.status === 'cancelled') return { status: 'invalid', message: seriesGateMessages.cancelledDate };
        if (ticket.dateId && ticket.dateId !== scan.dateId) {
          const own = dates.find((candidate) => candidate.id === ticket.dateId);
          return { status: 'invalid', ticketId: ticket.id, message: seriesGateMessages.wrongDate(own ? formatWallClock(own.startsAt) : 'another date') };
        }
      }
      // On a series the scan is for its date: "already checked in" is per ticket and date (a pass admits once on each).
      const dateId = dates.length > 0 ? scan.dateId! : null;
      const deviceTime = new Date(scan.scannedAt);
      const mine = await repo.record({
        eventId,
        ticketId: ticket.id,
        device: scan.device,
        scannedAt: correctedTime(deviceTime, offsetMs, ticket.createdAt, now),
        deviceScannedAt: deviceTime,
        scannedBy: actor.id,
        offline: true,
        dateId,
      });
      const first = firstOf(await repo.scansOf(ticket.id, dateId));
      // tickets.checked_in_at keeps the ticket's first admission on any date, as on an event with one date.
      const earliest = dateId ? firstOf(await repo.scansOf(ticket.id)) : first;
      if (ticket.checkedInAt?.getTime() !== earliest.scannedAt.getTime() || ticket.checkedInDevice !== earliest.device) await repo.admit(ticket.id, earliest);
      if (first.id === mine.id) {
        // On a series the online door then knows this date's admission.
        if (dateId) await repo.admitOnDate(ticket.id, dateId, first.scannedAt, actor.id);
        return { status: 'accepted', ticketId: ticket.id, checkedInAt: first.scannedAt.toISOString() };
      }
      return {
        status: 'duplicate',
        ticketId: ticket.id,
        first: { device: first.device, scannedAt: first.scannedAt.toISOString() },
        message: duplicateMessage(first),
      };
    });
  }

  return {
    /**
     * Decides a batch of offline scans in the order given (each in its own short transaction). A retry
     * of the same batch records nothing new and answers from the current state: the same, unless
     * another device's earlier scan arrived in between.
     */
    async sync(actor: AuthUser, eventId: string, input: { sentAt?: string | undefined; scans: OfflineScan[] }) {
      const now = new Date();
      // How far the device's clock is from ours, assuming it drifted little between scanning and sending.
      const offsetMs = input.sentAt ? now.getTime() - new Date(input.sentAt).getTime() : 0;
      const results: ScanAnswer[] = [];
      for (const scan of input.scans) results.push({ ...scan, ...(await decide(eventId, scan, actor, offsetMs, now)) });
      return { serverTime: now.toISOString(), clockOffsetMs: offsetMs, results };
    },

    /** What a gate device keeps for offline checks: every ticket (void ones too), the flagged scans, the key. */
    async gateList(eventId: string) {
      const repo = createCheckinScansRepository(db);
      const [rows, scans, dates] = await Promise.all([repo.gateTickets(eventId), repo.scansOfEvent(eventId), repo.eventDates(eventId)]);
      const series = dates.length > 0;
      const names = new Map(rows.map((row) => [row.id, row.username]));
      const flagged: Array<{ ticketId: string; username: string; device: string | null; scannedAt: string; first: { device: string | null; scannedAt: string }; dateId?: string | null }> = [];
      // Each ticket's first scan (on a series: each ticket and date's) admits; the rest are flagged.
      const firsts = new Map<string, ScanRow>();
      const key = (scan: ScanRow) => `${scan.ticketId}:${series ? (scan.dateId ?? '') : ''}`;
      for (const scan of scans) {
        const current = firsts.get(key(scan));
        if (!current) {
          firsts.set(key(scan), scan);
          continue;
        }
        flagged.push({
          ticketId: scan.ticketId,
          username: names.get(scan.ticketId) ?? '',
          device: scan.device,
          scannedAt: scan.scannedAt.toISOString(),
          first: { device: current.device, scannedAt: current.scannedAt.toISOString() },
          ...(series ? { dateId: scan.dateId } : {}),
        });
      }
      // On a series a device refuses offline a second admission on the same date only: it keeps each ticket's admissions per date.
      const admissions = new Map<string, Array<{ dateId: string; checkedInAt: string; device: string | null }>>();
      if (series) {
        for (const admitted of await repo.dateCheckinsOfEvent(eventId)) {
          const scan = firsts.get(`${admitted.ticketId}:${admitted.dateId}`);
          const list = admissions.get(admitted.ticketId) ?? [];
          list.push({ dateId: admitted.dateId, checkedInAt: admitted.checkedInAt.toISOString(), device: scan?.device ?? null });
          admissions.set(admitted.ticketId, list);
        }
      }
      return {
        eventId,
        generatedAt: new Date().toISOString(),
        publicKey: { algorithm: signer.publicKey.algorithm, jwk: signer.publicKey.jwk },
        tickets: rows.map((row) => ({
          ticketId: row.id,
          userId: row.userId,
          username: row.username,
          email: row.email,
          orderId: row.orderId,
          issuedAt: row.createdAt.toISOString(),
          checkedInAt: row.checkedInAt?.toISOString() ?? null,
          checkedInDevice: row.checkedInDevice,
          voidedAt: row.voidedAt?.toISOString() ?? null,
          voidReason: row.voidReason,
          // Only on a series: the date a ticket admits on (null: a pass for every date), so the device refuses offline too.
          ...(series ? { dateId: row.dateId, dateCheckins: admissions.get(row.id) ?? [] } : {}),
        })),
        flagged,
      };
    },
  };
}

export type CheckinSync = ReturnType<typeof createCheckinSync>;
