import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findHaproxy } from '../src/cluster.js';
import { haproxyConfig } from '../src/haproxy-config.js';

const config = haproxyConfig({
  publicBind: '127.0.0.1:5000',
  paymentBind: '127.0.0.1:5001',
  apis: [{ name: 'api1', host: '127.0.0.1', port: 5002 }, { name: 'api2', host: '127.0.0.1', port: 5003 }],
  payments: [{ name: 'pay1', host: '127.0.0.1', port: 5004 }, { name: 'pay2', host: '127.0.0.1', port: 5005 }],
});
const lines = config.split('\n').map((line) => line.trim());
const backend = (name: string) => {
  const start = lines.indexOf(`backend ${name}`);
  const end = lines.indexOf('', start);
  return lines.slice(start, end === -1 ? undefined : end);
};

describe('HAProxy configuration of the cluster', () => {
  it('checks instances every 3 s while they are up and every 500 ms once one fails, taking one out after 3 failures', () => {
    expect(lines).toContain('default-server inter 3s fastinter 500ms downinter 1s fall 3 rise 2');
  });

  it('keeps serving through unchecked backup entries of the same instances when every checked one is out', () => {
    expect(backend('api')).toEqual(expect.arrayContaining(['server api1 127.0.0.1:5002 check cookie api1', 'server api1-fallback 127.0.0.1:5002 backup', 'server api2-fallback 127.0.0.1:5003 backup']));
    expect(backend('payment_service')).toEqual(expect.arrayContaining(['server pay1 127.0.0.1:5004 check', 'server pay1-fallback 127.0.0.1:5004 backup', 'server pay2-fallback 127.0.0.1:5005 backup']));
    // A backup is used only while no checked server is up; it is never checked (a starved machine's late /readyz
    // must not take it out too) and never named by the sticky cookie.
    for (const line of lines.filter((candidate) => candidate.includes('-fallback'))) expect(line).not.toMatch(/ check| cookie/);
  });

  it('is a configuration HAProxy accepts', () => {
    const haproxy = findHaproxy();
    expect(haproxy, 'HAProxy is installed (scripts/test-services.mjs installs it)').toBeDefined();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tukio-haproxy-config-'));
    try {
      const file = path.join(dir, 'haproxy.cfg');
      writeFileSync(file, config);
      expect(execFileSync(haproxy!, ['-c', '-f', file], { encoding: 'utf8' })).toMatch(/valid/i);
      const compose = path.resolve(import.meta.dirname, '../haproxy/compose.cfg');
      expect(execFileSync(haproxy!, ['-c', '-f', compose], { encoding: 'utf8' })).toMatch(/valid/i);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
