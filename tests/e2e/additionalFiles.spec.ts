import type { Page } from '@playwright/test';
import { expect, test, toast } from './fixtures';
import { dismissToasts, PASSWORD, registerUser, signInAsAdmin, switchLanguage } from './applicationSteps';
import { download, goOffline, goOnline, lookFromTop, setUpApi, waitForServiceWorker, zipTexts } from './dataSteps';
import { E2E_ADMIN } from '../../playwright.config';

/**
 * Additional files end to end on fieldbook.yaml (protocols: a required title, a required date dd/MM/yyyy and a
 * site from the sites reference; photos): a protocol prepared offline with its format fields checked on the
 * device is queued, then sent once when the network is back; another is sent online with its site; the list
 * shows both with their details; one is downloaded, both are zipped, one is deleted after a confirmation; an
 * authorization on additional files is created; French then English, on a tablet and a phone.
 */

const PDF = (text: string) => Buffer.from(`%PDF-1.4\n${text}\n%%EOF\n`);

async function storedFiles(page: Page, application: string) {
  const answer = await page.request.get(`/api/v1/applications/${application}/additionalFiles/protocols`);
  expect(answer.status(), await answer.text()).toBe(200);
  return (
    (await answer.json()) as {
      additionalBinaryFiles: Array<{ id: string; fileName: string; additionalBinaryFileForm: Record<string, string> }>;
    }
  ).additionalBinaryFiles;
}

const row = (page: Page, fileName: string) => page.locator(`[data-testid="file-row"][data-name="${fileName}"]`);

