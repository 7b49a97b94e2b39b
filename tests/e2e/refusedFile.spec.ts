import { dismissToasts, signInAsAdmin, switchLanguage } from './applicationSteps';
import { goOffline, goOnline, setUpApi, waitForServiceWorker } from './dataSteps';
import { expect, test, toast } from './fixtures';
import { pendingChange } from './offlineSteps';

/**
 * An additional file prepared offline, refused once sent (someone stored a file of the same name meanwhile): Edit
 * reopens the file form with what was sent, its file included; saved under another name it replaces the refused
 * change and is applied once.
 */

const PDF = Buffer.from('%PDF-1.4\nfield protocol\n%%EOF\n');

test('an additional file the server refuses is edited from the pending changes and applied once', async ({
  page,
  context,
  unique,
  look,
}) => {
  test.setTimeout(150_000);
  const name = unique('reffile');
  await signInAsAdmin(page);
  const api = setUpApi(page);
  await api.createApplication(name, 'fieldbook.yaml');
  const stored = async () => {
    const answer = await page.request.get(`/api/v1/applications/${name}/additionalFiles/protocols`);
    expect(answer.status(), await answer.text()).toBe(200);
    return ((await answer.json()) as { additionalBinaryFiles: Array<{ fileName: string }> }).additionalBinaryFiles
      .map((file) => file.fileName)
      .sort();
  };

  await test.step('offline: a protocol is queued', async () => {
    await waitForServiceWorker(page);
    await page.goto(`/applications/${name}/additionalFiles/protocols/new`);
    await expect(page.getByRole('heading', { name: 'Nouveau fichier : Protocoles' })).toBeVisible();
    await goOffline(context, page);
    await page.reload();
    await page.getByLabel('Titre *').fill('Comptage des oiseaux');
    await page.getByLabel('Date de parution *').fill('15/03/2024');
    await page.getByLabel('Commentaire *').fill('Le protocole de 2024');
    await page
      .getByLabel('Fichier à envoyer *')
      .setInputFiles({ name: 'protocole.pdf', mimeType: 'application/pdf', buffer: PDF });
    await page.getByRole('button', { name: 'Ajouter le fichier' }).click();
    await expect(toast(page, 'Enregistré sur cet appareil.')).toBeVisible();
  });

  await test.step('meanwhile a file of that name is stored: back online, the server refuses the change', async () => {
    const params = { fileName: 'protocole.pdf', comment: 'déjà là', fields: { title: 'Autre', issued: '01/01/2024' } };
    const form = {
      params: JSON.stringify(params),
      file: { name: 'protocole.pdf', mimeType: 'application/pdf', buffer: PDF },
    };
    const created = await page.request.post(`/api/v1/applications/${name}/additionalFiles/protocols`, {
      multipart: form,
    });
    expect(created.status(), await created.text()).toBeLessThan(300);
    await goOnline(context, page);
    await page.goto('/pendingChanges');
    const refused = pendingChange(page, 'protocole.pdf');
    await expect(refused).toHaveAttribute('data-status', 'needs-attention', { timeout: 30_000 });
    await dismissToasts(page);
    await look(page, 'file-refused-pending-fr');
    await refused.getByRole('button', { name: 'Modifier', exact: true }).click();
  });

  await test.step('edit: the form opens with what was sent, and saved under another name it is applied once', async () => {
    await expect(page).toHaveURL(new RegExp(`/applications/${name}/additionalFiles/protocols/new\\?outboxItem=\\d+`));
    await expect(page.getByLabel('Titre *')).toHaveValue('Comptage des oiseaux');
    await expect(page.getByLabel('Date de parution *')).toHaveValue('15/03/2024');
    await expect(page.getByLabel('Commentaire *')).toHaveValue('Le protocole de 2024');
    await expect(page.getByLabel('Nom du fichier *')).toHaveValue('protocole.pdf');
    await expect(page.getByTestId('file-replaces')).toContainText('Le serveur a refusé protocole.pdf');
    await expect(page.getByText('protocole.pdf, 30', { exact: false })).toBeVisible();
    await look(page, 'file-edit-fr');
    await switchLanguage(page, 'English');
    await expect(page.getByLabel('Title *')).toHaveValue('Comptage des oiseaux');
    await look(page, 'file-edit-en');
    await page.getByLabel('File name *').fill('protocole 2024.pdf');
    await page.getByRole('button', { name: 'Add the file' }).click();
    await expect(toast(page, 'The file protocole 2024.pdf has been saved.')).toBeVisible();
    await expect(page.getByTestId('file-replaces')).toHaveCount(0);
    expect(await stored()).toEqual(['protocole 2024.pdf', 'protocole.pdf']);
    await page.goto('/pendingChanges');
    await expect(pendingChange(page, 'protocole.pdf')).toHaveCount(0);
    await look(page, 'file-applied-pending-en');
    await expect(pendingChange(page, 'protocole 2024.pdf')).toHaveAttribute('data-status', 'done');
    await switchLanguage(page, 'Français');
  });
});
