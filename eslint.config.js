// ESLint: the TypeScript rules everywhere, the React hooks rules in the web app. Formatting is
// Prettier's job (.prettierrc.json), not ESLint's. Every eslint-disable says why after `--`.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const SCHEMA_BY_PATH = {
  regex: '^\\.{1,2}/(.*/)?schema/',
  message: 'Import schema as the package: @intranet/schema/events, @intranet/schema/calendar/tokyo, …',
};
const GRAPH_BY_PATH = {
  regex: '^\\.{1,2}/(.*/)?graph/',
  message:
    'Import graph as the package, through the entry points it exports: @intranet/graph, @intranet/graph/app, /events, /areas, /testing, /fixtures.',
};

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'web/src/gql/**',
      '.tools/**',
      '.kafka/**',
      '.data/**',
      '.exp/**',
      'e2e/artifacts/**',
      'bench/results/**',
      '.*.mjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Unused names are also the compiler's job (noUnusedLocals); `_`-prefixed ones are deliberate.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // A record kind's class (entity or GraphQL type) merges with the interface its field
    // description derives, so each field is written once (docs/architecture.md).
    files: ['graph/src/modules/**/*.entity.ts', 'graph/src/modules/**/*.types.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-declaration-merging': 'off',
      '@typescript-eslint/no-empty-object-type': 'off',
    },
  },
  {
    // These match control characters on purpose: they are what the sanitizers and escapers remove.
    files: ['graph/src/lib/files/**', 'graph/src/modules/google/ics.render*.ts'],
    rules: { 'no-control-regex': 'off' },
  },
  {
    // The workspaces are packages: graph is reached from outside only through the entry points its
    // package.json exports (@intranet/graph, /app, /events, /areas, /testing, /fixtures), schema only
    // as @intranet/schema/…, never by a path into their folders.
    files: ['**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [SCHEMA_BY_PATH] }],
    },
  },
  {
    files: [
      'bin/**/*.ts',
      'workers/**/*.ts',
      'scripts/**/*.ts',
      'bench/**/*.ts',
      'e2e/**/*.ts',
      'schema/**/*.ts',
      'web/**/*.{ts,tsx}',
    ],
    rules: {
      'no-restricted-imports': ['error', { patterns: [SCHEMA_BY_PATH, GRAPH_BY_PATH] }],
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    // The classic hooks rules. The React Compiler's rules (refs, set-state-in-effect, immutability)
    // stay off: the app does not use the compiler and relies on the latest-ref pattern they reject.
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
);
