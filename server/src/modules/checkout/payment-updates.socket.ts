import { checkoutRequestIdSchema } from '@tukio/shared/internal-api';
import type { Server, Socket } from 'socket.io';
import type { Logger } from '../../lib/logger.js';

/** The Socket.IO namespace the payment dialog follows a push on (members and guests alike: no login). */
export const PAYMENT_UPDATES_NAMESPACE = '/payments';
/** How many pushes one socket may follow at once (a dialog follows one; a few tabs share nothing). */
export const MAX_FOLLOWED_PER_SOCKET = 10;
/** How long a result recorded here is remembered for a follower that joins after it (the push answered faster than the join). */
const RECENT_MS = 120_000;
const RECENT_MAX = 20_000;

const paymentRoom = (checkoutRequestId: string) => `payment:${checkoutRequestId}`;

type Ack = (response: Record<string, unknown>) => void;
const ackOf = (ack: unknown): Ack => (typeof ack === 'function' ? (ack as Ack) : () => undefined);

/**
 * Tells the buyer's dialog the moment its payment's result is recorded, instead of the dialog asking every 3 s
 * (docs/decisions/payments.md, "Payment results by push"). A socket follows a push by its CheckoutRequestID
 * (`payment:follow`, acknowledged); after the commit of its result the room hears `payment:settled
 * {checkoutRequestId}` and nothing else: the dialog then asks confirmPayment once, which answers only the
 * payment's owner (or, for a guest checkout, whoever holds its id), so a follower learns no more than that
 * something changed. A result recorded before the follow arrived (this instance's, the last two minutes) is
 * said in the acknowledgement (`settled: true`). Anything missed (a dropped socket, another instance's result
 * without the Redis adapter, a Paybill payment of the order) is caught by the dialog's slow fallback poll.
 */
export function attachPaymentUpdates(io: Server, deps: { payments: { onSettled(listener: (settled: { checkoutRequestId: string }) => void): () => void }; logger: Logger }) {
  const namespace = io.of(PAYMENT_UPDATES_NAMESPACE);
  /** Results recorded here lately, oldest first (a Map keeps insertion order). */
  const recent = new Map<string, number>();

  const stopListening = deps.payments.onSettled(({ checkoutRequestId }) => {
    const now = Date.now();
    recent.delete(checkoutRequestId);
    recent.set(checkoutRequestId, now);
    for (const [id, at] of recent) {
      if (recent.size <= RECENT_MAX && at > now - RECENT_MS) break;
      recent.delete(id);
    }
    namespace.to(paymentRoom(checkoutRequestId)).emit('payment:settled', { checkoutRequestId });
  });

  namespace.on('connection', (socket: Socket) => {
    let followed = 0;
    socket.on('payment:follow', async (payload: unknown, ack: unknown) => {
      const reply = ackOf(ack);
      const parsed = checkoutRequestIdSchema.safeParse((payload as { checkoutRequestId?: unknown } | null)?.checkoutRequestId);
      if (!parsed.success) {
        reply({ ok: false, msg: 'A CheckoutRequestID is required.' });
        return;
      }
      if (followed >= MAX_FOLLOWED_PER_SOCKET) {
        reply({ ok: false, msg: 'Too many payments followed on one connection.' });
        return;
      }
      followed += 1;
      try {
        await socket.join(paymentRoom(parsed.data));
      } catch (error) {
        deps.logger.error('payment:follow could not join its room', error);
        reply({ ok: false, msg: 'The payment cannot be followed right now.' });
        return;
      }
      const at = recent.get(parsed.data);
      reply({ ok: true, settled: at !== undefined && at > Date.now() - RECENT_MS });
    });
  });

  return {
    close() {
      stopListening();
      recent.clear();
    },
  };
}
