import { dismissToasts, switchLanguage } from './applicationSteps';
import { csvLines, download } from './dataSteps';
import { expect, toast } from './fixtures';
import {
  adminApi,
  chooseAndTest,
  createOffline,
  fieldnotesKeptOffline,
  goOffline,
  goOnline,
  pendingChange,
  queueCounts,
  signInAsAdmin,
  test,
  waitForServiceWorker,
} from './offlineSteps';

/**
 * The offline-first promise, end to end in Chromium: read the cached list and home offline, change an application
 * offline, close the page, reopen it (the change is still pending), get the network back and see the change
 * applied once; then changes the server refuses end in "needs attention" with the translated error, and edit and
 * discard deal with them; a change still waiting can be cancelled. How changes are sent (whose session, the
 * storage they are kept in, a server down, a file) is in offlineSending.spec.ts.
 */

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
  // Named exactly: the counts' card names the update too, in what it waits for.
  const updating = `Modifier l’application ${name} (version 1.0.0) avec fieldnotes-v2.yaml`;
  const update = page.getByTestId('pending-change').filter({ has: page.getByText(updating, { exact: true }) });
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
  await fieldnotesKeptOffline(page, api, name);

  // Offline, counts checked against the sites kept on the device, and queued.
  await goOffline(network, context, page);
  const dialog = await queueCounts(
    page,
    name,
    'site;species;day;individuals\nlac_blanc;Tichodroma muraria;02/06/2024;3\nmont_joly;Lagopus muta;03/06/2024;2\n',
    '2 lignes vérifiées : le fichier est valide.',
  );

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

