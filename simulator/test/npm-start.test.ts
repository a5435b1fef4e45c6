import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { freePort } from '../../server/test/helpers/test-server.js';

/**
 * `npm start` (scripts/start.mjs) with no Daraja credentials: the simulator runs as its own process, the payment
 * service talks to it, and its phone pages are on the API server's one port. (It builds what is stale first.)
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tukio-npm-start-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));


describe('npm start without Daraja credentials', () => {
  it('runs the Daraja simulator in its own process, the payment service on it, and its phone pages through the API server', { timeout: 600_000 }, async () => {
    const [port, paymentPort, simulatorPort] = [await freePort(), await freePort(), await freePort()];
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), PAYMENT_PORT: String(paymentPort), SIMULATOR_PORT: String(simulatorPort), DATA_DIR: dataDir, SEED_DEMO: 'false', LOG_LEVEL: 'error' };
    for (const name of ['DARAJA_CONSUMER_KEY', 'DARAJA_CONSUMER_SECRET', 'DARAJA_SHORTCODE', 'DARAJA_PASSKEY', 'DARAJA_SIMULATOR', 'DARAJA_BASE_URL', 'DATABASE_URL', 'REDIS_URL']) delete env[name];
    const child = spawn(process.execPath, [path.join(root, 'scripts/start.mjs')], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      const api = `http://127.0.0.1:${port}`;
      // npm start builds what is stale first: the API server and the payment service answer once everything runs.
      const health = await vi.waitFor(
        async () => {
          const [apiReady, payment] = await Promise.all([fetch(`${api}/api/health`), fetch(`http://127.0.0.1:${paymentPort}/api/health`)]);
          if (!apiReady.ok || !payment.ok) throw new Error(`the API server answered ${apiReady.status}, the payment service ${payment.status}`);
          return (await payment.json()) as unknown;
        },
        { timeout: 300_000, interval: 250 },
      );
      expect(health).toEqual({ status: 'ok', simulator: true });
      // The checkout is the API server's: a purchase that is not valid is refused there, in the contract's words.
      const refused = await fetch(`${api}/pay/stkPush`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ phone: '254712345678' }) });
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { code: string }).code).toBe('order_id_invalid');
      // The simulator answers Daraja's protocol on its own port; the payment service holds none of it.
      expect((await fetch(`http://127.0.0.1:${simulatorPort}/oauth/v1/generate?grant_type=client_credentials`)).status).toBe(400);
      expect((await fetch(`http://127.0.0.1:${paymentPort}/simulator/phone.js`)).status).toBe(404);
      // The phone page with every prompt, through the API server's port, with the key it printed.
      const key = readFileSync(path.join(dataDir, 'simulator-key'), 'utf8').trim();
      expect(output).toContain(`/simulator?key=${key}`);
      expect((await fetch(`${api}/simulator?key=${encodeURIComponent(key)}`, { headers: { accept: 'text/html' } })).status).toBe(200);
      expect((await fetch(`${api}/simulator`, { headers: { accept: 'text/html' } })).status).toBe(401);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });
});
