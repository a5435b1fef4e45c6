import type { NextFunction, Request, Response } from 'express';
import { describe, expect, it, vi } from 'vitest';
import { createRequestGate } from '../src/lib/request-gate.js';

/** Keeps the thread busy, as a request handler under load does. */
function busy(ms: number) {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

const requestOn = (socket: { destroyed: boolean }) => ({ socket }) as unknown as Request;
const response = {} as Response;

describe('request gate (lib/request-gate.ts)', () => {
  it('runs queued requests in arrival order, in slices that let the event loop turn in between', async () => {
    const gate = createRequestGate({ sliceMs: 1 });
    const ran: number[] = [];
    let ranWhenLoopTurned: number | undefined;
    // 40 requests read in one poll phase, each taking 2 ms: without the gate all 40 would run before the loop turns again.
    for (let i = 0; i < 40; i++) {
      gate(requestOn({ destroyed: false }), response, (() => {
        busy(2);
        ran.push(i);
      }) as NextFunction);
    }
    expect(ran).toEqual([]);
    // Scheduled after the gate's first slice: it runs at the next turn, while most requests still wait.
    setImmediate(() => setImmediate(() => (ranWhenLoopTurned = ran.length)));
    await vi.waitFor(() => expect(ran).toHaveLength(40));
    expect(ran).toEqual(Array.from({ length: 40 }, (_, i) => i));
    expect(ranWhenLoopTurned).toBeDefined();
    expect(ranWhenLoopTurned!).toBeLessThan(5);
  });

  it('skips requests whose client left while they waited', async () => {
    const gate = createRequestGate({ sliceMs: 1 });
    const ran: string[] = [];
    const next = (name: string) => (() => void ran.push(name)) as NextFunction;
    gate(requestOn({ destroyed: false }), response, next('first'));
    gate(requestOn({ destroyed: true }), response, next('gone'));
    gate(requestOn({ destroyed: false }), response, next('last'));
    await vi.waitFor(() => expect(ran).toEqual(['first', 'last']));
    // The gate idles once its queue is empty and starts again for the next request.
    gate(requestOn({ destroyed: false }), response, next('later'));
    await vi.waitFor(() => expect(ran).toEqual(['first', 'last', 'later']));
  });

  it('turns the loop after every request while new connections arrive, and runs long slices once everyone is connected', async () => {
    const gate = createRequestGate({ sliceMs: 50, arrivingSliceMs: 0, arrivalWindowMs: 60_000 });
    /** How many of 20 queued 1 ms requests run before the loop turns twice. */
    const ranBeforeTurns = async (sockets: Array<{ destroyed: boolean }>) => {
      const ran: number[] = [];
      sockets.forEach((socket, i) => gate(requestOn(socket), response, (() => void (busy(1), ran.push(i))) as NextFunction));
      const atTurn = await new Promise<number>((resolve) => setImmediate(() => setImmediate(() => resolve(ran.length))));
      await vi.waitFor(() => expect(ran).toHaveLength(sockets.length));
      return atTurn;
    };
    // Twenty new sockets: a slice is one request, so the loop turns (and would accept) between them.
    const arriving = Array.from({ length: 20 }, () => ({ destroyed: false }));
    expect(await ranBeforeTurns(arriving)).toBeLessThan(5);

    // Past the arrival window (here at once), a long slice runs them all in one turn. (Long enough that a busy
    // machine pausing this process in the middle of the 20 ms of work cannot end the slice early.)
    const settled = createRequestGate({ sliceMs: 2000, arrivingSliceMs: 0, arrivalWindowMs: 0 });
    const ran: number[] = [];
    arriving.forEach((socket, i) => settled(requestOn(socket), response, (() => void (busy(1), ran.push(i))) as NextFunction));
    const atTurn = await new Promise<number>((resolve) => setImmediate(() => setImmediate(() => resolve(ran.length))));
    expect(atTurn).toBe(20);
  });
});
