import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// A child process, since the guard is process-wide: a promise rejects with nobody awaiting it (as pg-boss's
// job completion does when the database times out), then the process must still be running to print "alive".
const script = `
import { logUnhandledRejections } from './src/lib/unhandled-rejections.ts';
logUnhandledRejections((message, reason) => console.log('logged:', message, String(reason)));
Promise.reject(new Error('timeout exceeded when trying to connect'));
setTimeout(() => console.log('alive'), 0);
`;

describe('unhandled promise rejections', () => {
  it('are logged and do not end the API server process', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: new URL('..', import.meta.url) });
    expect(stdout).toContain('logged: unhandled promise rejection (the server keeps running) Error: timeout exceeded when trying to connect');
    expect(stdout).toContain('alive');
  });
});
