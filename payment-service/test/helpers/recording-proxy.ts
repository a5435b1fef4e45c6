import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProxiedRequest {
  method: string;
  path: string;
  /** Which of `upstreams` answered (its index). */
  upstream: number;
  /** Its answer's status; 502 when it could not be reached or hung up. */
  status: number;
}

/**
 * A round-robin HTTP forwarder that records every request: a stand-in for the cluster's balancer in
 * front of payment instances, or a counter of the calls a service makes. `upstreams` may be changed.
 */
export async function startRecordingProxy(initial: string[]) {
  const seen: ProxiedRequest[] = [];
  const proxy = { upstreams: initial, seen, url: '' };
  let next = 0;
  const server = createServer((req, res) => {
    const index = next++ % proxy.upstreams.length;
    const target = new URL(req.url ?? '/', proxy.upstreams[index]);
    const record = (status: number) => seen.push({ method: req.method ?? 'GET', path: target.pathname, upstream: index, status });
    const upstream = httpRequest(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (answer) => {
      record(answer.statusCode ?? 0);
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => {
      record(502);
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    ...proxy,
    get upstreams() {
      return proxy.upstreams;
    },
    set upstreams(value: string[]) {
      proxy.upstreams = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
