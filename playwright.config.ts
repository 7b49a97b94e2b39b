import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from './scripts/chromium.mjs';

const port = Number(process.env.E2E_PORT ?? 8181);
// Each port has its own data and artifacts, so two runs on different E2E_PORTs never share a database.
const suffix = process.env.E2E_PORT ? `-${port}` : '';
/** The e2e server's own origin (a test may browse it through a relay: tests/e2e/unpluggableNetwork.ts). */
export const E2E_ORIGIN = `http://localhost:${port}`;
export const E2E_DATA_DIR = path.resolve(`test-results/e2e-data${suffix}`);
/** The e2e server's log (debug level: every answer with its time), read by tests/e2e/failureReporter.ts. */
export const E2E_SERVER_LOG = path.resolve(`test-results/e2e-server${suffix}.log`);
export const E2E_ADMIN = { login: 'e2e-admin', password: 'e2e-admin-password', email: 'e2e-admin@terrain.local' };

/**
 * End-to-end tests drive the built product (server + UI) in Debian's Chromium. Journeys run at the tablet size and
 * look at every screen at the phone size too (see `look` in tests/e2e/fixtures.ts); the phone project runs the
 * journeys whose gestures are the phone's own (signing in, the installed offline shell) and one walk through the
 * screens the tablet journeys reach, as a phone's browser shows them (phoneScreens.spec.ts). Two workers share one
 * server: every test makes its own accounts and applications.
 */
export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: `test-results/e2e-artifacts${suffix}`,
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  // Recording a trace costs about a third of a journey's time, so the first run records none: a failing test runs
  // again with its trace, and fails the run even when that second run passes (a flaky test is a failure here).
  retries: 1,
  failOnFlakyTests: true,
  // Two workers share two cores with the server, and every screen is also looked at on a phone: journeys take longer.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['./tests/e2e/failureReporter.ts']],
  use: {
    baseURL: E2E_ORIGIN,
    serviceWorkers: 'allow',
    locale: 'fr-FR',
    trace: 'on-first-retry',
    launchOptions: { executablePath: findChromium(), args: CHROMIUM_ARGS },
  },
  projects: [
    {
      name: 'tablet',
      // The phone's walk through the screens the tablet journeys reach: a tablet walk would shoot nothing new.
      testIgnore: ['phoneScreens.spec.ts'],
      use: { viewport: { width: 1024, height: 768 }, hasTouch: true },
    },
    {
      name: 'phone',
      testMatch: ['accounts.spec.ts', 'offline.spec.ts', 'phoneScreens.spec.ts'],
      // The labels and the help page are the same screens at any size: the tablet journeys look at them on a phone.
      grepInvert: /platform administrator is labelled|help page shows the help document/,
      use: { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true },
    },
  ],
  webServer: {
    command: `node scripts/e2e-server.mjs`,
    url: `http://localhost:${port}/api/v1/openapi.json`,
    reuseExistingServer: false,
    timeout: 90_000,
    env: {
      PORT: String(port),
      DATA_DIR: E2E_DATA_DIR,
      E2E_SERVER_LOG,
      TERRAIN_ADMIN_LOGIN: E2E_ADMIN.login,
      TERRAIN_ADMIN_PASSWORD: E2E_ADMIN.password,
      TERRAIN_ADMIN_EMAIL: E2E_ADMIN.email,
      LOGIN_RATE_LIMIT_PER_LOGIN: '1000',
      LOGIN_RATE_LIMIT_PER_ADDRESS: '100000',
    },
  },
});
