/**
 * The multi-instance topology on one machine, without Docker: N API instances and N payment-service
 * instances behind Debian's HAProxy, on the local PostgreSQL and Redis, with the Daraja simulator in a
 * process of its own (as Safaricom would be). `npm run cluster` runs it for people; the cluster tests and
 * benches start it from code. docker-compose.yml runs the same topology in containers.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { paymentServiceEnv } from '../../simulator/src/payment-service-env.js';
import { haproxyConfig } from './haproxy-config.js';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface ClusterOptions {
  /** API instances (default 2). */
  apis?: number;
  /** Payment-service instances (default 2). */
  payments?: number;
  /** The balancer's public port; 0 or absent = any free port. */
  port?: number;
  /** PostgreSQL: instances on several processes cannot share the embedded database. */
  databaseUrl: string;
  /** Redis joins the API instances' sockets (and their rate limits); absent: each instance counts alone (one instance only). */
  redisUrl?: string;
  /**
   * HAProxy in front (default true). false: one API and one payment instance talking to each other directly,
   * as `npm start` runs them (bench/flash-sale.mjs's single stack, measured against the cluster).
   */
  balancer?: boolean;
  /** Where the instances keep their files: the API instances share `<dataDir>/api` (uploads), each payment instance has its own journal. */
  dataDir: string;
  /** Run the TypeScript sources through tsx (tests) instead of the built dist/ files (`npm run cluster`). */
  fromSource?: boolean;
  /** Extra settings for every API instance (and the payment instances: `paymentEnv`). */
  env?: Record<string, string>;
  /** Settings for one API instance (index from 0) on top of `env`: tests tell instances apart with them. */
  apiEnvOf?: (index: number) => Record<string, string>;
  paymentEnv?: Record<string, string>;
  /** Settings for one payment instance (index from 0) on top of `paymentEnv`. */
  paymentEnvOf?: (index: number) => Record<string, string>;
  /** How long the simulated customer takes to enter the PIN (ms); default 3000. */
  simulatorDelayMs?: number;
  /** Each instance's output lines, prefixed with its name; default: dropped. */
  output?: (name: string, line: string) => void;
}

export interface Instance {
  name: string;
  url: string;
  pid: number;
  /** Stops it the hard way (SIGKILL): what a crash or an OOM kill does. */
  kill(): Promise<void>;
  /** Stops it as a platform does (SIGTERM: it drains requests in flight, then exits). */
  stop(): Promise<void>;
}

export interface Cluster {
  /** The balancer: browsers, the client and API calls. */
  url: string;
  /** The balancer's payment frontend (the API instances' PAYMENT_URL; M-Pesa callbacks). */
  paymentUrl: string;
  /** The Daraja simulator (its phone page: `<darajaUrl>/simulator?key=<simulatorKey>`). */
  darajaUrl: string;
  simulatorKey: string;
  apis: Instance[];
  payments: Instance[];
  /** The simulator and HAProxy (absent without a balancer): what the benches count apart from the services. */
  support: Instance[];
  /** Settings shared by every instance (secrets included), for scripts such as the payments audit. */
  apiEnv: Record<string, string>;
  paymentEnvOf(index: number): Record<string, string>;
  stop(): Promise<void>;
}

