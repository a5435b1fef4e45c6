/**
 * Background jobs across instance processes: the SMS sender's job is running on one API instance (its
 * Africa's Talking request hangs) when that instance is killed with SIGKILL; after the job's expiry the
 * other instance retries the same job and sends the message. With PAYMENT_PASSES=jobs, a payment instance
 * is killed while running the reconciler pass a job asked it for; the job is retried and the other payment
 * instance completes the pass.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type pg from 'pg';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { freePort, type Cluster } from '../src/cluster.js';
import { startTestCluster, type TestCluster } from './helpers/test-cluster.js';

/** A job running longer than this is retried elsewhere (the default is minutes; the test cannot wait that long). */
const EXPIRE_SECONDS = 4;

interface GatewayRequest {
  username: string;
  to: string;
  at: Date;
}

/**
 * Africa's Talking as the instances reach it (AT_BASE_URL): the first message is never answered (the
 * instance sending it is killed meanwhile), later ones are accepted.
 */
function startHangingGateway() {
  const requests: GatewayRequest[] = [];
  const held: ServerResponse[] = [];
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const form = new URLSearchParams(body);
      requests.push({ username: form.get('username') ?? '', to: form.get('to') ?? '', at: new Date() });
      if (requests.length === 1) {
        held.push(response);
        return;
      }
      response.writeHead(201, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          SMSMessageData: {
            Message: 'Sent to 1/1 Total Cost: KES 0.8000',
            Recipients: [{ statusCode: 101, number: form.get('to'), status: 'Success', cost: 'KES 0.8000', messageId: `ATXid_${randomUUID()}` }],
          },
        }),
      );
    });
  });
  return {
    requests,
    listen: () => new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`))),
    close: () =>
      new Promise<void>((resolve) => {
        held.forEach((response) => response.destroy());
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Where the payment instances reach the API server (their API_URL), each under its own prefix (/pay1,
 * /pay2): forwards to the balancer, but once armed holds the next reconciler pass's call for pending
 * payments, so the instance making it is mid-pass until it is killed.
 */
function startPassGate() {
  const held: Array<{ instance: string; at: Date; response: ServerResponse }> = [];
  const pendingCalls: Array<{ instance: string; at: Date }> = [];
  let target = '';
  let armed = false;
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const [, instance = '', ...rest] = (request.url ?? '/').split('/');
    const forwardPath = `/${rest.join('/')}`;
    if (forwardPath.startsWith('/api/internal/payments/pending')) {
      const at = new Date();
      pendingCalls.push({ instance, at });
      if (armed) {
        armed = false;
        held.push({ instance, at, response });
        return;
      }
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name))) as Record<string, string>;
      fetch(`${target}${forwardPath}`, { method: request.method, headers, ...(chunks.length ? { body: Buffer.concat(chunks) } : {}) })
        .then(async (answer) => {
          response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
          response.end(Buffer.from(await answer.arrayBuffer()));
        })
        .catch(() => response.writeHead(502).end());
    });
  });
  return {
    held,
    pendingCalls,
    arm: () => {
      armed = true;
    },
    listen: (balancer: string) => {
      target = balancer;
      return new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
    },
    close: () =>
      new Promise<void>((resolve) => {
        held.forEach(({ response }) => response.destroy());
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Retries `check` until it passes (vitest's waitFor: its last failure is the test's when time runs out). */
const eventually = <T>(check: () => Promise<T>, timeout = 60_000) => vi.waitFor(check, { timeout, interval: 100 });

/** The id of the `name` job running since `startedBy` (the one the held instance took). */
const activeJob = (name: string, startedBy: Date) =>
  eventually(async () => {
    const active = await db.query<{ id: string }>(`SELECT id FROM pgboss.job WHERE name = $1 AND state = 'active' AND started_on <= $2`, [name, startedBy]);
    expect(active.rows.length).toBeGreaterThanOrEqual(1);
    return active.rows[0]!.id;
  });

/** Waits until job `id` has completed, after at least one retry (its first attempt died with its instance). */
async function completedAfterRetry(id: string) {
  const finished = await eventually(async () => {
    const row = await db.query<{ state: string; retry_count: number }>(`SELECT state, retry_count FROM pgboss.job WHERE id = $1`, [id]);
    expect(row.rows[0]).toMatchObject({ state: 'completed' });
    return row.rows[0]!;
  });
  expect(finished.retry_count).toBeGreaterThanOrEqual(1);
}

let started: TestCluster;
let cluster: Cluster;
let db: pg.Client;
const gateway = startHangingGateway();
const passGate = startPassGate();

beforeAll(async () => {
  const gatewayUrl = await gateway.listen();
  // The balancer's port is chosen here: the payment instances reach the API through the gate, which needs it.
  const port = await freePort();
  const gateUrl = await passGate.listen(`http://127.0.0.1:${port}`);
  started = await startTestCluster({
    apis: 2,
    payments: 2,
    port,
    env: {
      PAYMENT_PASSES: 'jobs',
      RECONCILE_INTERVAL_MS: '2000',
      REFUND_POLL_MS: '0',
      AT_BASE_URL: gatewayUrl,
      AT_API_KEY: 'test-key',
      SMS_POLL_MS: '1000',
      SMS_REMINDER_SWEEP_MS: '0',
      JOBS_EXPIRE_SECONDS: String(EXPIRE_SECONDS),
      JOBS_RETRY_DELAY_SECONDS: '1',
    },
    // Each instance signs its messages with its own Africa's Talking username: the gateway sees who sends.
    apiEnvOf: (index) => ({ AT_USERNAME: `api${index + 1}` }),
    paymentEnv: { PAYMENT_PASSES: 'jobs', RECONCILE_INTERVAL_MS: '2000' },
    // Each payment instance calls the API through the gate under its own name.
    paymentEnvOf: (index) => ({ API_URL: `${gateUrl}/pay${index + 1}` }),
  });
  ({ cluster, db } = started);
});

