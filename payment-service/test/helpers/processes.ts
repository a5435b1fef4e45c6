import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { type AddressInfo, type Socket } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Real processes for fault tests: the API server, the payment service and the standalone Daraja
 * simulator, each a child `node --import tsx …` so that SIGKILL really kills it (bench/lib.mjs
 * starts them the same way). Each keeps the tail of its output for the failure message.
 */

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export { createPostgresDatabase } from '../../../server/test/helpers/test-database.js';
export { freePort } from '../../../server/test/helpers/test-server.js';

export interface ServiceProcess {
  name: string;
  url: string;
  pid: number;
  child: ChildProcess;
  /** The last lines it printed (stdout and stderr). */
  output(): string;
  /** How many lines it printed so far match `pattern`. */
  count(pattern: RegExp): number;
  /** SIGKILL: no shutdown hook runs, in-flight requests and transactions are cut off. */
  kill(): Promise<void>;
  /** SIGTERM and wait for the exit. */
  stop(): Promise<void>;
}

/** Starts `node --conditions=@tukio/source --import tsx <entry>` (scripts/lib.mjs) and waits until `healthPath` answers 200. */
export async function startService(options: {
  name: string;
  entry: string;
  port: number;
  env: Record<string, string>;
  healthPath?: string;
  timeoutMs?: number;
}): Promise<ServiceProcess> {
  const child = spawn(process.execPath, ['--conditions=@tukio/source', '--import', 'tsx', path.join(root, options.entry)], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'error', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) lines.push(line);
    if (lines.length > 50_000) lines.splice(0, lines.length - 50_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${options.port}`;
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${options.name} exited during start (${child.exitCode ?? child.signalCode}):\n${lines.slice(-30).join('\n')}`);
    }
    try {
      const response = await fetch(`${url}${options.healthPath ?? '/api/health'}`, { signal: AbortSignal.timeout(2000) });
      await response.arrayBuffer();
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${options.name} did not answer within ${options.timeoutMs ?? 60_000} ms:\n${lines.slice(-30).join('\n')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const alive = () => child.exitCode === null && child.signalCode === null;
  return {
    name: options.name,
    url,
    pid: child.pid!,
    child,
    output: () => lines.slice(-200).join('\n'),
    count: (pattern) => lines.filter((line) => pattern.test(line)).length,
    async kill() {
      if (alive()) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (alive()) {
        child.kill('SIGTERM');
        const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(force);
      }
      await exited;
    },
  };
}

/**
 * An HTTP pass-through in front of a service, for a fault at a chosen step. Requests whose path
 * matches `hold` wait here, never reaching the service, until `dropHeld` cuts their connections
 * (as a dying server would); requests matching `refuse` are answered 503 at once, as by an
 * overloaded server, and their bodies kept.
 */
export async function startGate(target: string, listenPort = 0) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 128 });
  const held: Array<{ path: string; body: string; socket: Socket }> = [];
  const refused: Array<{ path: string; body: string }> = [];
  let holding: RegExp | undefined;
  let holdingAnswers: RegExp | undefined;
  /** Paths of the requests forwarded to the target and not answered by it yet. */
  const forwarding: string[] = [];
  let refusing: RegExp | undefined;
  const server = http.createServer((req, res) => {
    const requestPath = req.url ?? '/';
    if (holding?.test(requestPath)) {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => held.push({ path: requestPath, body: Buffer.concat(chunks).toString('utf8'), socket: req.socket }));
      return;
    }
    if (refusing?.test(requestPath)) {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        refused.push({ path: requestPath, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'Service unavailable (test gate).' }));
      });
      return;
    }
    forwarding.push(requestPath);
    const answered = () => {
      const index = forwarding.indexOf(requestPath);
      if (index >= 0) forwarding.splice(index, 1);
    };
    const upstream = http.request(`${target}${requestPath}`, { method: req.method, headers: req.headers, agent }, (answer) => {
      answered();
      if (holdingAnswers?.test(requestPath)) {
        // Done upstream; its caller never hears about it.
        answer.resume();
        held.push({ path: requestPath, body: '', socket: req.socket });
        return;
      }
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => {
      answered();
      res.destroy();
    });
    req.pipe(upstream);
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(listenPort, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    /** Requests whose path matches from now on wait here; undefined = none. */
    hold(pattern: RegExp | undefined) {
      holding = pattern;
    },
    /** Requests whose path matches from now on reach the target, but their answers wait here (listed with the held ones); undefined = none. */
    holdAnswers(pattern: RegExp | undefined) {
      holdingAnswers = pattern;
    },
    /** Requests whose path matches from now on are answered 503; undefined = none. */
    refuse(pattern: RegExp | undefined) {
      refusing = pattern;
    },
    /** Requests forwarded to the target that it has not answered yet. */
    forwarding: (pattern?: RegExp) => forwarding.filter((path) => !pattern || pattern.test(path)),
    held: (pattern?: RegExp) => held.filter((request) => !pattern || pattern.test(request.path)),
    refused: (pattern?: RegExp) => refused.filter((request) => !pattern || pattern.test(request.path)),
    /** Cuts the connections of the held requests: the service never saw them. */
    dropHeld() {
      for (const request of held.splice(0)) request.socket.destroy();
    },
    async close() {
      this.dropHeld();
      agent.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
