import { defineConfig } from '@lingui/cli';

// Two catalogs: the interface's own texts, and the messages of error codes produced by src/domain and the
// server. Keeping them apart lets the error catalogue grow with the engines without touching screen texts.
export default defineConfig({
  sourceLocale: 'en',
  locales: ['fr', 'en'],
  fallbackLocales: { default: 'en' },
  catalogs: [
    {
      path: '<rootDir>/locales/{locale}/messages',
      include: ['<rootDir>/src'],
      exclude: ['**/node_modules/**', '<rootDir>/src/lib/messages/**', '<rootDir>/src/domain/**'],
    },
    {
      path: '<rootDir>/locales/{locale}/errors',
      include: ['<rootDir>/src/lib/messages'],
    },
  ],
  orderBy: 'messageId',
});
