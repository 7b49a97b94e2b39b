import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import globals from 'globals';
import { architectureZones } from './scripts/architecture.mjs';

// Tests, and the helpers beside them (`.testing.ts`, `.testWorker.ts`).
const tests = ['**/*.test*.{ts,tsx}', 'tests/**'];

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'data/',
      'test-results/',
      'playwright-report/',
      'bench-results/',
      'scratch/',
      'locales/',
      'src/routeTree.gen.ts',
    ],
  },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'import-x': importX },
    settings: {
      // import-x reads only .js files unless told, and would then see no cycle through TypeScript modules.
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: 'tsconfig.json' })],
    },
    rules: {
      // `const { dropped: _dropped, ...kept } = value` leaves a property out: the project's idiom, not dead code.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { varsIgnorePattern: '^_', argsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // French texts put no-break spaces before : ; ? ! (docs/decisions.md, "French spaces that never break"), in
      // template literals too; outside strings they are still refused.
      'no-irregular-whitespace': ['error', { skipStrings: true, skipTemplates: true }],
      'import-x/no-self-import': 'error',
      // Shipped code (src, server) imports only `dependencies`; tests, scripts and build configs may use the rest.
      'import-x/no-extraneous-dependencies': [
        'error',
        { devDependencies: [...tests, 'scripts/**', '*.config.{js,ts}'] },
      ],
      'import-x/no-restricted-paths': ['error', { zones: architectureZones() }],
    },
  },
  {
    // Cycles are looked for in shipped code: nothing imports a test, and following tests' imports too doubles the time.
    files: ['src/**', 'server/**'],
    ignores: tests,
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    // Tests read JSON answers and poke at internals: typing every body would say nothing the assertions do not.
    files: tests,
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Playwright fixtures destructure the fixtures they need: `{}` when they need none.
    files: ['tests/e2e/**'],
    rules: { 'no-empty-pattern': 'off' },
  },
  {
    // src/domain runs unchanged in the browser, in web workers and in Node worker threads: no platform API.
    files: ['src/domain/**/*.ts'],
    ignores: tests,
    rules: {
      'no-restricted-imports': ['error', { patterns: [domainPackages([])] }],
      'no-restricted-globals': ['error', ...platformGlobals()],
    },
  },
  {
    files: ['src/domain/configuration/**/*.ts'],
    ignores: tests,
    rules: { 'no-restricted-imports': ['error', { patterns: [domainPackages(['yaml', 'fflate'])] }] },
  },
);

/** A no-restricted-imports pattern refusing every package in src/domain but the ones the map allows there. */
function domainPackages(allowed) {
  const exceptions = ['@/domain/', '\\.', ...allowed.map((name) => `${name}(/|$)`)];
  return {
    regex: `^(?!${exceptions.join('|')})`,
    message: `src/domain imports nothing but itself${allowed.length ? ` and ${allowed.join(', ')}` : ''} (docs/decisions.md, "Checked architecture").`,
  };
}

function platformGlobals() {
  const names = [
    'window',
    'document',
    'navigator',
    'location',
    'localStorage',
    'sessionStorage',
    'indexedDB',
    'self',
    'fetch',
  ];
  const node = ['process', 'Buffer', 'global', 'require', '__dirname', '__filename'];
  return [...names, ...node].map((name) => ({
    name,
    message: 'src/domain uses no browser or Node API: pass what it needs in.',
  }));
}
