/**
 * HAProxy's configuration for a cluster on one machine: the public frontend balances the API instances
 * (which also serve the client and proxy /pay to the payment service), an internal frontend balances the
 * payment-service instances (the API instances' PAYMENT_URL, M-Pesa's callbacks).
 *
 * Sockets: socket.io starts with HTTP long-polling and then upgrades, and the polling requests of one session
 * must reach the instance that holds it, so the API backend is sticky by a cookie HAProxy adds
 * (`TUKIO_SERVER`); a browser keeps it for the session. Upgraded websockets are tunnelled (`timeout tunnel`).
 * Messages between users on different instances go through Redis (the API's socket.io Redis adapter).
 *
 * Connections: `http-server-close`, a new connection to an instance for every request. Keeping and reusing them
 * (`http-reuse safe`) was tried for the cluster's CPU per ticket and not kept: with it a request through HAProxy
 * failed with its connection closed and no answer, and the pass-after-SIGKILL cluster test failed; not understood
 * yet (docs/decisions/scale-out.md, "What the cluster costs").
 *
 * Failover: health checks every 3 s while an instance is up, every 500 ms once one fails (API instances: /readyz,
 * their database and Redis; payment instances: /healthz, the process) take a dead or draining instance out within
 * ~4 s; a request whose connection is refused is sent to another instance at once anyway (`retry-on conn-failure`
 * only: a request an instance may have started, an M-Pesa prompt say, is never sent twice). Every check is a new
 * connection and, on an API instance, a database and a Redis round trip: once a second on each instance they cost
 * more than they told. When every instance of a tier fails its checks (a starved machine answers /readyz late),
 * the tier's unchecked `backup` entries keep it served instead of answering 503 to everyone.
 */
export interface Backend {
  name: string;
  host: string;
  port: number;
}

export interface HaproxyConfigOptions {
  /** Where browsers connect. */
  publicBind: string;
  /** Where the API instances reach the payment service (PAYMENT_URL) and M-Pesa posts callbacks. */
  paymentBind: string;
  apis: Backend[];
  payments: Backend[];
  /** Longest time a request may take (checkout calls M-Pesa; big exports). */
  serverTimeoutSeconds?: number;
}

const server = (backend: Backend, sticky: boolean) =>
  `  server ${backend.name} ${backend.host}:${backend.port} check${sticky ? ` cookie ${backend.name}` : ''}`;
/** The same instance, used only while every checked one is out: refused connections still go elsewhere. */
const fallback = (backend: Backend) => `  server ${backend.name}-fallback ${backend.host}:${backend.port} backup`;

export function haproxyConfig(options: HaproxyConfigOptions): string {
  const timeout = options.serverTimeoutSeconds ?? 60;
  return [
    'global',
    // Two descriptors a connection (client and server side) within the usual 20,000 open-files limit.
    '  maxconn 8000',
    '',
    'defaults',
    '  mode http',
    '  option http-server-close',
    '  option forwardfor',
    '  option redispatch',
    '  retries 2',
    '  retry-on conn-failure',
    '  timeout connect 2s',
    '  timeout client 60s',
    `  timeout server ${timeout}s`,
    '  timeout tunnel 1h',
    '  timeout http-request 10s',
    '  timeout queue 30s',
    '  timeout check 3s',
    '  default-server inter 3s fastinter 500ms downinter 1s fall 3 rise 2',
    '',
    'frontend web',
    `  bind ${options.publicBind}`,
    '  default_backend api',
    '',
    'backend api',
    '  balance roundrobin',
    '  option httpchk GET /readyz',
    '  http-check expect status 200',
    '  cookie TUKIO_SERVER insert indirect nocache httponly',
    // Which instance answered: for operators' curl and for the cluster tests.
    '  http-response set-header X-Served-By %[srv_name]',
    ...options.apis.map((backend) => server(backend, true)),
    ...options.apis.map(fallback),
    '',
    'frontend payments',
    `  bind ${options.paymentBind}`,
    '  default_backend payment_service',
    '',
    'backend payment_service',
    '  balance roundrobin',
    // Liveness, not /readyz: a payment instance's readiness includes the API answering, and under a burst
    // that would take every payment instance out at once (seen in bench/flash-sale.mjs: all 503).
    '  option httpchk GET /healthz',
    '  http-check expect status 200',
    '  http-response set-header X-Served-By %[srv_name]',
    ...options.payments.map((backend) => server(backend, false)),
    ...options.payments.map(fallback),
    '',
  ].join('\n');
}
