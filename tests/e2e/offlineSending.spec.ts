import type { BrowserContext, Page } from '@playwright/test';
import { E2E_ADMIN } from '../../playwright.config';
import { openUserMenu, switchLanguage } from './applicationSteps';
import { expect, toast } from './fixtures';
import {
  adminApi,
  chooseAndTest,
  createOffline,
  goOffline,
  goOnline,
  pendingChange,
  signInAsAdmin,
  test,
  waitForServiceWorker,
} from './offlineSteps';

/**
 * How the changes kept on the device reach the server, end to end in Chromium: only in the session of the person who
 * made them, with the browser asked to keep their storage and a warning before logging out; after a session that
 * expired, once signed in again; no faster than once per three seconds while the server is down; through a file
 * when the site's data is cleared; and one whose answer was lost is said to be perhaps applied before it is
 * cancelled. Queueing, editing and cancelling them is in offlineOutbox.spec.ts.
 */

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
  // Hers to decide on: nobody else cancels it here.
  await expect(hers).toContainText('Seule la personne qui l’a faite peut l’annuler');
  await expect(hers.getByRole('button', { name: 'Annuler' })).toHaveCount(0);
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

test('a change whose answer was lost may be applied: cancelling it says so, and it is', async ({
  page,
  context,
  request,
  network,
  serverOrigin,
  unique,
  look,
}) => {
  const api = await adminApi(request, serverOrigin);
  const name = unique('lost');
  await signInAsAdmin(page);
  await waitForServiceWorker(page);
  // The server gets the creation and applies it; its answer never reaches the browser.
  let answered = 0;
  await page.route(`**/api/v1/applications/${name}`, async (route) => {
    if (route.request().method() !== 'POST') return route.fallback();
    await route.fetch();
    answered += 1;
    await route.abort('connectionreset');
  });
  await page.goto('/applicationCreation');
  await chooseAndTest(page, 'fieldnotes-v1.yaml');
  await page.getByLabel('Nom de l’application').fill(name);
  await page.getByRole('button', { name: 'Créer', exact: true }).click();
  await expect(toast(page, 'Enregistré sur cet appareil.').last()).toBeVisible();
  expect(answered).toBeGreaterThan(0);
  // Offline now, so that nothing is sent again while the person looks at it.
  await goOffline(network, context, page);
  await page.unroute(`**/api/v1/applications/${name}`);

  await page.goto('/pendingChanges');
  const lost = pendingChange(page, `Créer l’application ${name} avec fieldnotes-v1.yaml`);
  await expect(lost).toHaveAttribute('data-status', 'queued');
  await lost.getByRole('button', { name: 'Annuler', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Annuler cette modification ?' });
  await expect(dialog.getByTestId('cancel-consequence')).toHaveText(
    'Un envoi de cette modification est resté sans réponse : le serveur l’a peut-être déjà appliquée. L’annuler empêche de l’envoyer de nouveau, mais ne la défait pas sur le serveur ; vérifiez-y avant de la refaire.',
  );
  await look(page, 'offline-cancel-maybe-applied-fr');
  await dialog.getByRole('button', { name: 'La garder' }).click();
  await switchLanguage(page, 'English');
  await pendingChange(page, `Create the application ${name} from`)
    .getByRole('button', { name: 'Cancel', exact: true })
    .click();
  const english = page.getByRole('dialog', { name: 'Cancel this change?' });
  await expect(english.getByTestId('cancel-consequence')).toContainText('the server may have applied it already');
  await look(page, 'offline-cancel-maybe-applied-en');
  await english.getByRole('button', { name: 'Cancel the change' }).click();
  await expect(pendingChange(page, `Create the application ${name} from`)).toHaveCount(0);
  await switchLanguage(page, 'Français');
  // It was applied: the server has the application.
  expect(await api.exists(name)).toBe(true);
});
