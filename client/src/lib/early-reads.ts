/**
 * Early reads: the API reads a signed-in page makes on its first render, started by the route
 * preloader (src/preload-route.ts) before React has loaded, with the stored token. They travel in
 * parallel with the app's code instead of after it has loaded and rendered (those pages need the
 * token, so the server cannot put their data into the HTML as it does for an event page).
 *
 * Each answer serves one `api.get` of the same path with the same token, once (./api-client); the
 * first navigation in the app drops what is left (`dropEarlyReads`), so a later visit never gets
 * an old answer. Framework-free and small: the preloader imports it.
 */
import { env } from '../config/env';
import { readAnswer, type RawAnswer } from './public-get';

const reads = new Map<string, { authorization: string; answer: Promise<RawAnswer> }>();
let taken = 0;
let generation = 0;

/** Starts `GET /api${path}` with `authorization`; resolves with its answer (rejects when none came). */
export function startEarlyRead(path: string, authorization: string): Promise<RawAnswer> {
  const answer = readAnswer(fetch(env.apiBaseUrl + path, { headers: { Accept: 'application/json', Authorization: authorization } }));
  // A failure is reported by whoever takes the answer; one nobody takes must not be an unhandled rejection.
  answer.catch(() => undefined);
  reads.set(path, { authorization, answer });
  return answer;
}

/** The early answer to `GET /api${path}` sent with `authorization`, handed out once; null when there is none. */
export function takeEarlyRead(path: string, authorization: string | null): Promise<RawAnswer> | null {
  const read = reads.get(path);
  if (!read || read.authorization !== authorization) return null;
  reads.delete(path);
  taken += 1;
  return read.answer;
}

/** True while some early answer has not been taken yet. */
export const hasEarlyReads = (): boolean => reads.size > 0;

/** How many answers have been taken so far: a caller compares it before and after a call to know whether the call used one. */
export const earlyReadsTaken = (): number => taken;

/** Changes whenever what is left is dropped: work tied to the first page compares it. */
export const earlyReadsGeneration = (): number => generation;

/** The page the tab opened with has been left: its unused answers are not for the next one. */
export function dropEarlyReads(): void {
  reads.clear();
  generation += 1;
}
