import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The functions that run inside the database, each in a source file beside the module that owns it. They are
 * applied after the migrations on every start (CREATE OR REPLACE: applying the same text again changes nothing),
 * so today's rule is read in one file instead of being found in whichever migration redefined it last; copies in
 * old migrations are history. Order: a SQL-language function's body is checked when it is created, so what it
 * calls comes first. A migration still creates tables, triggers and a function's first version; to change a
 * function, change its source file.
 */
export const DATABASE_FUNCTION_SOURCES = [
  'ticket-types/sql/ticket-type-rules.sql',
  'waitlist/sql/offered-seats.sql',
  'tickets/sql/ticket-void-final.sql',
  'checkout/sql/refund-rows-kept.sql',
  'ledger/sql/ledger-rules.sql',
  'payout-accounts/sql/confirmed-rows-kept.sql',
  'payouts/sql/payout-rows-kept.sql',
  'checkout/sql/hold-order.sql',
  'events/sql/search.sql',
] as const;

/** Works from src/db (tests, tsx) and dist/db (built) alike: the sources stay in src. */
const modulesFolder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/modules');

export function databaseFunctionSource(file: (typeof DATABASE_FUNCTION_SOURCES)[number]): string {
  return readFileSync(path.join(modulesFolder, file), 'utf8');
}

/** Applies every source, in order, as one script (`runScript` runs several statements in one round trip). */
export async function applyDatabaseFunctions(runScript: (sql: string) => Promise<unknown>): Promise<void> {
  await runScript(`BEGIN;\n${DATABASE_FUNCTION_SOURCES.map(databaseFunctionSource).join('\n')}\nCOMMIT;`);
}
