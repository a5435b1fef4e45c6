import { buildPgliteTemplate, PGLITE_TEMPLATE_ENV } from './helpers/pglite-template.js';
import { buildPostgresTemplate, POSTGRES_TEMPLATE_ENV } from './helpers/test-database.js';

/**
 * Once per run, before any test process starts (they inherit the environment): the migrated PGlite they start from.
 * The PGlite pass also makes the migrated PostgreSQL database that its tests on a real PostgreSQL (two instances on
 * Redis, jobs racing) copy; the PostgreSQL pass makes none, so there every database is migrated from empty.
 */
export default async function setup() {
  process.env[PGLITE_TEMPLATE_ENV] = await buildPgliteTemplate();
  if (process.env.TEST_DB !== 'postgres') {
    // Without a reachable PostgreSQL the tests that need one say so themselves (createPostgresDatabase).
    process.env[POSTGRES_TEMPLATE_ENV] = await buildPostgresTemplate().catch(() => '');
  }
}
