// One lint setup for the whole monorepo; formatting is Prettier's job (eslint-config-prettier).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import reactRefresh from 'eslint-plugin-react-refresh';
import globals from 'globals';
import tseslint from 'typescript-eslint';

import { moduleFaces } from './apps/server/eslint-rules/module-faces.js';
import { noCrossFeatureImports } from './apps/web/eslint-rules/no-cross-feature-imports.js';

/** The server's tables: only repositories (and db/, tests) write queries against them. */
const SCHEMA_IMPORTS = {
  group: ['**/db/schema', '**/db/schema/*'],
  message:
    "Only repositories (*.repository.ts) touch tables: call the owning module's repository or service.",
};
/** HTTP stays in routes: services take and return plain values. */
const FASTIFY_IMPORTS = {
  group: ['fastify', 'fastify/*', 'fastify-*', '@fastify/*'],
  message: 'Services know nothing of HTTP: take plain values from the route instead of a request.',
};

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '**/coverage/**',
      'test-results/**',
      'bench/results/**',
      '**/drizzle/meta/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-restricted-syntax': [
        'error',
        { selector: 'TSEnumDeclaration', message: 'Use a string-literal union instead of an enum.' },
        { selector: 'ExportDefaultDeclaration', message: 'Use named exports.' },
      ],
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}', 'apps/widget/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, 'react-refresh': reactRefresh },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'react-refresh/only-export-components': ['warn', { allowExportNames: ['buttonVariants'] }],
    },
  },
  // ---- Server boundaries (issue 13: one owner per table, one place per rule) ----
  // Kept in a block of its own so the web app's boundary rules merge beside it.
  // The drizzle schema (the tables) is imported only where queries are written: repositories,
  // db/ itself, tests and test helpers. Services hold rules and know nothing of HTTP: no Fastify.
  // (A later block's rule replaces an earlier one's for the same files, so services, which both
  // blocks concern, get both restrictions in the second.)
  {
    files: ['apps/server/src/**/*.ts'],
    ignores: [
      'apps/server/src/**/*.repository.ts',
      'apps/server/src/db/**',
      'apps/server/src/**/__tests__/**',
      'apps/server/src/testing/**',
    ],
    rules: { 'no-restricted-imports': ['error', { patterns: [SCHEMA_IMPORTS] }] },
  },
  {
    files: ['apps/server/src/**/*.service.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [SCHEMA_IMPORTS, FASTIFY_IMPORTS] }] },
  },
  {
    // Server module faces: code outside modules/<m>/ enters it only through modules/<m>/index.ts;
    // channels/, platform/ and db/ never import modules/ (tests may reach inside; the rule skips them).
    files: ['apps/server/src/**/*.ts'],
    plugins: { 'titan-server': { rules: { 'module-faces': moduleFaces } } },
    rules: { 'titan-server/module-faces': 'error' },
  },
  {
    // Web boundaries: features never import each other (shared → features → app). The app composes
    // them; shared pieces live in src/components, lib, hooks or config.
    files: ['apps/web/src/features/**/*.{ts,tsx}'],
    plugins: { 'titan-web': { rules: { 'no-cross-feature-imports': noCrossFeatureImports } } },
    rules: { 'titan-web/no-cross-feature-imports': 'error' },
  },
  {
    // Tool config files must default-export by their tools' contracts.
    files: ['**/*.config.{js,ts,mjs}', '**/vite.config.ts', '**/vitest.config.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  prettier,
);
