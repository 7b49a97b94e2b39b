import path from 'node:path';
import { readFileSync } from 'node:fs';
import type { APIRequestContext, BrowserContext, Page } from '@playwright/test';
import { E2E_ADMIN, E2E_ORIGIN } from '../../playwright.config';
import { dismissToasts, openUserMenu, switchLanguage } from './applicationSteps';
import { csvFixture, csvLines, download } from './dataSteps';
import { expect, test as base, toast } from './fixtures';
import { unpluggableNetwork, type UnpluggableNetwork } from './unpluggableNetwork';

/**
 * The offline-first promise, end to end in Chromium: read the cached list and home offline, change an application
 * offline, close the page, reopen it (the change is still pending), get the network back and see the change
 * applied once; then changes the server refuses end in "needs attention" with the translated error, and edit and
 * discard deal with them.
 */

/**
 * The browser reaches the server through a relay this file's tests cut when they go offline, so that nothing in the
 * browser (a service worker woken by Background Sync included) reaches the server while a test says it cannot.
 */
const test = base.extend<{ network: UnpluggableNetwork; serverOrigin: string }>({
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
async function adminApi(request: APIRequestContext, serverOrigin: string) {
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
    async versions(name: string): Promise<{ version: string; versions: string[] }> {
      const answer = await request.get(`${serverOrigin}/api/v1/applications/${name}`);
      expect(answer.status(), await answer.text()).toBe(200);
      const body = (await answer.json()) as { version: string; versions: Array<{ version: string }> };
      return { version: body.version, versions: body.versions.map((v) => v.version) };
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

async function signInAsAdmin(page: Page) {
  await page.goto('/login');
  await page.getByLabel('Identifiant', { exact: true }).fill(E2E_ADMIN.login);
  await page.getByLabel('Mot de passe', { exact: true }).fill(E2E_ADMIN.password);
  await page.getByRole('button', { name: 'Se connecter' }).last().click();
  await expect(page.getByRole('heading', { name: 'Applications' })).toBeVisible();
}

/** The service worker controls the page, so the app shell opens without network. */
async function waitForServiceWorker(page: Page) {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
}

const pendingChange = (page: Page, text: string) => page.getByTestId('pending-change').filter({ hasText: text });

/** On the creation or update form: choose the file, test it (in the worker when offline). */
async function chooseAndTest(page: Page, fileName: string) {
  await page.getByLabel('Fichier de configuration').setInputFiles(fixturePath(fileName));
  await page.getByRole('button', { name: 'Tester', exact: true }).click();
  await expect(toast(page, 'La configuration est valide.')).toBeVisible();
}

/** Creates an application from the form while offline: tested in the worker, kept in the outbox. */
async function createOffline(page: Page, name: string) {
  await page.goto('/applicationCreation');
  await chooseAndTest(page, 'fieldnotes-v1.yaml');
  await page.getByLabel('Nom de l’application').fill(name);
  await page.getByRole('button', { name: 'Créer', exact: true }).click();
}

async function goOffline(network: UnpluggableNetwork, context: BrowserContext, page: Page) {
  network.unplug();
  await context.setOffline(true);
  await expect.poll(() => page.evaluate(() => navigator.onLine)).toBe(false);
}

async function goOnline(network: UnpluggableNetwork, context: BrowserContext) {
  network.plugIn();
  await context.setOffline(false);
}

test('offline: read the cached list and home, change an application, reopen the page, and see it applied once back online', async ({
  page,
  context,
  request,
  network,
  serverOrigin,
  unique,
  look,
}) => {
  // A long journey (worker test, closed tab, sync): on a busy machine it needs more than the default minute.
  test.setTimeout(180_000);
  const api = await adminApi(request, serverOrigin);
  const name = unique('offl');
  await api.create(name);

  await signInAsAdmin(page);
  await waitForServiceWorker(page);
  // Online once: the list and the home are kept on the device.
  await page.goto('/applications');
  await expect(page.locator(`[data-testid="application-card"][data-name="${name}"]`)).toBeVisible();
  await page.goto(`/applications/${name}`);
  await expect(page.getByTestId('application-facts')).toContainText('1.0.0');
  await expect(page.getByTestId('offline-notice')).toHaveCount(0);

  await goOffline(network, context, page);
  await page.goto('/applications');
  await expect(page.getByTestId('offline-notice')).toBeVisible();
  await expect(page.getByTestId('offline-notice')).toContainText('Hors ligne — données du');
  await expect(page.getByTestId('offline-badge')).toBeVisible();
  const card = page.locator(`[data-testid="application-card"][data-name="${name}"]`);
  await expect(card).toBeVisible();
  await look(page, 'offline-outbox-list');
  await card.getByRole('link', { name: /^Ouvrir / }).click();
  await expect(page).toHaveURL(new RegExp(`/applications/${name}$`));
  await expect(page.getByTestId('offline-notice')).toBeVisible();
  await expect(page.getByTestId('application-facts')).toContainText('1.0.0');
  await look(page, 'offline-outbox-home');

  // The update, offline: tested in the worker on the device, queued by Change.
  await page.getByRole('link', { name: 'Modifier l’application' }).click();
  await expect(page).toHaveURL(new RegExp(`/applicationCreation/${name}/1\\.0\\.0`));
  await chooseAndTest(page, 'fieldnotes-v2.yaml');
  await expect(page.getByText('Vérifié sur cet appareil seulement', { exact: false })).toBeVisible();
  await expect(page.getByTestId('version-tag')).toHaveText('1.0.0 → 1.1.0');
  await look(page, 'offline-outbox-update-form');
  await page.getByRole('button', { name: 'Modifier', exact: true }).click();
  await expect(toast(page, 'Enregistré sur cet appareil.')).toBeVisible();
  await expect(page).toHaveURL(/\/applications$/);

  const badge = page.getByTestId('pending-badge');
  await expect(badge).toHaveText('1');
  await expect(badge).toHaveAccessibleName('1 modifications en attente');
  await badge.click();
  await expect(page).toHaveURL(/\/pendingChanges$/);
  const update = pendingChange(page, `Modifier l’application ${name} (version 1.0.0) avec fieldnotes-v2.yaml`);
  await expect(update).toHaveAttribute('data-status', 'queued');
  await expect(update).toContainText('En attente d’envoi');
  await look(page, 'offline-outbox-pending');

  // The tab is closed and opened again, still offline: the change is still there.
  const reopened = await context.newPage();
  await page.close();
  // The new page is emulated offline too; the relay stays cut, so a service worker woken here cannot send either.
  await goOffline(network, context, reopened);
  await reopened.goto('/pendingChanges');
  const again = pendingChange(reopened, `Modifier l’application ${name} (version 1.0.0) avec fieldnotes-v2.yaml`);
  await expect(again).toHaveAttribute('data-status', 'queued');
  await expect(reopened.getByTestId('pending-badge')).toHaveText('1');
  expect((await api.versions(name)).versions).toEqual(['1.0.0']);

  // The network comes back: the triggers (the online event, Background Sync) send the change, once.
  await goOnline(network, context);
  await expect(again).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
  await expect(again).toContainText('Appliquée');
  await expect(reopened.getByTestId('pending-badge')).toHaveCount(0);
  // The outbox reached the server: the indicator no longer says offline.
  await expect(reopened.getByTestId('offline-badge')).toHaveCount(0);
  const stored = await api.versions(name);
  expect(stored.version).toBe('1.1.0');
  expect(stored.versions).toEqual(['1.1.0', '1.0.0']);
  // Syncing again (and reloading, which triggers a pass) sends nothing more.
  await reopened.getByRole('button', { name: 'Synchroniser maintenant' }).click();
  await reopened.reload();
  await expect(again).toHaveAttribute('data-status', 'done');
  expect((await api.versions(name)).versions).toEqual(['1.1.0', '1.0.0']);
  await look(reopened, 'offline-outbox-applied');
});

test('offline: creations the server refuses need attention with the translated error; edit and discard deal with them', async ({
  page,
  context,
  request,
  network,
  serverOrigin,
  unique,
  look,
}) => {
  const api = await adminApi(request, serverOrigin);
  const taken = unique('takena');
  const discarded = unique('takenb');
  const renamed = unique('renamed');

  await signInAsAdmin(page);
  await waitForServiceWorker(page);
  await goOffline(network, context, page);

  // Two creations queued offline, under names that will be taken on the server meanwhile.
  for (const name of [taken, discarded]) {
    await page.goto('/applicationCreation');
    await chooseAndTest(page, 'fieldnotes-v1.yaml');
    await page.getByLabel('Nom de l’application').fill(name);
    await page.getByRole('button', { name: 'Créer', exact: true }).click();
    await expect(toast(page, 'Enregistré sur cet appareil.').last()).toBeVisible();
    await expect(page).toHaveURL(/\/applications$/);
  }
  await expect(page.getByTestId('pending-badge')).toHaveText('2');
  await api.create(taken);
  await api.create(discarded);

  await page.goto('/pendingChanges');
  await goOnline(network, context);
  const refused = pendingChange(page, `Créer l’application ${taken} avec fieldnotes-v1.yaml`);
  const toDiscard = pendingChange(page, `Créer l’application ${discarded} avec fieldnotes-v1.yaml`);
  await expect(refused).toHaveAttribute('data-status', 'needs-attention', { timeout: 30_000 });
  await expect(toDiscard).toHaveAttribute('data-status', 'needs-attention');
  await expect(refused.getByRole('alert')).toHaveText(`Une application nommée ${taken} existe déjà.`);
  await expect(toDiscard.getByRole('alert')).toHaveText(`Une application nommée ${discarded} existe déjà.`);
  await expect(refused).toContainText('Demande votre attention');
  // Refusals stay counted until the user deals with them.
  await expect(page.getByTestId('pending-badge')).toHaveText('2');
  // A refusal is an answer: the server is reachable again.
  await expect(page.getByTestId('offline-badge')).toHaveCount(0);
  await look(page, 'offline-outbox-needs-attention');

  // Edit: the form opens again with what was entered; under another name, the creation goes through.
  await refused.getByRole('button', { name: 'Modifier', exact: true }).click();
  await expect(page).toHaveURL(/\/applicationCreation\?outboxItem=\d+$/);
  await expect(page.getByText('Conservé de la modification en attente : fieldnotes-v1.yaml')).toBeVisible();
  await page.getByRole('button', { name: 'Tester', exact: true }).click();
  await expect(toast(page, 'La configuration est valide.')).toBeVisible();
  const nameField = page.getByLabel('Nom de l’application');
  await expect(nameField).toHaveValue(taken);
  await look(page, 'offline-outbox-edit');
  await nameField.fill(renamed);
  await page.getByRole('button', { name: 'Créer', exact: true }).click();
  await expect(toast(page, `L’application ${renamed} a été créée.`)).toBeVisible();
  await expect(page).toHaveURL(/\/applications$/);
  expect(await api.exists(renamed)).toBe(true);
  expect((await api.versions(renamed)).versions).toEqual(['1.0.0']);

  await page.goto('/pendingChanges');
  await expect(pendingChange(page, `Créer l’application ${taken} avec`)).toHaveCount(0);
  await expect(pendingChange(page, `Créer l’application ${renamed} avec fieldnotes-v1.yaml`)).toHaveAttribute(
    'data-status',
    'done',
  );
  await expect(page.getByTestId('pending-badge')).toHaveText('1');

  // Discard, after confirmation; "keep it" keeps it.
  await toDiscard.getByRole('button', { name: 'Abandonner', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Abandonner cette modification ?' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(`Créer l’application ${discarded} avec fieldnotes-v1.yaml`);
  await look(page, 'offline-outbox-discard');
  await dialog.getByRole('button', { name: 'La garder' }).click();
  await expect(dialog).toBeHidden();
  await expect(toDiscard).toHaveAttribute('data-status', 'needs-attention');
  await toDiscard.getByRole('button', { name: 'Abandonner', exact: true }).click();
  await dialog.getByRole('button', { name: 'Abandonner', exact: true }).click();
  await expect(toDiscard).toHaveCount(0);
  await expect(page.getByTestId('pending-badge')).toHaveCount(0);
  // The application created meanwhile on the server is untouched.
  expect((await api.versions(discarded)).versions).toEqual(['1.0.0']);
  expect((await api.versions(taken)).versions).toEqual(['1.0.0']);
});

test('offline: a change still waiting can be cancelled, after confirmation, and the server never gets it', async ({
  page,
  context,
  request,
  network,
  serverOrigin,
  unique,
  look,
}) => {
  const api = await adminApi(request, serverOrigin);
  const kept = unique('kept');
  const cancelled = unique('cancel');

  await signInAsAdmin(page);
  await waitForServiceWorker(page);
  await goOffline(network, context, page);
  for (const name of [kept, cancelled]) {
    await createOffline(page, name);
    await expect(toast(page, 'Enregistré sur cet appareil.').last()).toBeVisible();
    await expect(page).toHaveURL(/\/applications$/);
  }
  await page.goto('/pendingChanges');
  const keptChange = pendingChange(page, `Créer l’application ${kept} avec fieldnotes-v1.yaml`);
  const toCancel = pendingChange(page, `Créer l’application ${cancelled} avec fieldnotes-v1.yaml`);
  await expect(toCancel).toHaveAttribute('data-status', 'queued');

  // "Keep it" keeps it; the dialog names the change.
  await toCancel.getByRole('button', { name: 'Annuler', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Annuler cette modification ?' });
  await expect(dialog).toContainText(`Créer l’application ${cancelled} avec fieldnotes-v1.yaml`);
  await look(page, 'offline-outbox-cancel-fr');
  await dialog.getByRole('button', { name: 'La garder' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('pending-badge')).toHaveText('2');

  await switchLanguage(page, 'English');
  await pendingChange(page, `Create the application ${cancelled} from`)
    .getByRole('button', { name: 'Cancel', exact: true })
    .click();
  const english = page.getByRole('dialog', { name: 'Cancel this change?' });
  await expect(english).toContainText(`Create the application ${cancelled} from fieldnotes-v1.yaml`);
  await look(page, 'offline-outbox-cancel-en');
  await english.getByRole('button', { name: 'Cancel the change' }).click();
  await expect(page.getByTestId('pending-badge')).toHaveText('1');
  await switchLanguage(page, 'Français');
  await expect(keptChange).toHaveAttribute('data-status', 'queued');
  await expect(toCancel).toHaveCount(0);

  // Back online, the change left waiting goes; the cancelled one never reaches the server.
  await goOnline(network, context);
  await expect(keptChange).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
  expect(await api.exists(kept)).toBe(true);
  expect(await api.exists(cancelled)).toBe(false);
});

test('offline: a file the server refuses shows its line errors in the pending change, they download, and a corrected file replaces it', async ({
  page,
  context,
  request,
  network,
  serverOrigin,
  unique,
  look,
}) => {
  test.setTimeout(180_000);
  const api = await adminApi(request, serverOrigin);
  const name = unique('refusedcsv');
  await api.create(name);
  await api.loadReference(name, 'sites', 'fieldnotes-sites.csv');
  await api.loadReference(name, 'species', 'fieldnotes-species.csv');

  await signInAsAdmin(page);
  await waitForServiceWorker(page);
  await page.goto(`/applications/${name}`);
  await page.getByRole('button', { name: 'Rendre disponible hors ligne' }).click();
  await expect(toast(page, 'L’application est disponible hors ligne sur cet appareil.')).toBeVisible();

  // Offline, counts checked against the sites kept on the device, and queued.
  await goOffline(network, context, page);
  await page.goto(`/applications/${name}/dataTypes`);
  await page.getByRole('button', { name: 'Charger un fichier CSV dans Comptages', exact: true }).click();
  const dialog = page.getByTestId('csv-upload');
  await dialog.getByLabel('Fichier CSV').setInputFiles({
    name: 'counts.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(
      'site;species;day;individuals\nlac_blanc;Tichodroma muraria;02/06/2024;3\nmont_joly;Lagopus muta;03/06/2024;2\n',
    ),
  });
  await dialog.getByRole('button', { name: 'Vérifier', exact: true }).click();
  await expect(dialog.getByText('2 lignes vérifiées : le fichier est valide.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Envoyer', exact: true }).click();
  await expect(toast(page, 'Enregistré sur cet appareil.').last()).toBeVisible();

  // Meanwhile the site of line 3 leaves the server: the file is refused there, for that line.
  await api.deleteReferenceRow(name, 'sites', 'mont_joly');
  await page.goto('/pendingChanges');
  await goOnline(network, context);
  const refused = pendingChange(page, `Charger counts.csv dans le type de données counts de ${name}`);
  await expect(refused).toHaveAttribute('data-status', 'needs-attention', { timeout: 30_000 });
  await expect(refused.getByRole('alert')).toHaveText('Le fichier contient 1 erreur ; rien n’a été enregistré.');
  const report = refused.getByTestId('csv-report');
  await expect(report.getByRole('heading', { name: '1 erreur dans counts.csv' })).toBeVisible();
  const lineError = report.locator('[data-code="invalidReferenceWithComponent"]');
  await expect(lineError).toHaveCount(1);
  await expect(lineError.getByRole('cell').first()).toHaveText('3');
  await expect(lineError).toContainText('mont_joly');
  const { fileName, bytes } = await download(page, () =>
    report.getByRole('button', { name: 'Télécharger le rapport' }).click(),
  );
  expect(fileName).toBe('counts-errors.csv');
  expect(csvLines(bytes, ';').map((cells) => cells[0])).toEqual(['ligne', '3']);
  await dismissToasts(page);
  await look(page, 'offline-outbox-refused-csv-fr');

  await switchLanguage(page, 'English');
  const refusedEn = pendingChange(page, `Load counts.csv into the data type counts of ${name}`);
  await expect(
    refusedEn.getByTestId('csv-report').getByRole('heading', { name: '1 error in counts.csv' }),
  ).toBeVisible();
  await look(page, 'offline-outbox-refused-csv-en');
  await switchLanguage(page, 'Français');

  // Edit: the upload dialog of the data type opens; a corrected file replaces the refused one and is applied.
  await refused.getByRole('button', { name: 'Modifier', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/applications/${name}/dataTypes\\?outboxItem=\\d+$`));
  await expect(dialog.getByTestId('csv-upload-replaces')).toHaveText(
    'Le serveur a refusé counts.csv : le fichier envoyé maintenant le remplace dans les modifications en attente.',
  );
  await dialog.getByLabel('Fichier CSV').setInputFiles({
    name: 'counts-fixed.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('site;species;day;individuals\nlac_blanc;Tichodroma muraria;02/06/2024;3\n'),
  });
  await dialog.getByRole('button', { name: 'Vérifier', exact: true }).click();
  await expect(dialog.getByText('1 ligne vérifiée : le fichier est valide.')).toBeVisible();
  await look(page, 'offline-outbox-edit-csv-fr');
  await dialog.getByRole('button', { name: 'Envoyer', exact: true }).click();
  await expect(dialog).toBeHidden();
  await page.goto('/pendingChanges');
  await expect(refused).toHaveCount(0);
  await expect(
    pendingChange(page, `Charger counts-fixed.csv dans le type de données counts de ${name}`),
  ).toHaveAttribute('data-status', 'done');
});

test('on a shared tablet, a change someone else made waits for them, and the pending changes say who made it', async ({
  page,
  unique,
  look,
}) => {
  const name = unique('hers');
  await signInAsAdmin(page);
  // Ana queued a creation on this tablet, then signed out: her change is still in the browser database.
  await page.evaluate(
    (item) =>
      new Promise<void>((resolve, reject) => {
        const opening = indexedDB.open('terrain');
        opening.onerror = () => reject(opening.error);
        opening.onsuccess = () => {
          const writing = opening.result.transaction('outbox', 'readwrite');
          writing.objectStore('outbox').add(item);
          writing.oncomplete = () => (opening.result.close(), resolve());
          writing.onerror = () => reject(writing.error);
        };
      }),
    {
      idempotencyKey: crypto.randomUUID(),
      kind: 'application.create',
      summary: { name, fileName: 'fieldnotes-v1.yaml' },
      resource: `application:${name}`,
      request: { method: 'POST', path: `/applications/${name}`, headers: {}, body: { type: 'json', value: {} } },
      streamed: true,
      createdAt: Date.now(),
      attempts: 0,
      nextAttemptAt: 0,
      status: 'queued',
      size: 1200,
      owner: 'ana.field',
    },
  );
  await page.goto('/pendingChanges');
  const hers = pendingChange(page, `Créer l’application ${name} avec fieldnotes-v1.yaml`);
  await expect(hers).toContainText('Fait par ana.field : envoyé dès que ana.field se reconnecte sur cet appareil.');
  await page.getByRole('button', { name: 'Synchroniser maintenant' }).click();
  await expect(page.getByRole('button', { name: 'Synchroniser maintenant' })).toBeEnabled();
  // Never sent in the administrator's session.
  await expect(hers).toHaveAttribute('data-status', 'queued');
  await expect(hers).toContainText('0 tentative');
  await look(page, 'offline-outbox-other-owner-fr');
  await switchLanguage(page, 'English');
  await expect(pendingChange(page, name)).toContainText(
    'Made by ana.field: it is sent once ana.field signs in again on this device.',
  );
  await look(page, 'offline-outbox-other-owner-en');
  await switchLanguage(page, 'Français');
});

test('a change kept on the device asks the browser to keep its storage, and logging out while it waits asks first', async ({
  page,
  context,
  request,
  network,
  serverOrigin,
  unique,
  look,
}) => {
  test.setTimeout(120_000);
  const api = await adminApi(request, serverOrigin);
  const name = unique('kept');
  // Every request for persistent storage is counted (the browser answers as it would).
  await page.addInitScript(() => {
    const persist = StorageManager.prototype.persist;
    StorageManager.prototype.persist = function (this: StorageManager) {
      const counted = window as unknown as { persistRequests?: number };
      counted.persistRequests = (counted.persistRequests ?? 0) + 1;
      return persist.call(this);
    };
  });
  const persistRequests = () =>
    page.evaluate(() => (window as unknown as { persistRequests?: number }).persistRequests ?? 0);
  await signInAsAdmin(page);
  await waitForServiceWorker(page);
  expect(await persistRequests()).toBe(0);

  await goOffline(network, context, page);
  await createOffline(page, name);
  await expect(toast(page, 'Enregistré sur cet appareil.').last()).toBeVisible();
  // Kept on the device: the outbox asked for persistent storage at once. This browser does not give it (a site
  // neither installed nor much used), and the pending changes say so.
  await expect.poll(persistRequests).toBe(1);
  await page.goto('/pendingChanges');
  const note = page.getByTestId('storage-note');
  await expect(note).toHaveAttribute('data-persisted', 'false');
  await expect(note).toHaveText(
    'Ce navigateur peut effacer ces modifications si l’appareil manque de place : envoyez-les dès que possible, ou enregistrez-les dans un fichier. Installer Terrain sur cet appareil permet au navigateur de les garder.',
  );
  await look(page, 'offline-outbox-storage-not-kept-fr');
  // Once the browser gives persistent storage (as Chromium does to an installed site), the page says so.
  const cdp = await context.newCDPSession(page);
  const { targetInfo } = await cdp.send('Target.getTargetInfo');
  await cdp.send('Browser.grantPermissions', {
    origin: new URL(page.url()).origin,
    permissions: ['durableStorage'],
    browserContextId: targetInfo.browserContextId,
  });
  await page.reload();
  await expect(note).toHaveAttribute('data-persisted', 'true');
  await expect(note).toHaveText('Ce navigateur garde ces modifications même quand l’appareil manque de place.');
  await look(page, 'offline-outbox-storage-fr');

  // Logging out asks first, and staying keeps everything as it was.
  await openUserMenu(page);
  await page.getByRole('menuitem', { name: 'Se déconnecter' }).click();
  const dialog = page.getByRole('dialog', { name: 'Se déconnecter alors que des modifications attendent ?' });
  await expect(dialog).toContainText('1 modification faite sur cet appareil n’a pas encore atteint le serveur.');
  await look(page, 'offline-outbox-logout-fr');
  await dialog.getByRole('button', { name: 'Rester connecté' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page).toHaveURL(/\/pendingChanges$/);
  await expect(pendingChange(page, name)).toHaveAttribute('data-status', 'queued');

  await switchLanguage(page, 'English');
  await expect(note).toHaveText('This browser keeps these changes even when the device runs short of space.');
  await look(page, 'offline-outbox-storage-en');
  await openUserMenu(page);
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  const englishDialog = page.getByRole('dialog', { name: 'Log out while changes are waiting?' });
  await expect(englishDialog).toContainText('1 change you made on this device has not reached the server yet.');
  await look(page, 'offline-outbox-logout-en');
  await englishDialog.getByRole('button', { name: 'Log out', exact: true }).click();
  await expect(page).toHaveURL(/\/login/);
  await switchLanguage(page, 'Français');

  // The change waited on the device for its maker: signing in again, online, sends it once.
  expect(await api.exists(name)).toBe(false);
  await goOnline(network, context);
  await signInAsAdmin(page);
  await expect.poll(() => api.exists(name), { timeout: 30_000 }).toBe(true);
  await page.goto('/pendingChanges');
  await expect(pendingChange(page, name)).toHaveAttribute('data-status', 'done');
});

test('a session that expired while a change waited leads to a sign-in page listing it, and signing in sends it', async ({
  page,
  context,
  request,
  network,
  serverOrigin,
  unique,
  look,
}) => {
  test.setTimeout(120_000);
  const api = await adminApi(request, serverOrigin);
  const name = unique('expired');

  await signInAsAdmin(page);
  await waitForServiceWorker(page);
  await goOffline(network, context, page);
  await createOffline(page, name);
  await expect(toast(page, 'Enregistré sur cet appareil.')).toBeVisible();

  // The session ends while the tablet is away (an hour without use): back online, the server no longer knows it.
  await context.clearCookies();
  await goOnline(network, context);
  await expect(page).toHaveURL(new RegExp(`/login\\?.*login=${E2E_ADMIN.login}`));
  await expect(page.getByLabel('Identifiant', { exact: true })).toHaveValue(E2E_ADMIN.login);
  const waiting = page.getByTestId('waiting-changes');
  await expect(waiting).toContainText(
    `1 modification faite par ${E2E_ADMIN.login} attend sur cet appareil : elle est envoyée dès que vous vous connectez.`,
  );
  await expect(waiting).toContainText(`Créer l’application ${name} avec fieldnotes-v1.yaml`);
  await look(page, 'offline-outbox-expired-session');
  expect(await api.exists(name)).toBe(false);

  await page.getByLabel('Mot de passe', { exact: true }).fill(E2E_ADMIN.password);
  await page.getByRole('button', { name: 'Se connecter' }).last().click();
  await expect(page.getByRole('heading', { name: 'Applications' })).toBeVisible();
  // Sent at once, not at the end of the backoff the lost session put sends under.
  await expect.poll(() => api.exists(name), { timeout: 5_000 }).toBe(true);
});

test('while the server is down, page and service worker together post a waiting change less than once per three seconds', async ({
  page,
  context,
  request,
  network,
  serverOrigin,
  unique,
}) => {
  test.setTimeout(120_000);
  const api = await adminApi(request, serverOrigin);
  const name = unique('down');
  // Every post of the change, by the page or its service worker (Playwright reports both in Chromium).
  const posts: number[] = [];
  context.on('request', (sent) => {
    if (sent.method() === 'POST' && new URL(sent.url()).pathname === `/api/v1/applications/${name}`)
      posts.push(Date.now());
  });

  await signInAsAdmin(page);
  await waitForServiceWorker(page);
  await goOffline(network, context, page);
  await createOffline(page, name);
  await expect(toast(page, 'Enregistré sur cet appareil.')).toBeVisible();

  // The device has a network again, but the server does not answer: 20 s of it.
  await context.setOffline(false);
  const downSince = Date.now();
  await page.waitForTimeout(20_000);
  const whileDown = posts.filter((at) => at >= downSince).length;
  expect(whileDown, `posts while the server was down: ${whileDown}`).toBeGreaterThan(0);
  expect(whileDown, `posts while the server was down: ${whileDown}`).toBeLessThanOrEqual(6);
  expect(await api.exists(name)).toBe(false);

  // The server answers again: the page hears of it (its reachability probe) and the change goes, once.
  network.plugIn();
  await expect.poll(() => api.exists(name), { timeout: 40_000 }).toBe(true);
  expect((await api.versions(name)).versions).toEqual(['1.0.0']);
});

/** Clears the site's data as the browser's settings do: storage, service worker, cookies (the session too). */
async function clearSiteData(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Storage.clearDataForOrigin', { origin: new URL(page.url()).origin, storageTypes: 'all' });
  await cdp.detach();
}

test('pending changes saved to a file outlive clearing the site data: imported back and sent once; a full device says so', async ({
  page,
  context,
  request,
  network,
  serverOrigin,
  unique,
  look,
}) => {
  test.setTimeout(180_000);
  const api = await adminApi(request, serverOrigin);
  const name = unique('file');
  await page.addInitScript(() => {
    const estimate = StorageManager.prototype.estimate;
    StorageManager.prototype.estimate = async function (this: StorageManager) {
      const real = await estimate.call(this);
      if (!sessionStorage.getItem('e2e-nearly-full')) return real;
      return { ...real, quota: Math.ceil((real.usage ?? 0) / 0.95) };
    };
    for (const method of ['add', 'put'] as const) {
      const write = IDBObjectStore.prototype[method];
      IDBObjectStore.prototype[method] = function (this: IDBObjectStore, ...args: [unknown, IDBValidKey?]) {
        if (sessionStorage.getItem('e2e-full') && this.name === 'outbox')
          throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
        return write.apply(this, args);
      };
    }
  });
  await signInAsAdmin(page);
  await waitForServiceWorker(page);
  await goOffline(network, context, page);
  await createOffline(page, name);
  await expect(toast(page, 'Enregistré sur cet appareil.').last()).toBeVisible();
  await page.goto('/pendingChanges');
  const created = pendingChange(page, `Créer l’application ${name} avec fieldnotes-v1.yaml`);
  await expect(created).toHaveAttribute('data-status', 'queued');
  await look(page, 'pending-file-fr');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Enregistrer dans un fichier' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^terrain-pending-changes-\d{4}-\d{2}-\d{2}\.zip$/);
  const saved = test.info().outputPath('pending-changes.zip');
  await download.saveAs(saved);

  // The device runs short of room: the page warns while changes wait, and a new change is refused at once, whole.
  // Chromium's quota override does not reach a test browser's contexts, so the device's answers are played here:
  // the estimate it gives, and IndexedDB refusing to write as it does when the quota is reached.
  await page.evaluate(() => sessionStorage.setItem('e2e-nearly-full', '1'));
  await page.reload();
  await expect(page.getByTestId('storage-pressure')).toContainText('Cet appareil est presque plein');
  await look(page, 'pending-file-nearly-full-fr');
  await page.goto('/applicationCreation');
  await chooseAndTest(page, 'fieldnotes-v1.yaml');
  await page.getByLabel('Nom de l’application').fill(`${name}b`);
  await page.evaluate(() => sessionStorage.setItem('e2e-full', '1'));
  await page.getByRole('button', { name: 'Créer', exact: true }).click();
  await expect(
    toast(page, 'Cet appareil n’a plus de place pour garder la modification : rien n’a été enregistré.'),
  ).toBeVisible();
  await expect(page.getByLabel('Nom de l’application')).toHaveValue(`${name}b`);
  await page.evaluate(() => sessionStorage.clear());
  await expect(page.getByTestId('pending-badge')).toHaveText('1');

  // The site's data is cleared before the change was sent: the page claims nothing it cannot know.
  await clearSiteData(context, page);
  await goOnline(network, context);
  await signInAsAdmin(page);
  await page.goto('/pendingChanges');
  await expect(page.getByTestId('nothing-waiting')).toContainText('Rien n’attend sur cet appareil.');
  await expect(page.getByTestId('nothing-waiting')).toContainText('Cet appareil garde ses modifications ici depuis le');
  await expect(page.getByText('atteint le serveur')).toHaveCount(0);
  await look(page, 'pending-file-nothing-waiting-fr');
  expect(await api.exists(name)).toBe(false);

  // The file brings it back; it is listed before anything is kept, then sent once.
  const importFile = (label = 'Importer un fichier') => page.getByLabel(label).setInputFiles(saved);
  await importFile();
  const dialog = page.getByRole('dialog', { name: 'Importer ces modifications ?' });
  await expect(dialog.getByTestId('import-list')).toHaveText(
    `Créer l’application ${name} avec fieldnotes-v1.yaml · ${E2E_ADMIN.login}`,
  );
  await look(page, 'pending-file-import-fr');
  await dialog.getByRole('button', { name: 'Importer', exact: true }).click();
  await expect(toast(page, '1 modification importée')).toBeVisible();
  await expect(created).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
  expect((await api.versions(name)).versions).toEqual(['1.0.0']);

  // Imported again elsewhere (the data cleared again): the same key, so the server answers what it did, no second
  // creation, no refusal for an application that exists.
  await clearSiteData(context, page);
  await signInAsAdmin(page);
  await page.goto('/pendingChanges');
  await importFile();
  await dialog.getByRole('button', { name: 'Importer', exact: true }).click();
  await expect(created).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
  expect((await api.versions(name)).versions).toEqual(['1.0.0']);
  // The same file on the device that has it adds nothing.
  await importFile();
  await dialog.getByRole('button', { name: 'Importer', exact: true }).click();
  await expect(toast(page, '0 modification importée')).toBeVisible();
  await expect(toast(page, '0 modification importée')).toContainText('1 était déjà sur cet appareil.');

  await switchLanguage(page, 'English');
  await importFile('Import a file');
  const english = page.getByRole('dialog', { name: 'Import these changes?' });
  await expect(english.getByTestId('import-list')).toHaveText(
    `Create the application ${name} from fieldnotes-v1.yaml · ${E2E_ADMIN.login}`,
  );
  await look(page, 'pending-file-import-en');
  await english.getByRole('button', { name: 'Cancel' }).click();
  await look(page, 'pending-file-en');
  await switchLanguage(page, 'Français');
});
