import { connect } from 'node:net';

/** One sample of a Prometheus text exposition: `name{label="value",…} number`. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)$/.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[key!] = value!.replace(/\\(.)/g, '$1');
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** The value of the sample with this name whose labels include `labels` (0 when there is none yet). */
export function sampleValue(text: string, name: string, labels: Record<string, string> = {}): number {
  const found = parseMetrics(text).find((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value));
  return found?.value ?? 0;
}

/** Polls until `condition` holds (every 20 ms), failing after `timeoutMs`. */
export async function waitFor(condition: () => Promise<boolean>, what: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Resolves once nothing accepts connections on `port` any more (a shutdown closed the listener). */
export function listenerClosed(port: number) {
  return waitFor(
    () =>
      new Promise<boolean>((resolve) => {
        const probe = connect(port, '127.0.0.1');
        probe.once('connect', () => {
          probe.destroy();
          resolve(false);
        });
        probe.once('error', () => resolve(true));
      }),
    `port ${port} to stop accepting connections`,
  );
}

/**
 * A POST whose JSON body arrives in two parts: the server is answering it between `start()` and
 * `finish()`. `finish` sends the rest and resolves with the raw response once the server closes the connection.
 */
export function slowPost(port: number, route: string, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  const socket = connect(port, '127.0.0.1');
  const received: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => received.push(chunk));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const head = Object.entries({ host: '127.0.0.1', 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.write(`POST ${route} HTTP/1.1\r\n${head}\r\n${text.slice(0, 5)}`);
  return {
    async finish() {
      socket.write(text.slice(5));
      await closed;
      const raw = Buffer.concat(received).toString('utf8');
      const split = raw.indexOf('\r\n\r\n');
      let parsed: Record<string, unknown> | undefined;
      try {
        parsed = JSON.parse(raw.slice(split + 4)) as Record<string, unknown>;
      } catch {
        // No response, or not JSON: the test's expectations on `head` say what went wrong.
      }
      return { head: split < 0 ? raw : raw.slice(0, split), body: parsed };
    },
    destroy: () => socket.destroy(),
  };
}
