/**
 * Imports scraped events: `npm run import:events -- <file.json | file.ics | https://…>`.
 * Uses the server's database settings (DATABASE_URL, or the PGlite database under DATA_DIR; stop the
 * server first when it uses PGlite, which allows one process at a time). Events are created pending,
 * owned by the system user; running it again skips what it already imported.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError, loadConfig } from '../config.js';
import { openDatabase, pgliteDataDir } from '../db/database.js';
import { createLogger } from '../lib/logger.js';
import { ensureSystemAccount } from '../modules/auth/index.js';
import { createEventsImportService, fetchImportSource } from '../modules/events/index.js';
import { createGeocodingService } from '../modules/geocoding/index.js';

async function readSource(source: string, allowedAddresses: readonly string[]): Promise<string> {
  // Private and loopback addresses are refused, at every redirect, and the body is capped while it streams.
  if (/^https?:\/\//i.test(source)) return fetchImportSource(source, { allowedAddresses });
  // npm runs workspace scripts inside server/; a relative path means the directory npm was started from.
  return readFile(path.resolve(process.env.INIT_CWD ?? process.cwd(), source), 'utf8');
}

/** PGlite must not be opened by two processes; a server answering on our port holds it. */
async function serverIsRunning(port: number): Promise<boolean> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(1000) });
    return response.ok;
  } catch {
    return false;
  }
}

async function main(argv: string[]): Promise<number> {
  const source = argv.find((arg) => !arg.startsWith('-'));
  if (!source) {
    console.error('Usage: npm run import:events -- <events.json | events.ics | URL>');
    return 2;
  }
  const config = loadConfig();
  if (!config.databaseUrl && (await serverIsRunning(config.port))) {
    console.error(`A Tukio server is running on port ${config.port} with the embedded database, which allows one process at a time. Stop it first, or set DATABASE_URL.`);
    return 1;
  }
  const logger = createLogger(config.logLevel === 'info' ? 'error' : config.logLevel);
  const text = await readSource(source, config.importAllowedAddresses);
  const database = await openDatabase({ url: config.databaseUrl, dataDir: pgliteDataDir(config.dataDir) });
  try {
    await ensureSystemAccount(database.db);
    const importer = createEventsImportService({
      db: database.db,
      geocoding: createGeocodingService({ url: config.geocoder.url, timeoutMs: config.geocoder.timeoutMs, logger }),
      publicUrl: config.publicUrl,
    });
    const result = await importer.importText(text, source);
    for (const problem of result.problems) console.log(`  event #${problem.index + 1} not imported: ${problem.reason}`);
    console.log(`Imported from ${source}: ${result.created} created, ${result.skipped} skipped (already imported), ${result.invalid} invalid.`);
    return 0;
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`[tukio] import failed: ${error instanceof ConfigError || error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
