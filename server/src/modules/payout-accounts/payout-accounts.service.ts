import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { maskKenyanPhone } from '@tukio/shared/phone';
import type { PayoutDestination } from '@tukio/shared/internal-payouts';
import type { Database } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import { translator, type Language } from '../../lib/i18n.js';
import type { Logger } from '../../lib/logger.js';
import { accountContact, passwordMatches, type AuthUser } from '../auth/index.js';
import { organisesEvents } from '../events/index.js';
import type { MailOutbox } from '../mail/index.js';
import type { SmsService } from '../sms/index.js';
import { buildDestinationChangedMail, describeDestination } from './payout-accounts-mail.js';
import { createPayoutAccountsRepository, type PayoutAccountRow } from './payout-accounts.repository.js';

export interface PayoutAccountsDeps {
  db: Database;
  sms: Pick<SmsService, 'enqueue'>;
  mail: Pick<MailOutbox, 'send' | 'soon'>;
  logger: Logger;
  /** Keys the codes' HMAC (the server secret), so stored hashes cannot be reversed by trying all million codes. */
  codeSecret: string;
  publicUrl: string;
}

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
/** How long a code works. */
export const CODE_TTL_MINUTES = 10;
/** Wrong codes before the request is locked (a new code must be asked for). */
export const CODE_MAX_ATTEMPTS = 5;
/** Codes one organiser may have sent per hour: enough for typos, too few to flood a phone. */
export const CODE_SENDS_PER_HOUR = 5;
/** After a change of destination, payouts wait this long: time for the owner to notice a change they did not make. */
export const CHANGE_HOLD_MS = 24 * HOUR;

export const payoutAccountMessages = {
  notOrganiser: 'Only organisers (people who have created an event) can set where payouts go.',
  passwordWrong: 'That is not your password. Nothing was changed.',
  codesTooMany: 'Too many codes were sent in the last hour. Please try again later.',
  sameDestination: 'Your payouts already go there.',
  noPending: 'No code is waiting to be confirmed. Start the change again.',
  codeExpired: 'This code has expired. Ask for a new code.',
  codeWrong: (attemptsLeft: number) => `That code is not right. ${attemptsLeft} ${attemptsLeft === 1 ? 'attempt' : 'attempts'} left.`,
  attemptsUsed: 'The code was entered wrong too many times. Ask for a new code.',
} as const;

/** A destination as its owner is shown it: the method, the phone masked, the account number's end. */
export interface MaskedDestination {
  method: PayoutDestination['method'];
  phone?: string;
  shortcode?: string;
  accountReference?: string;
}

export interface PayoutAccountView {
  active: (MaskedDestination & { confirmedAt: Date }) | null;
  /** Payouts wait until then (a change's hold); null when nothing holds them. */
  heldUntil: Date | null;
  pending: { destination: MaskedDestination; codeSentTo: string; expiresAt: Date; attemptsLeft: number } | null;
}

export function destinationOf(row: PayoutAccountRow): PayoutDestination {
  switch (row.method) {
    case 'mpesa':
      return { method: 'mpesa', phone: row.phone! };
    case 'paybill':
      return { method: 'paybill', shortcode: row.shortcode!, accountReference: row.accountReference! };
    case 'till':
      return { method: 'till', shortcode: row.shortcode! };
  }
}

/** An account number with all but its last characters hidden (the Paybill number itself is public). */
const maskAccountReference = (value: string) => (value.length <= 4 ? '•'.repeat(value.length) : `${'•'.repeat(value.length - 4)}${value.slice(-4)}`);

export function maskDestination(destination: PayoutDestination): MaskedDestination {
  switch (destination.method) {
    case 'mpesa':
      return { method: 'mpesa', phone: maskKenyanPhone(destination.phone) };
    case 'paybill':
      return { method: 'paybill', shortcode: destination.shortcode, accountReference: maskAccountReference(destination.accountReference) };
    case 'till':
      return { method: 'till', shortcode: destination.shortcode };
  }
}

