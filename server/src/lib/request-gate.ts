import type { RequestHandler } from 'express';

/**
 * Why: Node (libuv ≥ 1.45, Node 20+) accepts at most one new connection per event-loop turn, and a turn
 * runs the handlers of every request that arrived since the last one. Under load with many keep-alive
 * clients a turn grows to hundreds of milliseconds, so connections waiting to be accepted get a few a
 * second: with 2,000 clients most of them waited in the kernel's queue until they timed out.
 *
 * The gate queues requests as they are read and runs them in arrival order, in slices of about
 * `sliceMs` each, one slice per turn (setImmediate): the loop turns, and accepts, every slice instead of
 * once per burst. Throughput is unchanged (the same work, a few extra turns); a slice always runs at
 * least one request. Requests whose client has gone while they waited are dropped, not run.
 */
export interface RequestGateOptions {
  sliceMs: number;
  /**
   * The slice while new connections are arriving (a request on a socket not seen before within the last
   * `arrivalWindowMs`): shorter, so the loop turns, and accepts, more often while a crowd comes in, and back
   * to `sliceMs` once everyone is connected (each turn costs a little throughput).
   */
  arrivingSliceMs?: number;
  arrivalWindowMs?: number;
}

export function createRequestGate(options: RequestGateOptions): RequestHandler {
  const waiting: Array<() => void> = [];
  let scheduled = false;
  const seenSockets = new WeakSet<object>();
  let lastArrivalAt = -Infinity;
  const arrivalWindowMs = options.arrivalWindowMs ?? 100;

  function runSlice() {
    const now = performance.now();
    const until = now + (now - lastArrivalAt < arrivalWindowMs ? (options.arrivingSliceMs ?? options.sliceMs) : options.sliceMs);
    let ran = 0;
    try {
      do {
        waiting[ran++]!();
      } while (ran < waiting.length && performance.now() < until);
    } finally {
      // Whatever a handler did, the requests behind it still get their turn.
      waiting.splice(0, ran);
      scheduled = waiting.length > 0;
      if (scheduled) setImmediate(runSlice);
    }
  }

  return (req, _res, next) => {
    if (!seenSockets.has(req.socket)) {
      seenSockets.add(req.socket);
      lastArrivalAt = performance.now();
    }
    waiting.push(() => {
      if (!req.socket.destroyed) next();
    });
    if (!scheduled) {
      scheduled = true;
      setImmediate(runSlice);
    }
  };
}
