import http from 'node:http';
import https from 'node:https';

export interface HttpResponse {
  status: number;
  statusText: string;
  text: string;
}

/** Connection errors that mean a request never reached its server (so nothing it would have done happened). */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
/** `error`: what a request (node:http or fetch, whose cause carries the code) failed with. */
export const neverSent = (error: unknown) => {
  const code = (error as { code?: unknown } | null)?.code ?? (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  return typeof code === 'string' && NOT_SENT.has(code);
};

export class HttpError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HttpError';
  }
}

/**
 * Keep-alive agents with a bounded number of sockets per host: a burst of buyers queues here,
 * in memory, instead of opening a connection per request against the API server or Daraja.
 */
export function createAgents(maxSockets: number) {
  return {
    http: new http.Agent({ keepAlive: true, maxSockets, keepAliveMsecs: 10_000 }),
    https: new https.Agent({ keepAlive: true, maxSockets, keepAliveMsecs: 10_000 }),
    destroy() {
      this.http.destroy();
      this.https.destroy();
    },
  };
}

export type Agents = ReturnType<typeof createAgents>;

/** One HTTP request with a total timeout; resolves with the status and body text. */
export function request(
  agents: Agents,
  url: string,
  options: { method: 'GET' | 'POST'; headers?: Record<string, string>; body?: string; timeoutMs: number },
): Promise<HttpResponse> {
  const target = new URL(url);
  const secure = target.protocol === 'https:';
  const transport = secure ? https : http;
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...options.headers };
    if (options.body !== undefined) headers['content-length'] = Buffer.byteLength(options.body);
    const req = transport.request(target, { method: options.method, headers, agent: secure ? agents.https : agents.http }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > 1_000_000) {
          req.destroy(new HttpError('response too large'));
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, statusText: res.statusMessage ?? '', text: Buffer.concat(chunks).toString('utf8') });
      });
      res.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
    // The timeout covers waiting for a free socket too, like fetch's AbortSignal.timeout.
    const timer = setTimeout(() => req.destroy(new HttpError(`timed out after ${options.timeoutMs} ms`)), options.timeoutMs);
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}
