import { buildPgliteTemplate, PGLITE_TEMPLATE_ENV } from './helpers/pglite-template.js';

/** Once per run, before any test process starts (they inherit the environment): the migrated PGlite they start from. */
export default async function setup() {
  process.env[PGLITE_TEMPLATE_ENV] = await buildPgliteTemplate();
}
