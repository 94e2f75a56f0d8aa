// ESLint (flat config): typescript-eslint's recommended rules, plus the import boundaries of
// DESIGN.md ("Layout") as lint errors, so a wrong import fails `npm run lint` instead of review.
//
// How the boundaries are built: `no-restricted-imports` bans an import outright (type-only
// imports too); `@typescript-eslint/no-restricted-imports` with `allowTypeImports` bans values
// but lets `import type` through. In a flat config the last block that sets a rule replaces its
// options, so every folder block lists its complete set (`bans(...)` merges them).
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** One group of banned modules: exact names, and patterns for their subpaths. */
const group = (names, message, subpathPatterns = names.map((name) => `${name}/*`)) => ({
  paths: names.map((name) => ({ name, message })),
  patterns: subpathPatterns.length > 0 ? [{ group: subpathPatterns, message }] : [],
});

/** The options of no-restricted-imports for the given groups. */
const bans = (...groups) => [
  'error',
  { paths: groups.flatMap((g) => g.paths), patterns: groups.flatMap((g) => g.patterns) },
];

const database = group(
  ['knex', 'knex-pglite', 'pg'],
  'knex only in db/: the database drivers (knex, knex-pglite, pg) are imported in db/ alone; use a db/ repository.',
);
const webServerPackages = group(['@temporalio/client', '@temporalio/worker', '@temporalio/workflow', '@temporalio/activity'], 'web/ talks to the service over HTTP only.');
const mapLibraries = group(
  ['maplibre-gl', 'terra-draw', 'terra-draw-maplibre-gl-adapter'],
  'The map and drawing libraries live behind web/app/mapAdapter.ts and web/app/drawingAdapter.ts (DESIGN.md): ask the adapter.',
);
const koa = group(
  ['koa', 'koa-body'],
  'Koa belongs to api/: keep HTTP out of this folder.',
  ['koa/*', 'koa-body/*', '@koa/*'],
);
const nodeBuiltins = group(
  builtinModules,
  'Workflow code runs in the deterministic Temporal sandbox: no Node built-ins (do I/O in an activity).',
  ['node:*'],
);
const temporalOutsideWorkflow = group(
  ['@temporalio/activity', '@temporalio/client', '@temporalio/worker', '@temporalio/testing'],
  'Workflow code imports only @temporalio/workflow (and @temporalio/common); not the activity, client, worker or testing packages.',
);
const temporalProcesses = group(
  ['@temporalio/client', '@temporalio/worker'],
  'lib/ is domain code: Temporal clients and workers are built in api/, workers/ and scripts/.',
);

/** Relative imports of a sibling top folder, from any depth: ../activities/x.js, ../../workflows/y.js */
const topFolder = (...names) => `^(\\.\\./)+(${names.join('|')})(/|$)`;

export default defineConfig([
  globalIgnores(['data/', '.tools/', 'bench/out/', 'coverage/', '.scratch/']),

  js.configs.recommended,
  { ignores: ['web/**'], languageOptions: { globals: { ...globals.node } } },
  {
    files: ['**/*.ts', '**/*.tsx'],
    extends: [tseslint.configs.recommended],
    rules: {
      // `_`-prefixed names are deliberately unused (callback parameters, rest-omitted fields).
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
        },
      ],
    },
  },
  {
    files: ['web/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
  // ---- Import boundaries ----
  // Everywhere: no database drivers outside db/.
  { files: ['**/*.ts'], rules: { 'no-restricted-imports': bans(database) } },
  // db/ owns the drivers.
  { files: ['db/**/*.ts'], rules: { 'no-restricted-imports': 'off' } },

  // web/ is browser code (its pages are also rendered on the server): HTTP only, no server packages;
  // the map and drawing libraries behind the adapter (after the "everywhere" block, which it replaces here).
  { files: ['web/**/*.ts', 'web/**/*.tsx'], rules: { 'no-restricted-imports': bans(database, koa, nodeBuiltins, webServerPackages, mapLibraries) } },
  { files: ['web/app/mapAdapter.ts', 'web/app/drawingAdapter.ts', 'web/app/boxSelectAdapter.ts', 'web/app/overlayAdapter.ts'], rules: { 'no-restricted-imports': bans(database, koa, nodeBuiltins, webServerPackages) } },


  {
    files: ['workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': bans(database, koa, nodeBuiltins, temporalOutsideWorkflow),
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: topFolder('activities'),
              allowTypeImports: true,
              message:
                'Workflows import activity types only (`import type`) and call activities through proxyActivities.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['api/**/*.ts'],
    rules: {
      'no-restricted-imports': bans(database),
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: topFolder('activities', 'workflows'),
              allowTypeImports: true,
              message:
                'api/ starts workflows by name (lib/jobContracts.ts) through api/jobs.ts: import activities/ and workflows/ as types only.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['activities/**/*.ts'],
    rules: { 'no-restricted-imports': bans(database, koa) },
  },
  {
    files: ['lib/**/*.ts'],
    rules: {
      'no-restricted-imports': bans(database, koa, temporalProcesses),
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: topFolder('db', 'api', 'activities', 'workflows', 'workers'),
              allowTypeImports: true,
              message:
                'lib/ is domain code: it imports no values from db/ (repositories are passed in: see lib/accounts.ts), api/, activities/, workflows/ or workers/.',
            },
          ],
        },
      ],
    },
  },
]);