test('additional files: prepared offline, queued and sent once; listed, downloaded, zipped, deleted; their authorizations; fr and en', async ({
  page,
  context,
  unique,
  look,
}) => {
  test.setTimeout(240_000);
  const see = (screen: string) => lookFromTop(page, look, screen);
  const name = unique('files');
  await signInAsAdmin(page);
  const api = setUpApi(page);
  await api.createApplication(name, 'fieldbook.yaml');
  await api.loadReference(name, 'sites', 'fieldbook-sites.csv');

  await test.step('from the application home to the types, then to the protocols', async () => {
    await waitForServiceWorker(page);
    await page.goto(`/applications/${name}`);
    await page.getByRole('link', { name: 'Fichiers additionnels' }).click();
    await expect(page).toHaveURL(new RegExp(`/applications/${name}/additionalFiles$`));
    await expect(page.getByRole('heading', { name: 'Fichiers additionnels de Carnet de documents' })).toBeVisible();
    await expect(page.getByTestId('file-type')).toHaveCount(2);
    await expect(page.locator('[data-testid="file-type"][data-name="protocols"]')).toContainText('Aucun fichier');
    await see('additional-types-fr');
    await page.getByRole('link', { name: 'Ouvrir Protocoles' }).click();
    await expect(page.getByRole('heading', { name: 'Protocoles', exact: true })).toBeVisible();
    await expect(page.getByText('Pas encore de fichier.')).toBeVisible();
    await see('additional-files-empty-fr');
    // The form is visited once online: its page then opens offline from the service worker's copy.
    await page.getByRole('link', { name: 'Ajouter un fichier' }).click();
    await expect(page.getByRole('heading', { name: 'Nouveau fichier : Protocoles' })).toBeVisible();
  });

  await test.step('offline: the form checks the fields on the device, then the protocol is queued', async () => {
    await goOffline(context, page);
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Nouveau fichier : Protocoles' })).toBeVisible();
    await expect(page.getByText('Le serveur est injoignable : le fichier sera gardé sur cet appareil')).toBeVisible();
    const submit = page.getByRole('button', { name: 'Ajouter le fichier' });
    await expect(submit).toBeDisabled();
    await page.getByLabel('Titre *').fill('Comptage des oiseaux');
    const issued = page.getByLabel('Date de parution *');
    await issued.fill('2024-03-15');
    await issued.blur();
    await expect(page.getByText('« 2024-03-15 » n’est pas une date', { exact: false })).toBeVisible();
    await expect(submit).toBeDisabled();
    await issued.fill('15/03/2024');
    await page.getByLabel('Commentaire *').fill('Le protocole de 2024');
    await page
      .getByLabel('Fichier à envoyer *')
      .setInputFiles({ name: 'protocole (terrain).pdf', mimeType: 'application/pdf', buffer: PDF('offline protocol') });
    // The chosen file's name is made valid: parentheses are not allowed in names.
    await expect(page.getByLabel('Nom du fichier *')).toHaveValue('protocole _terrain_.pdf');
    await page.getByLabel('Nom du fichier *').fill('protocole terrain.pdf');
    await expect(submit).toBeEnabled();
    await dismissToasts(page);
    await see('additional-form-offline-fr');
    await submit.click();
    await expect(toast(page, 'Enregistré sur cet appareil.')).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/applications/${name}/additionalFiles/protocols$`));
    await expect(page.getByTestId('pending-files')).toContainText('protocole terrain.pdf');
    await expect(page.getByTestId('pending-badge')).toHaveText('1');
    await dismissToasts(page);
    await see('additional-files-pending-fr');
  });

  await test.step('back online: sent once, listed', async () => {
    await goOnline(context, page);
    await expect(page.getByTestId('pending-files')).toHaveCount(0, { timeout: 30_000 });
    await expect(row(page, 'protocole terrain.pdf')).toBeVisible();
    await page.goto('/pendingChanges');
    await expect(page.getByTestId('pending-change').filter({ hasText: 'protocole terrain.pdf' })).toHaveAttribute(
      'data-status',
      'done',
    );
    const syncNow = page.getByRole('button', { name: 'Synchroniser maintenant' });
    await syncNow.click();
    await page.reload();
    // A pass asked for after the reload's own waits for it (one pass at a time): once "Sync now" is enabled again
    // after a click, both passes are over and anything they sent has been answered.
    await syncNow.click();
    await expect(syncNow).toBeEnabled();
    const stored = await storedFiles(page, name);
    expect(stored.map((f) => f.fileName)).toEqual(['protocole terrain.pdf']);
    expect(stored[0].additionalBinaryFileForm).toEqual({ title: 'Comptage des oiseaux', issued: '15/03/2024' });
  });

  await test.step('online: a second protocol with its site; the list, its details', async () => {
    await page.goto(`/applications/${name}/additionalFiles/protocols/new`);
    await page.getByLabel('Titre *').fill('Baguage');
    await page.getByLabel('Date de parution *').fill('01/06/2024');
    await page.getByLabel('Site concerné').selectOption({ label: 'Lac Blanc' });
    await page.getByLabel('Commentaire *').fill('Guide de baguage');
    await page
      .getByLabel('Fichier à envoyer *')
      .setInputFiles({ name: 'baguage.pdf', mimeType: 'application/pdf', buffer: PDF('ringing guide') });
    await page.getByText('Données associées').click();
    await page.getByLabel('Associer à tout Comptages').check();
    // The scope tree is named by its reference's title, not by its name (`sites`).
    await expect(page.getByTestId('association-panel').getByText('Sites d’observation', { exact: true })).toBeVisible();
    await dismissToasts(page);
    await see('additional-form-online-fr');
    await page.getByRole('button', { name: 'Ajouter le fichier' }).click();
    await expect(toast(page, 'Le fichier baguage.pdf a été enregistré.')).toBeVisible();
    await expect(row(page, 'baguage.pdf')).toBeVisible();
    await expect(page.getByTestId('file-row')).toHaveCount(2);
    await expect(row(page, 'baguage.pdf')).toContainText('Lié à des données');
    await row(page, 'baguage.pdf').getByRole('button', { name: 'Détails de baguage.pdf' }).click();
    const details = page.getByTestId('file-details');
    await expect(details).toContainText('Lac Blanc');
    await expect(details).toContainText('Comptages');
    await dismissToasts(page);
    await see('additional-files-list-fr');
  });

  await test.step('download one file, then a zip of both', async () => {
    const one = await download(page, () =>
      row(page, 'baguage.pdf').getByRole('link', { name: 'Télécharger baguage.pdf' }).click(),
    );
    expect(one.fileName).toBe('baguage.pdf');
    expect(one.bytes.toString('utf8')).toContain('ringing guide');
    await page.getByLabel('Sélectionner tous les fichiers de la page').check();
    await expect(page.getByTestId('selection-actions')).toContainText('2 sélectionné(s)');
    const zip = await download(page, () => page.getByRole('link', { name: 'Télécharger la sélection (zip)' }).click());
    expect(zip.fileName).toBe('additionalFile.zip');
    const files = zipTexts(zip.bytes);
    expect(Object.keys(files).sort()).toEqual([
      'additionalFiles.json',
      'protocols/baguage.pdf',
      'protocols/protocole terrain.pdf',
    ]);
    expect(files['protocols/protocole terrain.pdf']).toContain('offline protocol');
  });

  await test.step('offline: the types and the list open with what this device saw last', async () => {
    await page.goto(`/applications/${name}/additionalFiles`);
    await expect(page.locator('[data-testid="file-type"][data-name="protocols"]')).toContainText('2 fichiers');
    await goOffline(context, page);
    await page.reload();
    await expect(page.getByTestId('offline-notice')).toBeVisible();
    await expect(page.locator('[data-testid="file-type"][data-name="protocols"]')).toContainText('2 fichiers');
    await see('additional-types-offline-fr');
    await page.getByRole('link', { name: 'Ouvrir Protocoles' }).click();
    await expect(page.getByTestId('offline-notice')).toBeVisible();
    await expect(page.getByTestId('file-row')).toHaveCount(2);
    await expect(row(page, 'baguage.pdf')).toContainText('Lié à des données');
    await dismissToasts(page);
    await see('additional-files-offline-fr');
    await goOnline(context, page);
    await page.reload();
    await expect(page.getByTestId('offline-notice')).toHaveCount(0);
    await expect(page.getByTestId('file-row')).toHaveCount(2);
  });

  await test.step('delete one file after a confirmation', async () => {
    await page.getByLabel('Sélectionner tous les fichiers de la page').uncheck();
    await row(page, 'protocole terrain.pdf').getByRole('button', { name: 'Supprimer protocole terrain.pdf' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('heading', { name: 'Supprimer protocole terrain.pdf ?' })).toBeVisible();
    await see('additional-delete-dialog-fr');
    await dialog.getByRole('button', { name: 'Supprimer' }).click();
    await expect(toast(page, 'Le fichier protocole terrain.pdf a été supprimé.')).toBeVisible();
    await expect(page.getByTestId('file-row')).toHaveCount(1);
    expect((await storedFiles(page, name)).map((f) => f.fileName)).toEqual(['baguage.pdf']);
  });

  await test.step('an authorization on additional files', async () => {
    await page.goto(`/applications/${name}/additionalFiles`);
    await page.getByRole('link', { name: 'Droits sur les fichiers additionnels' }).click();
    await expect(page.getByText('Pas encore d’autorisation sur les fichiers additionnels.')).toBeVisible();
    await page.getByRole('link', { name: 'Ajouter une autorisation' }).click();
    await page.getByLabel('Ajouter un utilisateur').fill(E2E_ADMIN.login);
    await page.getByRole('button', { name: new RegExp(E2E_ADMIN.email) }).click();
    await page.getByLabel('Nom *').fill('Ménage des protocoles');
    await page.getByLabel('Suppression — Protocoles').check();
    // Deletion brings deposit and download, whose boxes are then locked.
    await expect(page.getByLabel('Dépôt — Protocoles')).toBeChecked();
    await expect(page.getByLabel('Dépôt — Protocoles')).toBeDisabled();
    await expect(page.getByLabel('Téléchargement — Protocoles')).toBeChecked();
    await dismissToasts(page);
    await see('additional-authorization-form-fr');
    await page.getByRole('button', { name: 'Créer' }).click();
    await expect(page).toHaveURL(new RegExp(`/applications/${name}/additionalFiles/authorizations$`));
    const authorization = page.locator('[data-testid="file-authorization-row"][data-name="Ménage des protocoles"]');
    await expect(authorization).toBeVisible();
    await authorization.getByRole('button', { name: 'Afficher les droits de Ménage des protocoles' }).click();
    await expect(page.getByText('Protocoles — Dépôt, Téléchargement, Suppression')).toBeVisible();
    await dismissToasts(page);
    await see('additional-authorizations-fr');
  });

  await test.step('in English', async () => {
    await switchLanguage(page, 'English');
    await page.goto(`/applications/${name}/additionalFiles`);
    await expect(page.getByRole('heading', { name: 'Additional files of Document notebook' })).toBeVisible();
    await see('additional-types-en');
    await page.goto(`/applications/${name}/additionalFiles/protocols`);
    await expect(page.getByRole('heading', { name: 'Protocols', exact: true })).toBeVisible();
    await expect(row(page, 'baguage.pdf')).toContainText('Linked to data');
    await row(page, 'baguage.pdf').getByRole('button', { name: 'Details of baguage.pdf' }).click();
    await see('additional-files-list-en');
    await row(page, 'baguage.pdf').getByRole('link', { name: 'Consult or modify baguage.pdf' }).click();
    await expect(page.getByRole('heading', { name: 'Modify baguage.pdf' })).toBeVisible();
    await expect(page.getByLabel('Title *')).toHaveValue('Baguage');
    await page.getByLabel('Comment *').fill('Ringing guide, second reading');
    await page.getByText('Associated data').click();
    await expect(page.getByTestId('association-panel').getByText('Observation sites', { exact: true })).toBeVisible();
    await see('additional-form-edit-en');
    await page.getByRole('button', { name: 'Save the changes' }).click();
    await expect(toast(page, 'The file baguage.pdf has been saved.')).toBeVisible();
    const [stored] = await storedFiles(page, name);
    expect(stored.fileName).toBe('baguage.pdf');
    await page.goto(`/applications/${name}/additionalFiles/authorizations/new`);
    await expect(page.getByRole('heading', { name: 'New authorization on additional files' })).toBeVisible();
    await see('additional-authorization-form-en');
    await goOffline(context, page);
    await page.goto(`/applications/${name}/additionalFiles/protocols`);
    await expect(page.getByTestId('offline-notice')).toContainText('Offline — data from');
    await expect(page.getByTestId('file-row')).toHaveCount(1);
    await see('additional-files-offline-en');
    await goOnline(context, page);
    await switchLanguage(page, 'Français');
  });
});

test('a file changed by someone else than its author says who changed it last; fr and en', async ({
  page,
  request,
  lastKey,
  unique,
  look,
}) => {
  const see = (screen: string) => lookFromTop(page, look, screen);
  const name = unique('changed');
  await signInAsAdmin(page);
  const api = setUpApi(page);
  await api.createApplication(name, 'fieldbook.yaml');
  await api.loadReference(name, 'sites', 'fieldbook-sites.csv');
  const { login: author } = await registerUser(request, lastKey, unique('author'));
  const granted = await page.request.post(`/api/v1/applications/${name}/additionalFiles/authorization`, {
    data: { uuid: null, name: 'authors', usersId: [author], additionalFiles: { depot: ['protocols'] } },
  });
  expect(granted.status(), await granted.text()).toBe(201);
  expect((await request.post('/api/v1/login', { form: { login: author, password: PASSWORD } })).status()).toBe(200);
  const uploaded = await request.post(`/api/v1/applications/${name}/additionalFiles/protocols`, {
    multipart: {
      params: JSON.stringify({
        id: null,
        fileName: 'comptage.pdf',
        comment: 'Comptage de printemps',
        fields: { title: 'Comptage', issued: '15/03/2024', site: 'lac_blanc' },
      }),
      file: { name: 'comptage.pdf', mimeType: 'application/pdf', buffer: PDF('counting') },
    },
  });
  expect(uploaded.status(), await uploaded.text()).toBe(201);

  await page.goto(`/applications/${name}/additionalFiles/protocols`);
  await row(page, 'comptage.pdf').getByRole('link', { name: 'Consulter ou modifier comptage.pdf' }).click();
  await page.getByLabel('Commentaire *').fill('Comptage de printemps, relu');
  await page.getByRole('button', { name: 'Enregistrer les modifications' }).click();
  await expect(toast(page, 'Le fichier comptage.pdf a été enregistré.')).toBeVisible();
  await page.goto(`/applications/${name}/additionalFiles/protocols`);
  await row(page, 'comptage.pdf').getByRole('button', { name: 'Détails de comptage.pdf' }).click();
  const details = page.getByTestId('file-details');
  await expect(details).toContainText(author);
  await expect(details).toContainText(`par ${E2E_ADMIN.login}`);
  await dismissToasts(page);
  await see('additional-file-changed-by-fr');

  await switchLanguage(page, 'English');
  await page.goto(`/applications/${name}/additionalFiles/protocols`);
  await row(page, 'comptage.pdf').getByRole('button', { name: 'Details of comptage.pdf' }).click();
  await expect(page.getByTestId('file-details')).toContainText(`by ${E2E_ADMIN.login}`);
  await see('additional-file-changed-by-en');
  await switchLanguage(page, 'Français');
});
