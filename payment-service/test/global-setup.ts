import { buildPostgresTemplate, POSTGRES_TEMPLATE_ENV } from '../../server/test/helpers/test-database.js';
import { buildPgliteTemplate, PGLITE_TEMPLATE_ENV } from '../../server/test/helpers/pglite-template.js';

/*
 * Once per run, before any test process starts (they inherit the environment): the migrated database the API
 * servers of the stacks start from, on PGlite and, with TEST_DB=postgres (as `npm test` runs this suite), on
 * PostgreSQL. This suite tests the payment service, not the API's migrations: the API suite does.
 */
export default async function setup() {
  process.env[PGLITE_TEMPLATE_ENV] = await buildPgliteTemplate();
  if (process.env.TEST_DB === 'postgres') process.env[POSTGRES_TEMPLATE_ENV] = await buildPostgresTemplate();
}
