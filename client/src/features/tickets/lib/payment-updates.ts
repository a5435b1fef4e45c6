/*
 * The payment dialog learns its push's result by push instead of asking every 3 s (docs/decisions/payments.md,
 * "Payment results by push"): one Socket.IO connection to the API server's /payments namespace (no login, so
 * guests follow their checkout too), `payment:follow` with the CheckoutRequestID, then `payment:settled` once the
 * result is recorded; the dialog then asks confirmPayment once. socket.io-client is loaded only when a payment is
 * followed, so it stays out of the event page's chunk. Anything that fails here leaves the 3-second poll as it was.
 *
 * Server events used:  payment:settled {checkoutRequestId}.
 * Client events:       payment:follow {checkoutRequestId} (ack {ok, settled}: `settled`, the result was recorded before the follow).
 */

/** How long the server may take to acknowledge the follow before the dialog keeps polling as if there were no socket. */
const FOLLOW_TIMEOUT_MS = 10_000;

export interface PaymentFollower {
  /** Ends the connection (the outcome is known, or the dialog went away). */
  close(): void;
}

export interface FollowCallbacks {
  /** The socket follows the push (true) or stopped following it (false: dropped, refused): the dialog polls often again. */
  onFollowing: (following: boolean) => void;
  /** The result is recorded: ask confirmPayment now. */
  onSettled: () => void;
}

/** The connection, a seam for the tests (a fake takes its place there). */
export type PaymentSocketFactory = () => Promise<{
  on(event: string, listener: (...args: never[]) => void): unknown;
  timeout(ms: number): { emit(event: string, payload: unknown, ack: (error: unknown, answer?: { ok?: boolean; settled?: boolean }) => void): unknown };
  close(): unknown;
}>;

/** Websocket only: one upgrade instead of Engine.IO's long-polling handshake first; where websockets are blocked the dialog polls. */
const defaultSocket: PaymentSocketFactory = async () => {
  const { io } = await import('socket.io-client');
  return io('/payments', { transports: ['websocket'], reconnectionAttempts: 5 });
};

let socketFactory: PaymentSocketFactory = defaultSocket;

/** Tests replace the connection; `undefined` restores the real one. */
export function setPaymentSocketFactory(factory: PaymentSocketFactory | undefined) {
  socketFactory = factory ?? defaultSocket;
}

/** Follows one push until `close()`. Following again after a reconnect (the server's rooms do not survive it). */
export function followPayment(checkoutRequestId: string, callbacks: FollowCallbacks): PaymentFollower {
  let closed = false;
  let socket: Awaited<ReturnType<PaymentSocketFactory>> | undefined;
  const follow = () => {
    socket?.timeout(FOLLOW_TIMEOUT_MS).emit('payment:follow', { checkoutRequestId }, (error, answer) => {
      if (closed) return;
      const following = !error && answer?.ok === true;
      callbacks.onFollowing(following);
      if (following && answer?.settled) callbacks.onSettled();
    });
  };
  void socketFactory()
    .then((created) => {
      if (closed) {
        created.close();
        return;
      }
      socket = created;
      created.on('connect', follow);
      created.on('disconnect', () => closed || callbacks.onFollowing(false));
      created.on('payment:settled', ((message: { checkoutRequestId?: unknown } | undefined) => {
        if (!closed && message?.checkoutRequestId === checkoutRequestId) callbacks.onSettled();
      }) as never);
    })
    .catch(() => undefined);
  return {
    close() {
      closed = true;
      socket?.close();
    },
  };
}
