import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { dismissToasts, switchLanguage } from './applicationSteps';
import { csvFixture } from './dataSteps';
import { expect, toast } from './fixtures';
import {
  adminApi,
  goOffline,
  goOnline,
  pendingChange,
  signInAsAdmin,
  test,
  waitForServiceWorker,
} from './offlineSteps';

/**
 * A deposit checked on the device and queued offline, refused by the server once sent (a species it names was deleted
 * meanwhile): the pending change shows the server's line errors; Edit reopens the deposits page with its file, dataset,
 * period and comment; a corrected file deposited there replaces it and is applied once.
 */

const JUNE = 'alps~lac_blanc~01-06-2024~30-06-2024.csv';

const depositsOfServer = async (page: Page, serverOrigin: string, name: string) => {
  const answer = await page.request.get(`${serverOrigin}/api/v1/applications/${name}/filesOnRepository/counts`);
  expect(answer.status(), await answer.text()).toBe(200);
  return (await answer.json()) as Array<{ name: string }>;
};

test('a deposit the server refuses is edited from the pending changes and applied once', async ({
  page,
  context,
  network,
  serverOrigin,
  unique,
  look,
}) => {
  test.setTimeout(180_000);
  const name = unique('refdep');
  const admin = await adminApi(page.request, serverOrigin);
  await admin.createWithSurveys(name, 'surveys.yaml', ['projects', 'sites', 'species']);

  await test.step('offline: a file valid on the device is queued', async () => {
    await signInAsAdmin(page);
    await waitForServiceWorker(page);
    await page.goto(`/applications/${name}/dataVersioning/counts`);
    await expect(page.getByRole('heading', { name: 'Dépôts de Comptages' })).toBeVisible();
    // The scope references are downloaded (and kept) once the dataset selectors show.
    await expect(page.getByLabel('Projets', { exact: true })).toBeVisible();
    await goOffline(network, context, page);
    await page.getByLabel('Fichier CSV', { exact: true }).setInputFiles(csvFixture(JUNE));
    await page.getByLabel('Commentaire', { exact: true }).fill('Relevés de juin');
    await page.getByRole('button', { name: 'Vérifier', exact: true }).click();
    await expect(page.getByText('3 lignes vérifiées : le fichier est valide.')).toBeVisible();
    await page.getByRole('button', { name: 'Déposer', exact: true }).click();
    await expect(toast(page, 'Enregistré sur cet appareil.')).toBeVisible();
  });

  await test.step('meanwhile a species of the file is deleted: back online, the server refuses the deposit', async () => {
    await admin.deleteReferenceRow(name, 'species', 'lagopus');
    await goOnline(network, context);
    await page.goto('/pendingChanges');
    const refused = pendingChange(page, JUNE);
    await expect(refused).toHaveAttribute('data-status', 'needs-attention', { timeout: 30_000 });
    await expect(refused.getByTestId('csv-report')).toContainText('lagopus');
    expect(await depositsOfServer(page, serverOrigin, name)).toHaveLength(0);
    await dismissToasts(page);
    await look(page, 'deposit-refused-pending-fr');
    await refused.getByRole('button', { name: 'Modifier', exact: true }).click();
  });

  await test.step('edit: the deposits page opens with the refused file, its dataset and comment', async () => {
    await expect(page).toHaveURL(new RegExp(`/applications/${name}/dataVersioning/counts\\?outboxItem=\\d+`));
    await expect(page.getByTestId('deposit-replaces')).toContainText(`Le serveur a refusé ${JUNE}`);
    await expect(page.getByLabel('Date de début', { exact: true })).toHaveValue('2024-06-01');
    await expect(page.getByLabel('Commentaire', { exact: true })).toHaveValue('Relevés de juin');
    await expect(page.getByLabel('Sites', { exact: true }).locator('option:checked')).toHaveText('lac_blanc');
    await expect(page.getByTestId('pending-deposit')).toContainText('refusé : voir les modifications en attente');
    await look(page, 'deposit-edit-fr');
    await switchLanguage(page, 'English');
    await expect(page.getByTestId('deposit-replaces')).toContainText(`The server refused ${JUNE}`);
    await look(page, 'deposit-edit-en');
  });

  await test.step('a corrected file replaces it and is applied once', async () => {
    const corrected = (await readFile(csvFixture(JUNE), 'utf8'))
      .split('\n')
      .filter((line) => !line.includes('lagopus'))
      .join('\n');
    await page
      .getByLabel('CSV file', { exact: true })
      .setInputFiles({ name: JUNE, mimeType: 'text/csv', buffer: Buffer.from(corrected) });
    await page.getByRole('button', { name: 'Check', exact: true }).click();
    await expect(page.getByText('2 lines checked: the file is valid.')).toBeVisible();
    await page.getByRole('button', { name: 'Deposit', exact: true }).click();
    await expect(toast(page, `The file ${JUNE} has been deposited.`)).toBeVisible();
    await expect(page.getByTestId('deposit-replaces')).toHaveCount(0);
    expect((await depositsOfServer(page, serverOrigin, name)).map((d) => d.name)).toEqual([JUNE]);

    await page.goto('/pendingChanges');
    const changes = pendingChange(page, JUNE);
    await expect(changes).toHaveCount(1);
    await expect(changes).toHaveAttribute('data-status', 'done');
  });
});