test('offline: a file queued after an update of its application waits while that update is refused, and says so', async ({
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
  const name = unique('blocked');
  await fieldnotesKeptOffline(page, api, name);

  // Offline: an update to 1.1.0, then counts, both kept on the device in that order.
  await goOffline(network, context, page);
  await page.goto(`/applicationCreation/${name}/1.0.0`);
  await chooseAndTest(page, 'fieldnotes-v2.yaml');
  await page.getByRole('button', { name: 'Modifier', exact: true }).click();
  await expect(toast(page, 'Enregistré sur cet appareil.').last()).toBeVisible();
  await queueCounts(
    page,
    name,
    'site;species;day;individuals\nlac_blanc;Tichodroma muraria;02/06/2024;3\n',
    '1 ligne vérifiée : le fichier est valide.',
  );

  // Meanwhile another administrator brings the application to 1.1.0: the queued update is refused, and the counts
  // made for it wait, saying for what.
  await api.update(name, 'fieldnotes-v2.yaml');
  await page.goto('/pendingChanges');
  await goOnline(network, context);
  // Named exactly: the counts' card names the update too, in what it waits for.
  const updating = `Modifier l’application ${name} (version 1.0.0) avec fieldnotes-v2.yaml`;
  const update = page.getByTestId('pending-change').filter({ has: page.getByText(updating, { exact: true }) });
  // By its file: the card is read in both languages.
  const counts = pendingChange(page, 'counts.csv');
  await expect(counts).toContainText(`Charger counts.csv dans le type de données counts de ${name}`);
  await expect(update).toHaveAttribute('data-status', 'needs-attention', { timeout: 30_000 });
  await expect(counts.getByTestId('pending-blocked')).toHaveText(
    `Attend une modification refusée faite avant elle : ${updating}. Elle sera envoyée une fois celle-ci renvoyée ou abandonnée.`,
  );
  await expect(counts).toHaveAttribute('data-status', 'queued');
  await dismissToasts(page);
  await look(page, 'offline-outbox-blocked-fr');
  await switchLanguage(page, 'English');
  await expect(counts.getByTestId('pending-blocked')).toContainText('Waits for a refused change made before it');
  await look(page, 'offline-outbox-blocked-en');
  await switchLanguage(page, 'Français');

  // Discarded, the refused update lets the counts go.
  await update.getByRole('button', { name: 'Abandonner', exact: true }).click();
  await page
    .getByRole('dialog', { name: 'Abandonner cette modification ?' })
    .getByRole('button', { name: 'Abandonner', exact: true })
    .click();
  await expect(counts).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
  await expect(counts.getByTestId('pending-blocked')).toHaveCount(0);
});

test('a file refused once its form has left the screen stays in the pending changes, with its errors', async ({
  page,
  request,
  serverOrigin,
  unique,
}) => {
  const api = await adminApi(request, serverOrigin);
  const name = unique('leftform');
  await fieldnotesKeptOffline(page, api, name);
  // Within the application (no page load), so that going back leaves the form without reloading the page.
  await page.locator(`a[href="/applications/${name}/dataTypes"]`).first().click();
  await page.getByRole('button', { name: 'Charger un fichier CSV dans Comptages', exact: true }).click();
  const dialog = page.getByTestId('csv-upload');
  await dialog.getByLabel('Fichier CSV').setInputFiles({
    name: 'counts.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('site;species;day;individuals\nmont_joly;Lagopus muta;03/06/2024;2\n'),
  });
  await dialog.getByRole('button', { name: 'Vérifier', exact: true }).click();
  await expect(dialog.getByText('1 ligne vérifiée : le fichier est valide.')).toBeVisible();
  // Checked on the device against its copy of the sites; the server, which no longer has this one, refuses it. Its
  // answer comes once the person has gone to another page.
  await api.deleteReferenceRow(name, 'sites', 'mont_joly');
  let release!: () => void;
  const left = new Promise<void>((resolve) => (release = resolve));
  await page.route(`**/api/v1/applications/${name}/data/counts`, async (route) => {
    const answer = await route.fetch();
    await left;
    await route.fulfill({ response: answer });
  });
  await dialog.getByRole('button', { name: 'Envoyer', exact: true }).click();
  // While it sends (the dialog cannot be closed then), the person goes back a page, then to the pending changes.
  await expect(dialog.getByText('Envoi…')).toBeVisible();
  const loads: string[] = [];
  page.on('load', () => loads.push(page.url()));
  await page.goBack();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/applications/${name}$`));
  await page.getByTestId('pending-badge').click();
  await expect(page).toHaveURL(/\/pendingChanges$/);
  release();
  const refused = pendingChange(page, `Charger counts.csv dans le type de données counts de ${name}`);
  await expect(refused).toHaveAttribute('data-status', 'needs-attention');
  await expect(refused.getByRole('alert')).toHaveText('Le fichier contient 1 erreur ; rien n’a été enregistré.');
  // Refused at its first send, by the server, with the page never reloaded: the form had left, not the page.
  expect(loads).toEqual([]);
  expect(refused).toContainText('1 tentative');
});

test('a change an earlier version of Terrain queued, which the server no longer accepts, is to be redone, not retried', async ({
  page,
  unique,
  look,
}) => {
  const name = unique('earlier');
  await signInAsAdmin(page);
  await page.goto('/pendingChanges');
  // Two changes kept by a version that recorded no build, sent to addresses this server no longer serves (404): an
  // authorization, whose form can reopen, and a publication, which cannot.
  await page.evaluate(async (application) => {
    const change = (kind: string, summary: Record<string, string>, path: string, value: unknown) => ({
      idempotencyKey: crypto.randomUUID(),
      kind,
      summary,
      resource: `${kind}:${application}`,
      request: { method: 'POST', path, headers: { 'Accept-Language': 'fr' }, body: { type: 'json', value } },
      streamed: false,
      createdAt: Date.now(),
      attempts: 0,
      nextAttemptAt: 0,
      status: 'queued',
      size: 20,
    });
    const db = await new Promise<IDBDatabase>((opened, failed) => {
      const request = indexedDB.open('terrain');
      request.onsuccess = () => opened(request.result);
      request.onerror = () => failed(request.error);
    });
    const transaction = db.transaction('outbox', 'readwrite');
    const outbox = transaction.objectStore('outbox');
    outbox.add(
      change(
        'authorization.save',
        { name: application, authorization: 'Lecture' },
        `/applications/${application}/rights`,
        {
          name: 'Lecture',
        },
      ),
    );
    outbox.add(
      change(
        'deposit.publish',
        { name: application, dataType: 'counts', file: 'counts.csv', action: 'publish' },
        `/applications/${application}/publish`,
        { fileid: 'f1' },
      ),
    );
    await new Promise((done) => (transaction.oncomplete = done));
    db.close();
  }, name);
  await page.reload();

  const authorization = pendingChange(page, `Enregistrer l’autorisation Lecture de ${name}`);
  const publication = pendingChange(page, `Publier la version counts.csv`);
  await expect(authorization).toHaveAttribute('data-status', 'needs-attention', { timeout: 30_000 });
  await expect(publication).toHaveAttribute('data-status', 'needs-attention');
  await expect(authorization.getByTestId('pending-earlier-version')).toHaveText(
    'Cette modification a été préparée par une version antérieure de Terrain, et le serveur ne l’accepte plus telle qu’elle a été gardée. Refaites-la : modifiez-la, ou abandonnez-la.',
  );
  await expect(publication.getByTestId('pending-earlier-version')).toContainText('Abandonnez-la et refaites-la.');
  // Sent again as it was kept, it would be refused again: no Retry; Edit where the form reopens, and Discard.
  await expect(authorization.getByRole('button', { name: 'Réessayer' })).toHaveCount(0);
  await expect(authorization.getByRole('button', { name: 'Modifier', exact: true })).toBeVisible();
  await expect(publication.getByRole('button', { name: 'Modifier', exact: true })).toHaveCount(0);
  await expect(publication.getByRole('button', { name: 'Abandonner', exact: true })).toBeVisible();
  await look(page, 'pending-earlier-version');

  await switchLanguage(page, 'English');
  await expect(
    pendingChange(page, `Save the authorization Lecture of ${name}`).getByTestId('pending-earlier-version'),
  ).toHaveText(
    'This change was prepared by an earlier version of Terrain, and the server no longer accepts it as it was kept. Redo it: edit it, or discard it.',
  );
  await look(page, 'pending-earlier-version-en');
  await switchLanguage(page, 'Français');

  for (const change of [authorization, publication]) {
    await change.getByRole('button', { name: 'Abandonner', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Abandonner', exact: true }).click();
    await expect(change).toHaveCount(0);
  }
});

for (const [failure, notice] of [
  ['QuotaExceededError', 'Cet appareil n’a plus de place : Terrain ne peut pas ouvrir les données qu’il y garde'],
  ['UnknownError', 'Terrain ne peut pas ouvrir les données de cet appareil'],
] as const) {
  test(`a device database that cannot open (${failure}) is told on every page, and Terrain goes on online`, async ({
    page,
    look,
  }) => {
    // The browser refuses to open the device's database, as it does when an upgrade meets a full disk.
    await page.addInitScript((name) => {
      IDBFactory.prototype.open = () => {
        throw new DOMException('The device database cannot be opened.', name);
      };
    }, failure);
    await signInAsAdmin(page);
    const shown = page.getByTestId('device-data-notice');
    await expect(shown).toContainText(notice);
    await expect(shown).toContainText('En attendant, Terrain fonctionne en ligne seulement.');
    // The list is read from the server, without the device's copies.
    await expect(
      page.getByText('Aucune application pour le moment.').or(page.getByTestId('application-card').first()),
    ).toBeVisible();
    await page.goto('/pendingChanges');
    await expect(page.getByRole('heading', { name: 'Modifications en attente' })).toBeVisible();
    await expect(page.getByTestId('nothing-waiting')).toHaveCount(0);
    await look(page, `device-data-${failure}`);
    await switchLanguage(page, 'English');
    await expect(shown).toContainText('Meanwhile Terrain works online only.');
    await look(page, `device-data-${failure}-en`);
    await switchLanguage(page, 'Français');
  });
}
