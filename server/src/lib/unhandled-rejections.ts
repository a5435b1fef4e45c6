/**
 * Keeps the API server serving when a promise nobody awaits rejects, and logs it. pg-boss 10's worker completes
 * or fails a job without awaiting the call: when the database does not answer in time (an overloaded host), that
 * call rejects with nobody listening and Node's default ends the process, taking every request in flight with it.
 * The job itself is safe (it expires and is retried by any instance), so the right answer is a log line, not a
 * crash. Anything else that reaches here is a bug to fix, and the log says where.
 */
export function logUnhandledRejections(log: (message: string, reason: unknown) => void): void {
  process.on('unhandledRejection', (reason) => log('unhandled promise rejection (the server keeps running)', reason));
}
