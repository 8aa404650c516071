// ESLint (flat config): typescript-eslint's recommended rules, React hooks rules, no import cycles, and the project's
// layering as import boundaries (docs/ARCHITECTURE.md, "Rules"). `npm run lint` runs it; `npm test` runs it first.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/** Paths a layer must not import from (import-x/no-restricted-paths zones; `target` may not import `from`). */
const boundaries = [
  // Workspace packages are libraries: they never reach into the applications.
  { target: './packages', from: './apps', message: 'packages are libraries: they never import the server or the web app' },
  { target: './packages', from: './e2e' },
  // contracts is the shared vocabulary: it depends on no other workspace package.
  {
    target: './packages/contracts',
    from: ['./packages/engine', './packages/hazards', './packages/geo'],
    message: '@crp/contracts depends on no other workspace package',
  },
  // The engine is pure maths: no hazard layers, no geocoding (the server wires them in through the hazard provider).
  { target: './packages/engine', from: ['./packages/hazards', './packages/geo'], message: 'the engine is pure: hazard inputs come through the provider' },
  // The web app talks to the server over HTTP only; it shares @crp/contracts, nothing else.
  {
    target: './apps/web',
    from: ['./apps/server', './packages/engine', './packages/hazards', './packages/geo'],
    message: 'the web app shares only @crp/contracts with the server',
  },
  { target: './apps/server', from: './apps/web' },
  // Web furniture is shared by the features: ui/ and lib/ never import a feature or a page.
  {
    target: ['./apps/web/src/ui', './apps/web/src/lib'],
    from: ['./apps/web/src/features', './apps/web/src/pages'],
    message: 'ui/ and lib/ are shared furniture: they never import a feature or a page',
  },
  // Server layers (apps/server/src/modules/<domain>/): routes -> services -> repositories; routes never see the database.
  { target: './apps/server/src/modules/**/*.routes.ts', from: './apps/server/src/infra/db/**', message: 'routes never see the database: call a service' },
  {
    target: './apps/server/src/modules/**/*.repository.ts',
    from: [
      './apps/server/src/modules/**/*.routes.ts',
      './apps/server/src/modules/**/*.service.ts',
      './apps/server/src/modules/**/*.jobs.ts',
      './apps/server/src/modules/analysis/**',
      './apps/server/src/modules/reports/**',
    ],
    message: 'repositories are SQL only',
  },
  {
    target: ['./apps/server/src/modules/**/!(*.routes).ts', './apps/server/src/infra/**', './apps/server/src/lib/**'],
    from: './apps/server/src/modules/**/*.routes.ts',
    message: 'only the composition root knows the HTTP routes: services, jobs and repositories do not',
  },
  {
    target: './apps/server/src/modules/**/*.presenter.ts',
    from: './apps/server/src/infra/db/database.ts',
    message: 'presenters shape rows; they do not query',
  },
  // Infrastructure (database, queue, mail, files) and lib/ know no domain.
  {
    target: ['./apps/server/src/infra/**', './apps/server/src/lib/**'],
    from: './apps/server/src/modules/**',
    message: 'infra/ and lib/ know no domain module',
  },
  // Production code never imports tests, benches or developer tools.
  {
    target: ['./apps/server/src/**', './apps/web/src/**', './packages/*/src/**'],
    from: ['./apps/server/test/**', './apps/server/bench/**', './e2e/**', './packages/*/test/**', './packages/*/bench/**'],
  },
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/.data/**',
      'apps/web/public/**',
      'packages/*/data/**',
      'docs/**',
      '**/*.d.ts',
      'apps/server/test/support/dashboard-reference.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  importX.flatConfigs.typescript,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    settings: {
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['tsconfig.base.json', 'apps/*/tsconfig.json', 'packages/*/tsconfig.json', 'e2e/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { zones: boundaries }],
      'import-x/no-self-import': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  {
    files: ['apps/web/src/**'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    // Web features do not reach into each other's files: shared furniture lives in ui/ (components: charts, maps,
    // dialogs) and lib/ (formatting, basemap styles, upload parsing, the session and its hooks). No exceptions.
    files: ['apps/web/src/features/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../*', '../*/**', '!../..', '!../../**'],
              message: "A feature does not import another feature's files: move what both need to ui/ or lib/.",
            },
          ],
        },
      ],
    },
  },
  {
    // Issue 24: no function of the server or the packages is over 80 lines (blank lines and comments not counted)
    // without a reason written beside it: `// eslint-disable-next-line max-lines-per-function -- <reason>`. The long
    // builders (dashboard query, analysis jobs, slide deck, hazard layers) are named steps a reader can follow.
    files: ['apps/server/src/**', 'packages/*/src/**'],
    rules: { 'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }] },
  },
  {
    // A route is schema -> authenticate -> one service call: the engine, hazard layers and geocoding are the services'.
    files: ['apps/server/src/modules/**/*.routes.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@crp/engine', '@crp/engine/*', '@crp/hazards', '@crp/hazards/*', '@crp/geo', '@crp/geo/*'],
              message: 'routes call a service: the engine, hazards and geo are used by services.',
            },
          ],
        },
      ],
    },
  },
  {
    // A service or a job holds the rules; the SQL is its domain's repository's (docs/ARCHITECTURE.md).
    files: ['apps/server/src/modules/**/*.service.ts', 'apps/server/src/modules/**/*.jobs.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'MemberExpression[property.name=/^(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)$/]',
          message: 'services and jobs build no query: call the repository',
        },
      ],
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'kysely', importNames: ['sql'], message: 'services and jobs build no query: call the repository', allowTypeImports: true }] },
      ],
    },
  },
  {
    // Tests, benches and developer scripts read untyped JSON answers and build hostile inputs on purpose.
    files: ['apps/server/test/**', 'apps/server/bench/**', 'e2e/**', 'packages/*/test/**', 'packages/*/bench/**', 'packages/*/scripts/**', 'scripts/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Kysely's documented type for migrations and schema-agnostic tools (backup/restore reads every table by name).
    files: [
      'apps/server/src/infra/db/migrate.ts',
      'apps/server/src/infra/db/backup.ts',
      'apps/server/src/infra/db/pglite-dialect.ts',
      'apps/server/src/infra/db/migrations/**',
    ],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The NUL guard looks for U+0000 on purpose (docs/reliability.md).
    files: ['apps/server/src/modules/projects/asset-import.ts', 'apps/server/src/plugins/nul-guard.ts'],
    rules: { 'no-control-regex': 'off' },
  },
  { files: ['scripts/**/*.mjs', 'eslint.config.js'], languageOptions: { globals: { ...globals.node } } },
);
