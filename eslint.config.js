import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/*
 * Client boundaries (docs/decisions/client-boundaries.md), modelled on bulletproof-react's restricted zones:
 * shared code (components, hooks, lib, config, types, styles) ← features ← app. A feature never imports
 * another feature or app/; app/ (and the entry files in src/) import a feature only through its public
 * face, features/<name>/index.ts, or one of its page stylesheets. Core no-restricted-imports matches the
 * import text, so each folder gets its own patterns; no-restricted-syntax applies them to import() too.
 */
const clientFeatures = readdirSync(new URL('./client/src/features/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const toastifyPath = { name: 'react-toastify', message: "Use notify from 'src/lib/notify' (loads the toast library on demand)." };
const sharedBoundary = {
  regex: String.raw`^(?:\.\./)+(?:app|features)(?:/|$)`,
  message: 'Shared code (components, hooks, lib, config, types) must not import from features/ or app/: move the piece here or pass it in (docs/decisions/client-boundaries.md).',
};
const featureBoundaries = (feature) => [
  {
    regex: String.raw`^(?:\.\./)+(?:app|features)(?:/|$)`,
    message: `The ${feature} feature must not import from app/: app composes features (docs/decisions/client-boundaries.md).`,
  },
  {
    regex: String.raw`^(?:\.\./)+(?:${clientFeatures.filter((name) => name !== feature).join('|')})(?:/|$)`,
    message: `The ${feature} feature must not import another feature: move shared pieces to src/{components,hooks,lib,types} or let app/ pass them in as props (docs/decisions/client-boundaries.md).`,
  },
];
const appBoundary = {
  regex: String.raw`^(?:\.\.?/)+features/[^/]+/(?!index(?:\.tsx?)?$)(?![^/]+\.css$)`,
  message: "app/ imports a feature only through its public face: from 'features/<name>' (its index.ts) or a stylesheet at its root (docs/decisions/client-boundaries.md).",
};
/** The same patterns for import() and import.meta.glob(), which no-restricted-imports does not check. */
const dynamicImportSelectors = ({ regex, message }) => {
  const pattern = regex.replaceAll('/', String.raw`\x2F`); // esquery ends a regex at the first slash
  return [
    { selector: `ImportExpression > Literal.source[value=/${pattern}/]`, message },
    { selector: `CallExpression[callee.object.type='MetaProperty'] > Literal[value=/${pattern}/]`, message },
  ];
};
const boundaryRules = (boundaries, paths = [toastifyPath]) => ({
  'no-restricted-imports': ['error', { paths, patterns: boundaries }],
  'no-restricted-syntax': ['error', ...boundaries.flatMap(dynamicImportSelectors)],
});

/*
 * Server module boundaries (docs/decisions/server-boundaries.md): the modules under server/src/modules
 * are layered, lowest first. A module imports its own files, server/src/{lib,db}, and the public face
 * (index.ts) of a module in a lower layer: never a module at its own layer or above (a lower module that
 * needs their data declares a port and app.ts fills it), never another module's internals. The rest of
 * src (app.ts, server.ts, realtime.ts, bootstrap/, scripts/) reaches any module through its face; lib/
 * and db/ sit below every module and may name only the auth face's types (the identity on req.user).
 * Every folder under server/src/modules must be placed here, so a new module's layer is a decision.
 */
const serverLayers = [
  ['contact', 'docs', 'geocoding', 'mail', 'payment-proxy', 'sms', 'uploads', 'waiting-room'],
  ['chat'],
  ['auth'],
  // webhooks: every module where a fact happens (tickets, checkout, payouts) writes its deliveries.
  ['webhooks'],
  ['events'],
  // ledger: checkout posts every payment and refund into it, inside its own transactions.
  // fees: an override names an event; checkout prices with its rule and records M-Pesa's charges.
  // payout-accounts: checks the password (auth) and that the caller organises events (events).
  // teams: finds invitees (auth), reads events' organisers (events), mails invitations (mail); the route gate asks it through req.teamAccess.
  ['fees', 'ledger', 'payout-accounts', 'teams', 'tickets'],
  ['checkout'],
  // payouts: reads checkout's refunds and the ledger's entries, posts payouts into the ledger.
  ['community', 'payouts', 'ticket-types', 'waitlist'],
  // dashboard reads checkout's refunds and ticket types' tables, ops counts checkout's orders for its metrics.
  // api-keys: its /api/v1 routes call events' and tickets' services.
  // checkout-questions: checkout checks and keeps answers, tickets lists them, through ports app.ts fills.
  ['api-keys', 'checkout-questions', 'dashboard', 'moderation', 'ops'],
  // data-rights reads every module's personal tables through the personal-data map (docs/decisions/data-rights.md).
  ['data-rights'],
  // retention erases, once per event, the columns every module's retention.ts names (docs/decisions/data-rights.md).
  ['retention'],
];
const serverModules = readdirSync(new URL('./server/src/modules/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const serverLayerOf = new Map(serverLayers.flatMap((names, layer) => names.map((name) => [name, layer])));
const unplacedModules = serverModules.filter((name) => !serverLayerOf.has(name));
if (unplacedModules.length > 0) {
  throw new Error(`eslint.config.js: place ${unplacedModules.join(', ')} in serverLayers (docs/decisions/server-boundaries.md).`);
}
/*
 * Tables (docs/decisions/server-boundaries.md, "Tables"): a module's repositories import its own tables from
 * its <module>.schema.ts. Another module's tables are read only in a join, taken from the owner's face (which
 * re-exports the tables it lets others read; the layering applies as to any face import), and written only
 * through the owner's service. A statement that needs a higher module's rows calls a database function that
 * module defines in its sql/ (tickets counts checkout's holds with tukio_seats_held), never its table. No module imports another's repository or schema file, nor the aggregate
 * src/db/schema.ts. These two patterns come first and the layering patterns skip their paths, so a wrong
 * import gets the one message that says what to do.
 */
const repositoryOrSchemaFile = String.raw`[^/]+\.(?:repository|schema)(?:\.js)?$`;
const foreignRepository = (module) => ({
  regex: String.raw`^(?:\.\./)+(?:modules/)?(?!${module}/)[^/]+/[^/]+\.repository(?:\.js)?$`,
  message: `The ${module} module must not use another module's repository: call the service its face exports (docs/decisions/server-boundaries.md, "Tables").`,
});
const foreignTables = (module) => ({
  regex: String.raw`^(?:\.\./)+(?:(?:modules/)?(?!${module}/)[^/]+/[^/]+\.schema|db/schema)(?:\.js)?$`,
  message: `The ${module} module must not import another module's tables: its own come from './${module}.schema.js'; another module's are read in a join from that module's face and written through its service (docs/decisions/server-boundaries.md, "Tables").`,
});
/** An import of one of `names` from inside server/src/modules (from a sibling module, or through ../modules/). */
const moduleImport = (names) => String.raw`^(?!.*/${repositoryOrSchemaFile})(?:\.\./)+(?:modules/)?(?:${names.join('|')})`;
const serverModuleBoundaries = (module) => {
  const layer = serverLayerOf.get(module);
  const below = serverModules.filter((name) => serverLayerOf.get(name) < layer);
  const notBelow = serverModules.filter((name) => name !== module && serverLayerOf.get(name) >= layer);
  return [
    foreignRepository(module),
    foreignTables(module),
    notBelow.length > 0 && {
      regex: String.raw`${moduleImport(notBelow)}(?:/|$)`,
      message: `The ${module} module must not import ${notBelow.join(', ')}: they are not below it in the layering. Declare the small interface ${module} needs in its own types and let app.ts pass the implementation (docs/decisions/server-boundaries.md).`,
    },
    below.length > 0 && {
      regex: String.raw`${moduleImport(below)}/(?!index(?:\.js)?$)`,
      message: `The ${module} module imports another module only through its public face, '../<name>/index.js' (docs/decisions/server-boundaries.md).`,
    },
  ].filter(Boolean);
};
/* A public face exports services, types, ports and the tables others may read, never a repository factory. */
const faceBoundary = {
  regex: String.raw`^\./[^/]+\.repository(?:\.js)?$`,
  message: 'A public face exports services, types, ports and the tables others may read in a join, never a repository (docs/decisions/server-boundaries.md, "Tables").',
};
const serverFaceBoundary = {
  regex: String.raw`^(?:\.\.?/)+modules/[^/]+/(?!index(?:\.js)?$)`,
  message: "Outside server/src/modules, import a module only through its public face, 'modules/<name>/index.js' (docs/decisions/server-boundaries.md).",
};
const serverLibBoundaries = [
  {
    regex: String.raw`^(?:\.\./)+modules/(?!auth/index\.js$)`,
    message: 'server/src/lib and db sit below every module and must not import one: move the piece here or let the module pass it in (docs/decisions/server-boundaries.md).',
  },
  {
    regex: String.raw`^(?:\.\./)+modules/auth/index\.js$`,
    allowTypeImports: true,
    message: 'server/src/lib and db may name only the types of the auth face (the identity on req.user), never import its code (docs/decisions/server-boundaries.md).',
  },
];
/*
 * A module's tables live in its own <module>.schema.ts. The file declares tables and nothing else: it imports
 * drizzle-orm, src/db/columns.js and, for foreign keys only, other modules' schema files. Declarations are not
 * code, so a foreign key may point at any module's table (tickets.order_id at payments' orders) without
 * making tickets' code depend on payments'.
 */
const schemaFileBoundary = {
  regex: String.raw`^\.(?!\./\.\./db/columns\.js$)(?!\./[^/]+/[^/]+\.schema\.js$)(?!/[^/]+\.schema\.js$)`,
  message: "A module's schema file imports only drizzle-orm, '../../db/columns.js' and, for foreign keys, other modules' '../<name>/<name>.schema.js' (docs/decisions/server-boundaries.md, \"Tables\").",
};
const schemaAggregateBoundary = {
  regex: String.raw`^(?!\.\./modules/[^/]+/[^/]+\.schema\.js$)`,
  message: 'server/src/db/schema.ts only gathers the modules\' schema files (../modules/<name>/<name>.schema.js) for drizzle-kit and the typed database (docs/decisions/server-boundaries.md).',
};

export default tseslint.config(
  { ignores: ['**/dist/**', '**/dist-ssr/**', '**/node_modules/**', 'data/**', '**/coverage/**', 'server/drizzle/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'off',
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  {
    files: ['client/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      // Toasts go through src/lib/notify.ts, which loads react-toastify on the first toast.
      'no-restricted-imports': ['error', { paths: [{ name: 'react-toastify', message: "Use notify from 'src/lib/notify' (loads the toast library on demand)." }] }],
    },
  },
  {
    // @tukio/shared's node/ entries (pino, prom-client, node:fs, express) never belong in the browser bundle.
    // A rule of its own, so the client boundary rules below (core no-restricted-imports) do not replace it.
    files: ['client/src/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^@tukio/shared/node(?:/|$)', message: 'Node-only: the client imports the browser-safe entries of @tukio/shared (limits, phone, error-body, internal-api, refund-policy).' }] },
      ],
    },
  },
  {
    files: ['client/src/{components,hooks,lib,config,types,styles}/**/*.{ts,tsx}'],
    rules: boundaryRules([sharedBoundary]),
  },
  ...clientFeatures.map((feature) => ({
    files: [`client/src/features/${feature}/**/*.{ts,tsx}`],
    rules: boundaryRules(featureBoundaries(feature)),
  })),
  {
    files: ['client/src/app/**/*.{ts,tsx}', 'client/src/*.{ts,tsx}'],
    rules: boundaryRules([appBoundary]),
  },
  {
    // The one place that imports react-toastify; the boundary still applies.
    files: ['client/src/lib/toaster.tsx'],
    rules: boundaryRules([sharedBoundary], []),
  },
  ...serverModules.map((module) => ({
    files: [`server/src/modules/${module}/**/*.ts`],
    rules: boundaryRules(serverModuleBoundaries(module), []),
  })),
  ...serverModules.map((module) => ({
    files: [`server/src/modules/${module}/index.ts`],
    rules: boundaryRules([faceBoundary, ...serverModuleBoundaries(module)], []),
  })),
  {
    // A schema file declares tables; its only cross-module imports are other schema files, for foreign keys.
    files: ['server/src/modules/*/*.schema.ts'],
    rules: boundaryRules([schemaFileBoundary], []),
  },
  {
    files: ['server/src/*.ts', 'server/src/{bootstrap,scripts}/**/*.ts'],
    rules: boundaryRules([serverFaceBoundary], []),
  },
  {
    files: ['server/src/{lib,db}/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: serverLibBoundaries }],
      'no-restricted-syntax': ['error', ...serverLibBoundaries.flatMap(dynamicImportSelectors)],
    },
  },
  {
    // The aggregate drizzle-kit and the typed database read: it re-exports every module's schema file, nothing else.
    files: ['server/src/db/schema.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [schemaAggregateBoundary] }],
      'no-restricted-syntax': ['error', ...dynamicImportSelectors(schemaAggregateBoundary)],
    },
  },
);
