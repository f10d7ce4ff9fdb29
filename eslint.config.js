import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const noSrc = { group: ['**/src/*'], message: 'The server never imports from src/.' };
const noServer = { group: ['**/server/*'], message: 'Browser code never imports from server/.' };

/** Islands render and call store actions; only stores talk to the API (STYLE.md, one HTTP gateway). */
const noApiInIslands = {
  regex: '(^|/)lib/api(-[a-z-]+)?(\\.ts)?$',
  message: 'Islands never import src/lib/api*: put the call in a store (src/stores/) and use the store.',
};
/** An island that still calls the API from its component (being reworked for in-process OCR); its calls belong in a store. */
const ISLANDS_ON_API = ['src/islands/dashboard/DeidentificationPanel.tsx'];

/** A module's tables are read and written through its repository; other modules call that. */
const privateTables = [
  {
    regex: '^((\\.\\./)+(modules/)?|\\./modules/)[^./][^/]*/[^/]+\\.table\\.ts$',
    message: "Another module's table: call that module's repository instead.",
  },
];
/** The library is the read model: its one statement lists uploads with their latest QC verdicts. */
const READ_MODELS = ['server/modules/library/library.repository.ts'];
/**
 * Files that still read another module's table, each for a join its repository does not offer yet: the
 * previews module reads uploads (its rows are being moved behind the uploads repository by the ingest work),
 * and the listed repositories join users or uploads for names and verdicts.
 */
const TABLE_EXCEPTIONS = [
  'server/modules/previews/previews.routes.ts',
  'server/modules/previews/thumbnail-store.ts',
  'server/modules/qc/qc-cohort.ts',
  'server/modules/metrics/metrics.repository.ts',
  'server/modules/workspaces/workspaces.repository.ts',
  'server/modules/workspaces/session-membership.ts',
  'server/modules/workspaces/invites.repository.ts',
  'server/modules/audit/audit.repository.ts',
  'server/modules/reviews/reviews.repository.ts',
  'server/modules/reviews/review-settings.repository.ts',
  'server/modules/comments/comments.repository.ts',
];

/** imaging/ is pure (DESIGN.md §3): bytes in, bytes or numbers out; no pool, process, network or storage. */
const impureModules = [
  'node:child_process',
  'child_process',
  'node:worker_threads',
  'piscina',
  'node:http',
  'node:https',
  'node:net',
].map((name) => ({
  name,
  message: 'imaging/ is pure: the pool, processes and the network belong to server/workers/ or a module.',
}));
/** A relative import that climbs out of server/imaging/ from a file `depth` folders below server/, to anywhere but contract/. */
const leavesImaging = (depth) => ({
  regex: `^(\\.\\./){${depth}}(?!\\.\\./contract/)`,
  message: 'imaging/ imports only imaging/, contract/ and npm packages.',
});

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'dist-*/',
      '.astro/',
      'node_modules/',
      'data/',
      'test-results/',
      'playwright-report/',
      'server/db/migrations/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  { files: ['**/*.{js,mjs}'], languageOptions: { globals: globals.node } },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noServer] }] },
  },
  {
    files: ['src/islands/**/*.{ts,tsx}'],
    ignores: ISLANDS_ON_API,
    rules: { 'no-restricted-imports': ['error', { patterns: [noServer, noApiInIslands] }] },
  },
  {
    // zod straight from the package runs its eval probe in the browser, which the pages' CSP reports.
    files: ['contract/**/*.ts'],
    ignores: ['contract/zod.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'zod', message: "Contract modules import z from './zod.ts' (no eval probe under the CSP)." }],
        },
      ],
    },
  },
  {
    files: ['server/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noSrc, ...privateTables] }] },
  },
  {
    // FK references are schema, not data access: a table may name another module's table.
    files: ['server/**/*.table.ts', 'server/db/schema.ts', ...READ_MODELS, ...TABLE_EXCEPTIONS],
    rules: { 'no-restricted-imports': ['error', { patterns: [noSrc] }] },
  },
  ...[1, 2, 3, 4].map((depth) => ({
    files: [`server/imaging/${'*/'.repeat(depth - 1)}*.ts`],
    // Its OCR child process is being replaced by an in-process library; until then it is the one exception.
    ignores: ['server/imaging/dicom/burned-in-text.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: impureModules, patterns: [noSrc, leavesImaging(depth)] }],
    },
  })),
);
