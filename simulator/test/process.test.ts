import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadSimulatorConfig } from '../src/config.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tukio-simulator-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('the simulator configuration', () => {
  it('generates SIMULATOR_KEY into DATA_DIR when unset (shared with the API server and the payment service), else takes the given one', () => {
    const dataDir = tempDir();
    const config = loadSimulatorConfig({ DATA_DIR: dataDir });
    expect(config.key).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    expect(readFileSync(path.join(dataDir, 'simulator-key'), 'utf8').trim()).toBe(config.key);
    expect(loadSimulatorConfig({ DATA_DIR: dataDir }).key).toBe(config.key);
    expect(loadSimulatorConfig({ DATA_DIR: dataDir, SIMULATOR_KEY: 'my-own-simulator-key' }).key).toBe('my-own-simulator-key');
    // Without DATA_DIR, a fresh one each start.
    expect(loadSimulatorConfig({}).key).not.toBe(loadSimulatorConfig({}).key);
    expect(() => loadSimulatorConfig({ SIMULATOR_KEY: 'short' })).toThrow(/SIMULATOR_KEY/);
  });

  it('listens on loopback, port 27685, and posts callbacks to DARAJA_CALLBACK_URL\'s origin unless SIMULATOR_CALLBACK_ORIGINS says otherwise', () => {
    const defaults = loadSimulatorConfig({});
    expect(defaults).toMatchObject({ host: '127.0.0.1', port: 27685, callbackOrigins: ['http://127.0.0.1:27684'], delayMs: 3000 });
    expect(loadSimulatorConfig({ DARAJA_CALLBACK_URL: 'https://pay.example.com/api/mpesa/callback' }).callbackOrigins).toEqual(['https://pay.example.com']);
    expect(loadSimulatorConfig({ SIMULATOR_CALLBACK_ORIGINS: 'http://a.example:1/x, https://b.example' }).callbackOrigins).toEqual(['http://a.example:1', 'https://b.example']);
    expect(() => loadSimulatorConfig({ SIMULATOR_CALLBACK_ORIGINS: 'ftp://x.example' })).toThrow(ConfigError);
    expect(() => loadSimulatorConfig({ SIMULATOR_PORT: 'eighty' })).toThrow(/SIMULATOR_PORT/);
  });
});

describe('the simulator process', () => {
  it('serves Daraja and its phone pages on its own port and prints the link to every prompt with its key', { timeout: 60_000 }, async () => {
    const child = spawn(process.execPath, ['--conditions=@tukio/source', '--import', 'tsx', path.join(root, 'simulator/src/index.ts')], {
      cwd: root,
      env: { ...process.env, SIMULATOR_PORT: '0', SIMULATOR_KEY: 'process-test-simulator-key', SIMULATOR_PUBLIC_URL: 'http://localhost:5999', LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let output = '';
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const line = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes('\n')) resolve(output);
        });
        child.once('exit', (code) => reject(new Error(`the simulator exited (${code}): ${output}`)));
      });
      expect(line).toContain('simulated M-Pesa phone with every prompt: http://localhost:5999/simulator?key=process-test-simulator-key');
      const url = /Daraja API on (http:\/\/127\.0\.0\.1:\d+)/.exec(line)?.[1];
      expect(url).toBeDefined();
      // Daraja's protocol at the root, the phone pages under /simulator, JSON errors elsewhere.
      expect((await fetch(`${url}/oauth/v1/generate?grant_type=client_credentials`)).status).toBe(400);
      expect((await fetch(`${url}/simulator/phone.js`)).status).toBe(200);
      expect((await fetch(`${url}/simulator/prompts`, { headers: { 'x-simulator-key': 'process-test-simulator-key' } })).status).toBe(200);
      const missing = await fetch(`${url}/nothing-here`);
      expect(missing.status).toBe(404);
      expect(await missing.json()).toMatchObject({ code: 'not_found' });
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  });
});
