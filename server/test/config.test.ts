import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, SERVER_ENV_VARIABLES } from '../src/config.js';

const root = new URL('../../', import.meta.url).pathname;

/** Names set or shown commented out (`# NAME=`) in .env.example. */
function documentedVariables(): Set<string> {
  const text = readFileSync(path.join(root, '.env.example'), 'utf8');
  return new Set([...text.matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]!));
}

/** `import.meta.env.VITE_*` names the client source reads. */
function clientVariables(dir = path.join(root, 'client/src')): string[] {
  const names: string[] = [];
  for (const entry of readdirSync(dir)) {
    const file = path.join(dir, entry);
    if (statSync(file).isDirectory()) names.push(...clientVariables(file));
    else if (/\.tsx?$/.test(entry)) names.push(...[...readFileSync(file, 'utf8').matchAll(/import\.meta\.env\.(VITE_[A-Z0-9_]+)/g)].map((m) => m[1]!));
  }
  return names;
}

/**
 * What running several instances reads: `${NAME}` settings of docker-compose.yml and the `process.env.NAME`
 * of deploy/src (npm run cluster).
 */
function deploymentVariables(): string[] {
  const compose = readFileSync(path.join(root, 'docker-compose.yml'), 'utf8');
  const names = [...compose.matchAll(/\$\{([A-Z][A-Z0-9_]*)/g)].map((match) => match[1]!);
  const deploy = path.join(root, 'deploy/src');
  for (const entry of readdirSync(deploy)) {
    if (entry.endsWith('.ts')) names.push(...[...readFileSync(path.join(deploy, entry), 'utf8').matchAll(/process\.env\.([A-Z][A-Z0-9_]*)/g)].map((match) => match[1]!));
  }
  return names;
}

describe('configuration', () => {
  it('.env.example documents every variable the API server, the payment service, the Daraja simulator, the client and the deployments read', async () => {
    // The payment service and the simulator are their own workspaces (outside this tsconfig's rootDir): loaded at run time.
    const payment = (await import(new URL('../../payment-service/src/config.ts', import.meta.url).href)) as { PAYMENT_ENV_VARIABLES: string[] };
    const simulator = (await import(new URL('../../simulator/src/config.ts', import.meta.url).href)) as { SIMULATOR_ENV_VARIABLES: string[] };
    const read = new Set([...SERVER_ENV_VARIABLES, ...payment.PAYMENT_ENV_VARIABLES, ...simulator.SIMULATOR_ENV_VARIABLES, ...clientVariables(), ...deploymentVariables()]);
    expect(read.size).toBeGreaterThan(40);
    expect(read).toContain('SOCKET_REDIS_ADAPTER');
    expect(read).toContain('VITE_PAYMENT_URL');
    expect(read).toContain('API_REPLICAS');
    const documented = documentedVariables();
    expect([...read].filter((name) => !documented.has(name)).sort()).toEqual([]);
    // And nothing documented that nobody reads.
    expect([...documented].filter((name) => !read.has(name)).sort()).toEqual([]);
  });

  it.each([
    [{ PORT: 'eighty' }, /PORT/],
    [{ SOCKET_REDIS_ADAPTER: 'fast' }, /SOCKET_REDIS_ADAPTER/],
    [{ CHAT_SYNCHRONOUS_COMMIT: 'maybe' }, /CHAT_SYNCHRONOUS_COMMIT/],
    [{ AUTH_CACHE_MS: '-1' }, /AUTH_CACHE_MS/],
    [{ ADMIN_USERNAME: 'root' }, /ADMIN_USERNAME, ADMIN_EMAIL and ADMIN_PASSWORD must be set together/],
    [{ PASSWORD_HASH_COST: '4' }, /PASSWORD_HASH_COST below 10 is for tests only/],
    [{ PASSWORD_HASH_COST: '16' }, /PASSWORD_HASH_COST/],
  ])('refuses %o at start with a message naming the variable', (env, message) => {
    const load = () => loadConfig({ DATA_DIR: '/tmp/tukio-config-test', JWT_SECRET: 'x'.repeat(32), INTERNAL_API_KEY: 'k', ...env });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(message);
  });

  it('reads the documented defaults', () => {
    const config = loadConfig({ DATA_DIR: '/tmp/tukio-config-test', JWT_SECRET: 'x'.repeat(32), INTERNAL_API_KEY: 'k' });
    expect(config.port).toBe(5000);
    expect(config.socketRedisAdapter).toBe('auto');
    expect(config.chatSynchronousCommit).toBe(true);
    expect(config.redisUrl).toBeUndefined();
    // Production's bcrypt cost; only NODE_ENV=test may lower it (the test servers' 4).
    expect(config.passwordHashCost).toBe(10);
    expect(loadConfig({ DATA_DIR: '/tmp/tukio-config-test', JWT_SECRET: 'x'.repeat(32), INTERNAL_API_KEY: 'k', NODE_ENV: 'test', PASSWORD_HASH_COST: '4' }).passwordHashCost).toBe(4);
  });
});
