import path from 'node:path';
import { readFileSync } from 'node:fs';
import type { APIRequestContext, BrowserContext, Page } from '@playwright/test';
import { E2E_ADMIN, E2E_ORIGIN } from '../../playwright.config';
import { csvFixture } from './dataSteps';
import { expect, test as base, toast } from './fixtures';
import { waitForServiceWorker } from './serviceWorker';
import { unpluggableNetwork, type UnpluggableNetwork } from './unpluggableNetwork';

/**
 * What the offline outbox journeys share (offlineOutbox.spec.ts and offlineSending.spec.ts, two files so that the two
 * Playwright workers run them side by side): the cuttable network, the administrator's API session, and the steps
 * of going offline, queueing a change and coming back.
 */

/**
 * The browser reaches the server through a relay the offline journeys cut when they go offline, so that nothing in
 * the browser (a service worker woken by Background Sync included) reaches the server while a test says it cannot.
 */
export const test = base.extend<{ network: UnpluggableNetwork; serverOrigin: string }>({
  serverOrigin: async ({}, use) => use(E2E_ORIGIN),
  network: async ({ serverOrigin }, use) => {
    const network = await unpluggableNetwork(Number(new URL(serverOrigin).port));
    await use(network);
    await network.close();
  },
  baseURL: async ({ network }, use) => use(network.origin),
});

const FIXTURES = path.resolve('tests/fixtures/configurations');
const fixturePath = (name: string) => path.join(FIXTURES, name);

/** The administrator's own API session, outside the browser: it goes to the server directly, never cut. */
export async function adminApi(request: APIRequestContext, serverOrigin: string) {
  const signedIn = await request.post(`${serverOrigin}/api/v1/login`, {
    form: { login: E2E_ADMIN.login, password: E2E_ADMIN.password },
  });
  expect(signedIn.status(), await signedIn.text()).toBe(200);
  return {
    async create(name: string, fileName = 'fieldnotes-v1.yaml') {
      const answer = await request.post(`${serverOrigin}/api/v1/applications/${name}`, {
        multipart: {
          comment: '',
          file: { name: fileName, mimeType: 'application/yaml', buffer: readFileSync(fixturePath(fileName)) },
        },
      });
      const text = await answer.text();
      expect(answer.status(), text).toBe(200);
      expect(text, 'the creation stream ends with a result').toContain('"type":"result"');
    },
    /** A new version of the application's configuration, from another administrator's session. */
    async update(name: string, fileName: string) {
      const answer = await request.post(`${serverOrigin}/api/v1/applications/${name}/configuration`, {
        multipart: {
          comment: '',
          file: { name: fileName, mimeType: 'application/yaml', buffer: readFileSync(fixturePath(fileName)) },
        },
      });
      const text = await answer.text();
      expect(answer.status(), text).toBe(200);
      expect(text, 'the update stream ends with a result').toContain('"type":"result"');
    },
    async versions(name: string): Promise<{ version: string; versions: string[] }> {
      const answer = await request.get(`${serverOrigin}/api/v1/applications/${name}`);
      expect(answer.status(), await answer.text()).toBe(200);
      const body = (await answer.json()) as { version: string; versions: Array<{ version: string }> };
      return { version: body.version, versions: body.versions.map((v) => v.version) };
    },
    /** An application from `fileName` with each reference loaded from `surveys-<reference>.csv`. */
    async createWithSurveys(name: string, fileName: string, references: readonly string[]) {
      await this.create(name, fileName);
      for (const reference of references) await this.loadReference(name, reference, `surveys-${reference}.csv`);
    },
    async loadReference(name: string, reference: string, csv: string) {
      const answer = await request.post(`${serverOrigin}/api/v1/applications/${name}/references/${reference}`, {
        multipart: { file: { name: csv, mimeType: 'text/csv', buffer: readFileSync(csvFixture(csv)) } },
      });
      expect(answer.status(), await answer.text()).toBe(201);
    },
    async deleteReferenceRow(name: string, reference: string, naturalKey: string) {
      const answer = await request.delete(
        `${serverOrigin}/api/v1/applications/${name}/references/${reference}?naturalKey=${encodeURIComponent(naturalKey)}`,
      );
      expect(answer.status(), await answer.text()).toBe(200);
    },
    async exists(name: string) {
      return (await request.get(`${serverOrigin}/api/v1/applications/${name}`)).status() === 200;
    },
  };
}

export async function signInAsAdmin(page: Page) {
  await page.goto('/login');
  await page.getByLabel('Identifiant', { exact: true }).fill(E2E_ADMIN.login);
  await page.getByLabel('Mot de passe', { exact: true }).fill(E2E_ADMIN.password);
  await page.getByRole('button', { name: 'Se connecter' }).last().click();
  await expect(page.getByRole('heading', { name: 'Applications' })).toBeVisible();
}

export { waitForServiceWorker };

export const pendingChange = (page: Page, text: string) => page.getByTestId('pending-change').filter({ hasText: text });

/** On the creation or update form: choose the file, test it (in the worker when offline). */
export async function chooseAndTest(page: Page, fileName: string) {
  await page.getByLabel('Fichier de configuration').setInputFiles(fixturePath(fileName));
  await page.getByRole('button', { name: 'Tester', exact: true }).click();
  await expect(toast(page, 'La configuration est valide.')).toBeVisible();
}

/** Creates an application from the form while offline: tested in the worker, kept in the outbox. */
export async function createOffline(page: Page, name: string) {
  await page.goto('/applicationCreation');
  await chooseAndTest(page, 'fieldnotes-v1.yaml');
  await page.getByLabel('Nom de l’application').fill(name);
  await page.getByRole('button', { name: 'Créer', exact: true }).click();
}

export async function goOffline(network: UnpluggableNetwork, context: BrowserContext, page: Page) {
  network.unplug();
  await context.setOffline(true);
  await expect.poll(() => page.evaluate(() => navigator.onLine)).toBe(false);
}

export async function goOnline(network: UnpluggableNetwork, context: BrowserContext) {
  network.plugIn();
  await context.setOffline(false);
}

/** A fieldnotes application with its sites and species, signed in as the administrator and kept on the device. */
export async function fieldnotesKeptOffline(page: Page, api: Awaited<ReturnType<typeof adminApi>>, name: string) {
  await api.create(name);
  await api.loadReference(name, 'sites', 'fieldnotes-sites.csv');
  await api.loadReference(name, 'species', 'fieldnotes-species.csv');
  await signInAsAdmin(page);
  await waitForServiceWorker(page);
  await page.goto(`/applications/${name}`);
  await page.getByRole('button', { name: 'Rendre disponible hors ligne' }).click();
  await expect(toast(page, 'L’application est disponible hors ligne sur cet appareil.')).toBeVisible();
}

/** Counts of a fieldnotes application checked on the device (`verdict`) and kept to be sent; answers the dialog. */
export async function queueCounts(page: Page, name: string, csv: string, verdict: string) {
  await page.goto(`/applications/${name}/dataTypes`);
  await page.getByRole('button', { name: 'Charger un fichier CSV dans Comptages', exact: true }).click();
  const dialog = page.getByTestId('csv-upload');
  await dialog
    .getByLabel('Fichier CSV')
    .setInputFiles({ name: 'counts.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await dialog.getByRole('button', { name: 'Vérifier', exact: true }).click();
  await expect(dialog.getByText(verdict)).toBeVisible();
  await dialog.getByRole('button', { name: 'Envoyer', exact: true }).click();
  await expect(toast(page, 'Enregistré sur cet appareil.').last()).toBeVisible();
  return dialog;
}
