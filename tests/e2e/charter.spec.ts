import { copyFile, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { APIRequestContext, Browser, Page, TestInfo } from '@playwright/test';
import { minimalPdf } from '../fixtures/minimalPdf';
import { expect, test, toast } from './fixtures';
import { dismissToasts, registerUser, signIn, signInAsAdmin, switchLanguage } from './applicationSteps';
import { csvFixture, goOffline, goOnline, lookFromTop, setUpApi, waitForServiceWorker } from './dataSteps';

/**
 * The usage charter end to end on the surveys application (one published version of counts): the platform
 * administrator uploads the charter from the application's card (a file that is not a PDF is refused on the spot,
 * in words), a user with reading rights opening the application meets the charter first — from a card, or from a
 * deep link — cannot accept before checking the box, may refuse (back to the list), accepts and reaches the data;
 * a new charter asks again, in English this time; an acceptance made offline lets the user in at once and reaches
 * the server when the network is back. Screens in test-results/charter/<size>/.
 */

const JUNE = 'alps~lac_blanc~01-06-2024~30-06-2024.csv';

async function publishJune(request: APIRequestContext, application: string) {
  const answer = await request.post(`/api/v1/applications/${application}/data/counts`, {
    multipart: {
      params: JSON.stringify({
        binaryfiledataset: {
          datatype: 'counts',
          requiredAuthorizations: { project: 'alps', site: 'lac_blanc' },
          from: '2024-06-01',
          to: '2024-06-30',
        },
        topublish: true,
      }),
      file: { name: JUNE, mimeType: 'text/csv', buffer: await readFile(csvFixture(JUNE)) },
    },
  });
  expect(answer.status(), await answer.text()).toBe(202);
  const { fileId } = (await answer.json()) as { fileId: string };
  await expect
    .poll(
      async () =>
        (
          (await (
            await request.get(`/api/v1/applications/${application}/file/${fileId}/publication-state`)
          ).json()) as { published: boolean }
        ).published,
      {
        message: 'the June version is published',
        timeout: 30_000,
      },
    )
    .toBe(true);
}

/** The surveys application with its references, one published version, and a user who may read everything. */
async function surveysReadableBy(page: Page, name: string, reader: string) {
  const api = setUpApi(page);
  await api.createApplication(name, 'surveys.yaml');
  for (const reference of ['projects', 'sites', 'species'])
    await api.loadReference(name, reference, `surveys-${reference}.csv`);
  await publishJune(page.request, name);
  const granted = await page.request.post(`/api/v1/applications/${name}/authorization`, {
    data: {
      name: 'lecture',
      description: 'tout, en lecture',
      usersId: [reader],
      authorizationForAll: {
        projects: ['extraction'],
        sites: ['extraction'],
        species: ['extraction'],
        counts: ['extraction'],
      },
    },
  });
  expect(granted.status(), await granted.text()).toBe(201);
}

async function uploadCharterByApi(request: APIRequestContext, application: string, note: string) {
  const answer = await request.post(`/api/v1/applications/${application}/additionalFiles/__charter__`, {
    multipart: { file: { name: 'charter.pdf', mimeType: 'application/pdf', buffer: Buffer.from(minimalPdf(note)) } },
  });
  expect(answer.status(), await answer.text()).toBe(200);
}

async function person(browser: Browser, login: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, login);
  return { context, page };
}

/** Screenshot and accessibility check (from the top), copied to test-results/charter/<size>/<name>.png. */
function screens(page: Page, look: (page: Page, name: string) => Promise<void>, testInfo: TestInfo) {
  return async (name: string) => {
    await dismissToasts(page);
    await lookFromTop(page, look, `charter-${name}`);
    const folder = path.resolve('test-results/charter', testInfo.project.name);
    await mkdir(folder, { recursive: true });
    await copyFile(
      path.resolve('test-results/screens', testInfo.project.name, `charter-${name}.png`),
      path.join(folder, `${name}.png`),
    );
  };
}

const chartesOf = async (page: Page) =>
  ((await (await page.request.get('/api/v1/me')).json()) as { chartes: Record<string, string> }).chartes;
const applicationId = async (page: Page, name: string) =>
  ((await (await page.request.get(`/api/v1/applications/${name}`)).json()) as { id: string }).id;

