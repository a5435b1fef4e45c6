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
const clientBoundaryRules = (boundaries, paths = [toastifyPath]) => ({
  'no-restricted-imports': ['error', { paths, patterns: boundaries }],
  'no-restricted-syntax': ['error', ...boundaries.flatMap(dynamicImportSelectors)],
});

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
    files: ['client/src/{components,hooks,lib,config,types,styles}/**/*.{ts,tsx}'],
    rules: clientBoundaryRules([sharedBoundary]),
  },
  ...clientFeatures.map((feature) => ({
    files: [`client/src/features/${feature}/**/*.{ts,tsx}`],
    rules: clientBoundaryRules(featureBoundaries(feature)),
  })),
  {
    files: ['client/src/app/**/*.{ts,tsx}', 'client/src/*.{ts,tsx}'],
    rules: clientBoundaryRules([appBoundary]),
  },
  {
    // The one place that imports react-toastify; the boundary still applies.
    files: ['client/src/lib/toaster.tsx'],
    rules: clientBoundaryRules([sharedBoundary], []),
  },
);