export function findHaproxy(): string | undefined {
  const candidates = [process.env.HAPROXY_PATH, '/usr/sbin/haproxy', '/usr/bin/haproxy', '/usr/local/sbin/haproxy'];
  return candidates.find((candidate): candidate is string => Boolean(candidate && existsSync(candidate)));
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `url` until it answers 2xx (or `timeoutMs` passes, or the process exits). */
async function waitForOk(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`exited (${child.exitCode ?? child.signalCode}) before ${url} answered`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (response.ok) return;
      last = `HTTP ${response.status}`;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await sleep(200);
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms (${last})`);
}

function relayLines(name: string, stream: NodeJS.ReadableStream | null, output: ClusterOptions['output']) {
  if (!stream) return;
  let pending = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) if (line) output?.(name, line);
  });
}

interface Started extends Instance {
  child: ChildProcess;
}

function startProcess(name: string, command: string, args: string[], env: Record<string, string>, url: string, output: ClusterOptions['output']): Started {
  const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  relayLines(name, child.stdout, output);
  relayLines(name, child.stderr, output);
  // Said in the output too: a bench whose instance died mid-run must not look like a slow one.
  child.once('exit', (code, signal) => output?.(name, `exited (${code ?? signal})`));
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  const signal = async (which: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(which);
    await exited;
  };
  return { name, url, pid: child.pid ?? -1, child, kill: () => signal('SIGKILL'), stop: () => signal('SIGTERM') };
}

/** A Node service of this repository: its TypeScript source through tsx, or its build. */
function nodeService(options: ClusterOptions, source: string, built: string): { command: string; args: string[] } {
  if (options.fromSource) return { command: process.execPath, args: ['--conditions=@tukio/source', '--import', 'tsx', path.join(root, source)] };
  const entry = path.join(root, built);
  if (!existsSync(entry)) throw new Error(`${built} is missing: run \`npm run build\` first`);
  return { command: process.execPath, args: [entry] };
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const haproxy = findHaproxy();
  if (!haproxy && options.balancer !== false) throw new Error('HAProxy is not installed: `apt-get install -y haproxy` (or set HAPROXY_PATH)');
  const balanced = options.balancer ?? true;
  const apiCount = options.apis ?? 2;
  const paymentCount = options.payments ?? 2;
  if (!balanced && (apiCount !== 1 || paymentCount !== 1)) throw new Error('without a balancer the stack has one API and one payment instance');
  if (!options.redisUrl && apiCount > 1) throw new Error('several API instances need Redis');
  const secret = () => randomBytes(24).toString('base64url');
  const simulatorKey = secret();
  const [publicPort, paymentPort, darajaPort] = [options.port || (await freePort()), await freePort(), await freePort()];
  const apiPorts = await Promise.all(Array.from({ length: apiCount }, () => freePort()));
  const paymentPorts = await Promise.all(Array.from({ length: paymentCount }, () => freePort()));
  // Without a balancer the instances are reached directly.
  const url = `http://127.0.0.1:${balanced ? publicPort : apiPorts[0]}`;
  const paymentUrl = `http://127.0.0.1:${balanced ? paymentPort : paymentPorts[0]}`;
  const darajaUrl = `http://127.0.0.1:${darajaPort}`;
  mkdirSync(options.dataDir, { recursive: true });

  const started: Started[] = [];
  const stopAll = async () => {
    await Promise.all([...started].reverse().map((instance) => instance.stop()));
  };
  try {
    // The payment instances' reconciler passes are the API instances' jobs, once per period across them all
    // (docs/decisions/scale-out.md): the period given for the payment side applies there.
    const passPeriods = Object.fromEntries(
      ['RECONCILE_INTERVAL_MS'].flatMap((name) => (options.paymentEnv?.[name] ? [[name, options.paymentEnv[name]]] : [])),
    );
    const apiEnv: Record<string, string> = {
      NODE_ENV: 'production',
      LOG_LEVEL: 'error',
      DATABASE_URL: options.databaseUrl,
      ...(options.redisUrl ? { REDIS_URL: options.redisUrl } : {}),
      DATA_DIR: path.join(options.dataDir, 'api'),
      PUBLIC_URL: url,
      PAYMENT_URL: paymentUrl,
      // The simulated phone pages through the public port, as `npm start` serves them.
      DARAJA_SIMULATOR_URL: darajaUrl,
      JWT_SECRET: secret(),
      INTERNAL_API_KEY: secret(),
      // Behind HAProxy: the client's address is the first of X-Forwarded-For (rate limits, logs).
      TRUST_PROXY: 'true',
      SEED_DEMO: 'false',
      PAYMENT_PASSES: 'jobs',
      ...passPeriods,
      ...options.env,
    };
    // The first instance applies the migrations; the others start once it has.
    const api = nodeService(options, 'server/src/index.ts', 'server/dist/index.js');
    const startApi = async (index: number) => {
      const port = apiPorts[index]!;
      const instance = startProcess(`api${index + 1}`, api.command, api.args, { ...apiEnv, ...options.apiEnvOf?.(index), PORT: String(port) }, `http://127.0.0.1:${port}`, options.output);
      started.push(instance);
      await waitForOk(`${instance.url}/readyz`, instance.child, 120_000);
      return instance;
    };
    const apis = [await startApi(0)];
    apis.push(...(await Promise.all(Array.from({ length: apiCount - 1 }, (_, index) => startApi(index + 1)))));

    const simulator = nodeService(options, 'simulator/src/index.ts', 'simulator/dist/index.js');
    const daraja = startProcess(
      'daraja',
      simulator.command,
      simulator.args,
      // Callbacks and results only to the payment instances, through the balancer (DARAJA_CALLBACK_URL below).
      { SIMULATOR_PORT: String(darajaPort), SIMULATOR_KEY: simulatorKey, SIMULATOR_DELAY_MS: String(options.simulatorDelayMs ?? 3000), SIMULATOR_CALLBACK_ORIGINS: paymentUrl },
      darajaUrl,
      options.output,
    );
    started.push(daraja);
    await waitForOk(`${darajaUrl}/simulator/certificate.pem`, daraja.child, 60_000);
    // The simulator's own app credentials and certificate, given to the payment instances as a Daraja app's.
    const darajaEnv = paymentServiceEnv(darajaUrl, await (await fetch(`${darajaUrl}/simulator/certificate.pem`)).text(), path.join(options.dataDir, 'daraja-simulator.pem'));

    const haproxyFile = path.join(options.dataDir, 'haproxy.cfg');
    if (balanced) writeFileSync(
      haproxyFile,
      haproxyConfig({
        publicBind: `127.0.0.1:${publicPort}`,
        paymentBind: `127.0.0.1:${paymentPort}`,
        apis: apis.map((instance, index) => ({ name: instance.name, host: '127.0.0.1', port: apiPorts[index]! })),
        payments: paymentPorts.map((port, index) => ({ name: `pay${index + 1}`, host: '127.0.0.1', port })),
      }),
    );
    const balancer = balanced ? startProcess('haproxy', haproxy!, ['-db', '-f', haproxyFile], {}, url, options.output) : undefined;
    if (balancer) started.push(balancer);

    // Every payment instance shares the callback secret (M-Pesa's callback for one instance's prompt may reach
    // another), talks to the API through the balancer and keeps its own journal.
    const sharedPaymentEnv: Record<string, string> = {
      NODE_ENV: 'production',
      LOG_LEVEL: 'error',
      API_URL: url,
      INTERNAL_API_KEY: apiEnv.INTERNAL_API_KEY!,
      CORS_ORIGINS: url,
      CALLBACK_SECRET: secret(),
      ...darajaEnv,
      SIMULATOR_KEY: simulatorKey,
      DARAJA_CALLBACK_URL: `${paymentUrl}/api/mpesa/callback`,
      TRUST_PROXY: 'true',
      PAYMENT_PASSES: 'jobs',
      ...options.paymentEnv,
    };
    const paymentEnvOf = (index: number) => ({
      ...sharedPaymentEnv,
      ...options.paymentEnvOf?.(index),
      PAYMENT_PORT: String(paymentPorts[index]),
      DATA_DIR: path.join(options.dataDir, `pay${index + 1}`),
    });
    const paymentService = nodeService(options, 'payment-service/src/index.ts', 'payment-service/dist/index.js');
    const payments = await Promise.all(
      paymentPorts.map(async (port, index) => {
        const instance = startProcess(`pay${index + 1}`, paymentService.command, paymentService.args, paymentEnvOf(index), `http://127.0.0.1:${port}`, options.output);
        started.push(instance);
        await waitForOk(`${instance.url}/readyz`, instance.child, 120_000);
        return instance;
      }),
    );
    // Through the balancer: both frontends answer once HAProxy's checks see the instances.
    if (balancer) {
      await waitForOk(`${url}/readyz`, balancer.child, 30_000);
      await waitForOk(`${paymentUrl}/readyz`, balancer.child, 30_000);
    }

    const strip = ({ name, url: instanceUrl, pid, kill, stop }: Started): Instance => ({ name, url: instanceUrl, pid, kill, stop });
    return {
      url,
      paymentUrl,
      darajaUrl,
      simulatorKey,
      apis: apis.map(strip),
      payments: payments.map(strip),
      support: [daraja, ...(balancer ? [balancer] : [])].map(strip),
      apiEnv,
      paymentEnvOf,
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