afterAll(async () => {
  await started?.close();
  await gateway.close();
  await passGate.close();
});

it('finishes on the other instance a job whose instance was killed with SIGKILL mid-job', async () => {
  const phone = '+254712345678';
  const id = randomBytes(12).toString('hex');
  await db.query(`INSERT INTO sms_messages (id, purpose, phone, message) VALUES ($1, 'jobs-test', $2, 'Your ticket is ready')`, [id, phone]);

  // One instance's sender job took the message and waits on the gateway.
  const first = await eventually(async () => {
    expect(gateway.requests.length).toBeGreaterThanOrEqual(1);
    return gateway.requests[0]!;
  });
  expect(first.to).toBe(phone);
  const holder = cluster.apis.find((instance) => instance.name === first.username);
  const survivor = cluster.apis.find((instance) => instance !== holder);
  expect(holder, `the sender was ${first.username}`).toBeDefined();
  const job = await activeJob('sms-sender', first.at);

  await holder!.kill();

  // After the expiry the same job is retried, on the one instance left, and the message goes out from there.
  await completedAfterRetry(job);
  const sms = await eventually(async () => {
    const row = await db.query<{ status: string }>(`SELECT status FROM sms_messages WHERE id = $1`, [id]);
    expect(row.rows[0]!.status).toBe('sent');
    return row.rows[0]!;
  });
  expect(sms.status).toBe('sent');
  expect(gateway.requests.slice(1).map((request) => request.username)).toEqual([survivor!.name]);
});

it('completes on the other payment instance a pass whose instance was killed with SIGKILL mid-pass', async () => {
  // One payment instance is running a reconciler pass a job asked for: its call for pending payments is held.
  passGate.arm();
  const first = await eventually(async () => {
    expect(passGate.held).toHaveLength(1);
    return passGate.held[0]!;
  });
  const holder = cluster.payments.find((instance) => instance.name === first.instance);
  const survivor = cluster.payments.find((instance) => instance !== holder);
  expect(holder, `the pass ran on ${first.instance}`).toBeDefined();
  const heldAt = first.at;
  const job = await activeJob('payment-reconcile', heldAt);

  await holder!.kill();

  // The job fails (its request died with the instance), is retried, and the survivor runs the pass.
  await completedAfterRetry(job);
  const later = passGate.pendingCalls.filter((call) => call.at > heldAt);
  expect(later.length).toBeGreaterThanOrEqual(1);
  expect(new Set(later.map((call) => call.instance))).toEqual(new Set([survivor!.name]));
});