const sameDestination = (a: PayoutDestination, b: PayoutDestination) =>
  describeDestination(a, translator('en'), (phone) => phone) === describeDestination(b, translator('en'), (phone) => phone);

/**
 * Where organisers are paid (docs/decisions/payout-accounts.md). Adding or changing a destination takes the
 * account password and a 6-digit code sent by SMS (to the M-Pesa number itself, or to the phone named for a
 * Paybill or Till); it becomes the active destination once the code is confirmed. A change of an active
 * destination is emailed to the organiser and holds payouts for 24 hours. Confirmed rows are history: a
 * change appends a row.
 */
export function createPayoutAccountsService(deps: PayoutAccountsDeps) {
  const { db } = deps;

  const hashCode = (userId: string, code: string) => createHmac('sha256', deps.codeSecret).update(`payout-account:${userId}:${code}`).digest('hex');
  const codeMatches = (row: PayoutAccountRow, code: string) => {
    const given = Buffer.from(hashCode(row.userId, code), 'hex');
    const stored = Buffer.from(row.codeHash, 'hex');
    return given.length === stored.length && timingSafeEqual(given, stored);
  };

  async function requireOrganiser(user: AuthUser): Promise<void> {
    if (user.role === 'admin') return;
    if (!(await organisesEvents(db, user.id))) throw AppError.forbidden('payout_not_organiser', payoutAccountMessages.notOrganiser);
  }

  async function view(userId: string, now: Date): Promise<PayoutAccountView> {
    const repo = createPayoutAccountsRepository(db);
    const [active, pending] = await Promise.all([repo.latestConfirmed(userId), repo.pending(userId)]);
    return {
      active: active ? { ...maskDestination(destinationOf(active)), confirmedAt: active.confirmedAt! } : null,
      heldUntil: active?.heldUntil && active.heldUntil > now ? active.heldUntil : null,
      pending:
        pending && pending.codeExpiresAt > now
          ? {
              destination: maskDestination(destinationOf(pending)),
              codeSentTo: maskKenyanPhone(pending.codePhone),
              expiresAt: pending.codeExpiresAt,
              attemptsLeft: CODE_MAX_ATTEMPTS - pending.wrongAttempts,
            }
          : null,
    };
  }

  return {
    /** GET /api/payout-account: the caller's active destination (masked), its hold, and a change waiting for its code. */
    async mine(user: AuthUser): Promise<PayoutAccountView> {
      await requireOrganiser(user);
      return view(user.id, new Date());
    },

    /**
     * POST /api/payout-account: checks the password, then sends a code for the new destination. Nothing
     * becomes active yet; a request waiting before it is replaced (its code stops working).
     */
    async request(user: AuthUser, input: { password: string; destination: PayoutDestination; codePhone?: string | undefined }): Promise<PayoutAccountView> {
      await requireOrganiser(user);
      if (!(await passwordMatches(db, user.id, input.password))) throw AppError.forbidden('payout_password_wrong', payoutAccountMessages.passwordWrong);
      const repo = createPayoutAccountsRepository(db);
      const now = new Date();
      const active = await repo.latestConfirmed(user.id);
      if (active && sameDestination(destinationOf(active), input.destination)) throw AppError.conflict('payout_same_destination', payoutAccountMessages.sameDestination);
      if ((await repo.codesSentSince(user.id, new Date(now.getTime() - HOUR))) >= CODE_SENDS_PER_HOUR) {
        throw new AppError(429, 'payout_codes_too_many', payoutAccountMessages.codesTooMany);
      }
      const { destination } = input;
      // The code proves the organiser holds the M-Pesa number paid; a Paybill or Till has no phone of its own.
      const codePhone = destination.method === 'mpesa' ? destination.phone : input.codePhone!;
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      const row = await db.transaction((tx) =>
        createPayoutAccountsRepository(tx).replacePending({
          userId: user.id,
          method: destination.method,
          phone: destination.method === 'mpesa' ? destination.phone : null,
          shortcode: destination.method === 'mpesa' ? null : destination.shortcode,
          accountReference: destination.method === 'paybill' ? destination.accountReference : null,
          codePhone,
          codeHash: hashCode(user.id, code),
          codeExpiresAt: new Date(now.getTime() + CODE_TTL_MINUTES * MINUTE),
        }),
      );
      const language: Language = (await accountContact(db, user.id))?.language ?? 'en';
      const t = translator(language);
      await deps.sms.enqueue([
        {
          purpose: 'payout-account code',
          dedupeKey: `payout-account-code:${row.id}`,
          phone: codePhone,
          message: t('payoutAccounts.codeSms', { code, destination: describeDestination(destination, t), minutes: CODE_TTL_MINUTES }),
        },
      ]);
      return view(user.id, now);
    },

    /**
     * POST /api/payout-account/confirm: the code makes the waiting request the active destination. A wrong
     * code counts (the count is kept even though the answer is an error); the last allowed one locks it.
     */
    async confirm(user: AuthUser, code: string): Promise<PayoutAccountView> {
      await requireOrganiser(user);
      const now = new Date();
      const outcome = await db.transaction(async (tx) => {
        const repo = createPayoutAccountsRepository(tx);
        const pending = await repo.pending(user.id, { lock: true });
        if (!pending) {
          const latest = await repo.latestUnconfirmed(user.id);
          return latest?.status === 'locked' ? ({ kind: 'locked' } as const) : ({ kind: 'none' } as const);
        }
        if (pending.codeExpiresAt <= now) return { kind: 'expired' } as const;
        if (!codeMatches(pending, code)) {
          const wrong = await repo.countWrongAttempt(pending.id, CODE_MAX_ATTEMPTS);
          return wrong >= CODE_MAX_ATTEMPTS ? ({ kind: 'locked' } as const) : ({ kind: 'wrong', attemptsLeft: CODE_MAX_ATTEMPTS - wrong } as const);
        }
        const previous = await repo.latestConfirmed(user.id);
        const heldUntil = previous ? new Date(now.getTime() + CHANGE_HOLD_MS) : null;
        const confirmed = (await repo.confirm(pending.id, now, heldUntil))!;
        if (previous) {
          const contact = await accountContact(tx, user.id);
          if (contact) {
            const mail = buildDestinationChangedMail({ ...contact, previous: destinationOf(previous), destination: destinationOf(confirmed), heldUntil: heldUntil!, publicUrl: deps.publicUrl });
            await deps.mail.send(mail, 'payout destination changed', tx);
          }
        }
        return { kind: 'confirmed', mailed: previous !== undefined } as const;
      });
      switch (outcome.kind) {
        case 'none':
          throw AppError.notFound('payout_no_pending', payoutAccountMessages.noPending);
        case 'expired':
          throw AppError.badRequest('payout_code_expired', payoutAccountMessages.codeExpired, 'code');
        case 'locked':
          throw new AppError(429, 'payout_code_attempts_used', payoutAccountMessages.attemptsUsed, { field: 'code' });
        case 'wrong':
          throw AppError.badRequest('payout_code_wrong', payoutAccountMessages.codeWrong(outcome.attemptsLeft), { field: 'code', params: { attemptsLeft: outcome.attemptsLeft } });
        case 'confirmed':
          if (outcome.mailed) deps.mail.soon();
          deps.logger.info(`account ${user.id} confirmed a payout destination${outcome.mailed ? ' (a change: payouts held 24 h)' : ''}`);
          return view(user.id, now);
      }
    },

    /**
     * Where the organiser's payouts go at `now`: their latest destination confirmed by then, with the hold a
     * change put on payouts while it runs (null otherwise); null when they never confirmed one. The payouts
     * job asks this before each payout.
     */
    async payoutDestination(organiserId: string, now: Date): Promise<{ destination: PayoutDestination; heldUntil: Date | null } | null> {
      const row = await createPayoutAccountsRepository(db).latestConfirmed(organiserId, now);
      if (!row) return null;
      return { destination: destinationOf(row), heldUntil: row.heldUntil && row.heldUntil > now ? row.heldUntil : null };
    },
  };
}

export type PayoutAccountsService = ReturnType<typeof createPayoutAccountsService>;