test('usage charter: uploaded from the card, met before the data from a card or a deep link, accepted after checking the box, asked again for a new charter, accepted offline', async ({
  page,
  browser,
  request,
  unique,
  lastKey,
  look,
}, testInfo) => {
  test.setTimeout(240_000);
  const name = unique('charte');
  const { login: reader } = await registerUser(request, lastKey, unique('lecteur'));
  await signInAsAdmin(page);
  await surveysReadableBy(page, name, reader);
  const adminSees = screens(page, look, testInfo);
  const card = page.locator(`[data-testid="application-card"][data-name="${name}"]`);

  await test.step('the administrator opens the charter dialog from the card: a file that is not a PDF is refused in words', async () => {
    await page.goto('/applications');
    // Nine cards a page: by the time this runs the list holds the other journeys' applications too.
    await page.getByLabel('Filtrer par nom').fill(name);
    await card.getByRole('button', { name: 'Charte de Suivis de sites' }).click();
    const dialog = page.getByTestId('charter-upload');
    await expect(dialog.getByRole('heading', { name: 'Charte d’utilisation de Suivis de sites' })).toBeVisible();
    await expect(
      dialog.getByText('Cette application n’a pas encore de charte : personne n’a rien à accepter.'),
    ).toBeVisible();
    const send = dialog.getByRole('button', { name: 'Déposer la charte' });
    await expect(send).toBeDisabled();
    await dialog.getByLabel('Charte (fichier PDF)').setInputFiles({
      name: 'charte.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('<html>pas un pdf</html>'),
    });
    await expect(
      dialog
        .getByRole('alert')
        .filter({ hasText: 'Le fichier charte.pdf n’est pas un PDF : la charte doit être un fichier PDF.' }),
    ).toBeVisible();
    await expect(send).toBeDisabled();
    await adminSees('upload-refused-fr');
  });

  await test.step('a PDF is uploaded, with its progress, and the administrator is never asked to accept it', async () => {
    const dialog = page.getByTestId('charter-upload');
    await dialog.getByLabel('Charte (fichier PDF)').setInputFiles({
      name: 'charte.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from(minimalPdf('Charte de Suivis de sites, version 1')),
    });
    await expect(dialog.getByRole('alert')).toHaveCount(0);
    await dialog.getByRole('button', { name: 'Déposer la charte' }).click();
    await expect(toast(page, 'La charte de Suivis de sites est déposée.')).toBeVisible();
    await expect(dialog).toBeHidden();
    await card.getByRole('link', { name: 'Ouvrir Suivis de sites' }).click();
    await expect(page.getByRole('heading', { name: 'Suivis de sites', level: 1 })).toBeVisible();
    await expect(page.getByTestId('charter-dialog')).toHaveCount(0);
    await expect(page.getByTestId('charter-section')).toContainText(
      'Votre rôle dans l’application vous dispense de l’accepter.',
    );
    await adminSees('home-manager-fr');
  });

  const { context: readerContext, page: readerPage } = await person(browser, reader);
  const readerSees = screens(readerPage, look, testInfo);
  const id = await applicationId(readerPage, name);
  const modal = readerPage.getByTestId('charter-dialog');
  const checkbox = modal.getByRole('checkbox', { name: 'J’ai lu et j’accepte la charte' });
  const accept = modal.getByRole('button', { name: 'Accepter' });

  await test.step('the reader meets the charter before the datasets, cannot accept before checking, and refusing leads back to the list', async () => {
    expect((await readerPage.request.get(`/api/v1/applications/${name}/data/counts/json`)).status()).toBe(403);
    await readerPage.getByLabel('Filtrer par nom').fill(name);
    await readerPage
      .locator(`[data-testid="application-card"][data-name="${name}"]`)
      .getByRole('link', { name: 'Types de données de Suivis de sites' })
      .click();
    await expect(modal.getByRole('heading', { name: 'Charte d’utilisation de Suivis de sites' })).toBeVisible();
    await expect(modal.getByTitle('Charte d’utilisation de Suivis de sites')).toBeVisible();
    await expect(accept).toBeDisabled();
    await expect(checkbox).not.toBeChecked();
    const box = await modal.boundingBox();
    expect(box!.width).toBeLessThanOrEqual(600);
    await readerSees('modal-fr');
    await modal.getByRole('button', { name: 'Refuser' }).click();
    await expect(readerPage).toHaveURL(/\/applications$/);
    await expect(modal).toHaveCount(0);
    expect(await chartesOf(readerPage)).toEqual({});
  });

  await test.step('a deep link passes the charter too; checked and accepted, the reader reaches the data', async () => {
    await readerPage.goto(`/applications/${name}/dataTypes/counts`);
    await expect(modal).toBeVisible();
    await expect(readerPage.getByTestId('reference-table')).toHaveCount(0);
    await checkbox.click();
    await expect(accept).toBeEnabled();
    await checkbox.click();
    await expect(accept).toBeDisabled();
    await checkbox.click();
    await accept.click();
    await expect(modal).toBeHidden();
    await expect(readerPage).toHaveURL(new RegExp(`/applications/${name}/dataTypes/counts$`));
    await expect(readerPage.getByTestId('reference-row')).toHaveCount(3);
    expect(Object.keys(await chartesOf(readerPage))).toEqual([id]);
    await readerPage.reload();
    await expect(readerPage.getByTestId('reference-row')).toHaveCount(3);
    await expect(modal).toHaveCount(0);
    await readerSees('data-after-acceptance-fr');
  });

  await test.step('a new charter asks again; in English', async () => {
    await uploadCharterByApi(page.request, name, 'Surveys charter, version 2');
    await readerPage.goto('/applications');
    await switchLanguage(readerPage, 'English');
    await readerPage.getByLabel('Filter by name').fill(name);
    await readerPage
      .locator(`[data-testid="application-card"][data-name="${name}"]`)
      .getByRole('link', { name: 'Open Site surveys' })
      .click();
    await expect(modal.getByRole('heading', { name: 'Usage charter of Site surveys' })).toBeVisible();
    const acceptEn = modal.getByRole('button', { name: 'Accept' });
    await expect(acceptEn).toBeDisabled();
    await readerSees('modal-en');
    await modal.getByRole('checkbox', { name: 'I have read and accept the charter' }).click();
    await acceptEn.click();
    await expect(readerPage.getByRole('heading', { name: 'Site surveys', level: 1 })).toBeVisible();
    await expect(readerPage.getByTestId('charter-section')).toContainText('You accepted it on');
    await readerSees('home-reader-en');
    expect((await readerPage.request.get(`/api/v1/applications/${name}/data/counts/json`)).status()).toBe(200);
  });

  await test.step('offline, a charter shown before is accepted on the device: the user goes in at once, and the acceptance reaches the server later', async () => {
    await waitForServiceWorker(readerPage);
    await uploadCharterByApi(page.request, name, 'Surveys charter, version 3');
    await readerPage.goto(`/applications/${name}`);
    await expect(modal.getByTitle('Usage charter of Site surveys')).toBeVisible();
    await modal.getByRole('button', { name: 'Refuse' }).click();
    await expect(readerPage).toHaveURL(/\/applications$/);
    await goOffline(readerContext, readerPage);
    await readerPage
      .locator(`[data-testid="application-card"][data-name="${name}"]`)
      .getByRole('link', { name: 'Open Site surveys' })
      .click();
    await expect(modal.getByTitle('Usage charter of Site surveys')).toBeVisible();
    await modal.getByRole('checkbox', { name: 'I have read and accept the charter' }).click();
    await modal.getByRole('button', { name: 'Accept' }).click();
    await expect(toast(readerPage, 'Your acceptance is saved on this device.')).toBeVisible();
    await expect(readerPage.getByRole('heading', { name: 'Site surveys', level: 1 })).toBeVisible();
    await readerPage.reload();
    await expect(readerPage.getByRole('heading', { name: 'Site surveys', level: 1 })).toBeVisible();
    await expect(modal).toHaveCount(0);
    await readerSees('home-offline-accepted-en');
    await goOnline(readerContext, readerPage);
    await expect
      .poll(async () => (await readerPage.request.get(`/api/v1/applications/${name}/data/counts/json`)).status(), {
        timeout: 30_000,
      })
      .toBe(200);
  });

  await readerContext.close();
});
