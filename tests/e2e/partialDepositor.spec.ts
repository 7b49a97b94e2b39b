import type { Page } from '@playwright/test';
import { expect, test, toast } from './fixtures';
import { dismissToasts, registerUser, signIn, signInAsAdmin, switchLanguage } from './applicationSteps';
import { goOffline, goOnline, loadReferenceCsv, lookFromTop, setUpApi, waitForServiceWorker } from './dataSteps';

/**
 * A depositor who may read the sites of one region only (`sites` divides its own rows by region): the device keeps
 * the part they read (`X-Rows-Part: true`) and checks their files against it. A value outside that part is noted
 * ("checked by the server only"), not refused, and the server, which checks against every site, accepts the file:
 * in a versioned deposit (online, and offline from the part kept on the device) and in the upload dialog of a data
 * type without versions. More than ten such values are counted past the tenth. A file whose values exist nowhere
 * passes the device and is refused by the server for 1,250 lines: the form shows the server's total, not the 1,000
 * errors its report holds. French and English.
 */

const ALPES = ['col_vert', 'lac_blanc', 'mont_joly'];
const JURA = Array.from({ length: 13 }, (_, i) => `jura_${String(i + 1).padStart(2, '0')}`);

const csv = (name: string, text: string) => ({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });
const HEADER = 'site;came_from;day;visitors';
/** Dates `dd/MM/yyyy` of consecutive days from 1 January 2020. */
const day = (offset: number) => {
  const date = new Date(Date.UTC(2020, 0, 1 + offset));
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(date.getUTCDate())}/${two(date.getUTCMonth() + 1)}/${date.getUTCFullYear()}`;
};

test('a depositor reading part of a reference: values outside it are noted, not refused, and the server accepts the file; a refusal of 1,250 lines shows its total; fr and en', async ({
  page,
  browser,
  request,
  unique,
  lastKey,
  look,
}) => {
  test.setTimeout(150_000);
  const name = unique('part');
  await signInAsAdmin(page);
  const api = setUpApi(page);
  await api.createApplication(name, 'regional-visits.yaml');
  await loadReferenceCsv(page, name, 'regions', Buffer.from('code\nalpes\njura\n'));
  await loadReferenceCsv(
    page,
    name,
    'sites',
    Buffer.from(`code;region\n${[...ALPES.map((s) => `${s};alpes`), ...JURA.map((s) => `${s};jura`)].join('\n')}\n`),
  );

  // Registered without the manager's session (an account is activated by whoever is not signed in as someone else).
  const depositor = await registerUser(request, lastKey, unique('dep'));
  const granted = await page.request.post(`/api/v1/applications/${name}/authorization`, {
    data: {
      uuid: null,
      name: 'dépôts des Alpes',
      description: 'lit les sites des Alpes, dépose partout',
      usersId: [depositor.login],
      authorizationForAll: { regions: ['extraction'], visits: ['depot'], sightings: ['depot'] },
      authorizationsWithRestriction: {
        sites: { operationTypes: ['extraction'], requiredAuthorizations: { region: ['regionsKalpes'] } },
      },
    },
  });
  expect(granted.status(), await granted.text()).toBe(201);

  const context = await browser.newContext();
  const depositorPage: Page = await context.newPage();
  await signIn(depositorPage, depositor.login);
  await waitForServiceWorker(depositorPage);
  const see = (screen: string) => lookFromTop(depositorPage, look, screen);
  const notes = depositorPage.getByTestId('device-notes');
  const outside = notes.locator('[data-code="referenceOutsideReadPart"]');

  await test.step('the deposits page: the sites offered are those of the Alpes only (the part kept on the device)', async () => {
    await depositorPage.goto(`/applications/${name}/dataVersioning/visits`);
    await expect(depositorPage.getByRole('heading', { name: 'Dépôts de Visites' })).toBeVisible();
    const sites = depositorPage.getByLabel('Sites', { exact: true });
    await expect(sites).toBeVisible();
    await expect(sites.getByRole('option', { name: /^(col_vert|lac_blanc|mont_joly)$/ })).toHaveCount(3);
    await expect(sites.getByRole('option', { name: 'jura_01' })).toHaveCount(0);
  });

  const june = 'lac_blanc~01-06-2024~30-06-2024.csv';
  await test.step('a file naming sites of the Jura: noted, valid, deposited', async () => {
    await depositorPage
      .getByLabel('Fichier CSV', { exact: true })
      .setInputFiles(
        csv(
          june,
          `${HEADER}\nlac_blanc;mont_joly;02/06/2024;4\nlac_blanc;jura_03;09/06/2024;2\nlac_blanc;jura_07;16/06/2024;5\n`,
        ),
      );
    await expect(depositorPage.getByLabel('Date de début', { exact: true })).toHaveValue('2024-06-01');
    await depositorPage.getByLabel('Commentaire', { exact: true }).fill('Visiteurs venus du Jura');
    await depositorPage.getByRole('button', { name: 'Vérifier', exact: true }).click();
    await expect(depositorPage.getByText('3 lignes vérifiées : le fichier est valide.')).toBeVisible();
    await expect(outside).toHaveText(
      'Hors des lignes de Sites que vous pouvez lire, donc vérifié par le serveur seulement : jura_03 et jura_07.',
    );
    await expect(notes).not.toContainText('mont_joly');
    await expect(depositorPage.getByTestId('csv-report')).toHaveCount(0);
    await dismissToasts(depositorPage);
    await see('deposit-part-notes-fr');
    await switchLanguage(depositorPage, 'English');
    await expect(outside).toHaveText(
      'Not among the rows of Sites you may read, so checked by the server only: jura_03 and jura_07.',
    );
    await expect(depositorPage.getByText('3 lines checked: the file is valid.')).toBeVisible();
    await see('deposit-part-notes-en');
    await depositorPage.getByRole('button', { name: 'Deposit', exact: true }).click();
    await expect(toast(depositorPage, `The file ${june} has been deposited.`)).toBeVisible();
    expect((await api.versions(name, 'visits')).map((v) => v.name)).toEqual([june]);
  });

  await test.step('more than ten sites outside the part: the first ten named, the others counted', async () => {
    const july = 'lac_blanc~01-07-2024~31-07-2024.csv';
    const lines = JURA.map((site, i) => `lac_blanc;${site};${String(i + 1).padStart(2, '0')}/07/2024;1`);
    await depositorPage
      .getByLabel('CSV file', { exact: true })
      .setInputFiles(csv(july, `${HEADER}\n${lines.join('\n')}\n`));
    await depositorPage.getByRole('button', { name: 'Check', exact: true }).click();
    await expect(depositorPage.getByText('13 lines checked: the file is valid.')).toBeVisible();
    await expect(outside).toContainText(`${JURA.slice(0, 10).join(', ')}, and 3 others.`);
    await dismissToasts(depositorPage);
    await see('deposit-part-notes-many-en');
    await switchLanguage(depositorPage, 'Français');
    await expect(outside).toContainText(`${JURA.slice(0, 10).join(', ')} et 3 autres.`);
    await see('deposit-part-notes-many-fr');
  });

  await test.step('offline: the part kept on the device notes the same values; the deposit waits, then the server accepts it', async () => {
    const august = 'lac_blanc~01-08-2024~31-08-2024.csv';
    await goOffline(context, depositorPage);
    await depositorPage.reload();
    await expect(depositorPage.getByRole('heading', { name: 'Dépôts de Visites' })).toBeVisible();
    await expect(depositorPage.getByTestId('offline-badge')).toBeVisible();
    await depositorPage
      .getByLabel('Fichier CSV', { exact: true })
      .setInputFiles(csv(august, `${HEADER}\nlac_blanc;jura_05;03/08/2024;6\nlac_blanc;col_vert;10/08/2024;1\n`));
    await expect(depositorPage.getByLabel('Date de fin', { exact: true })).toHaveValue('2024-08-31');
    await depositorPage.getByRole('button', { name: 'Vérifier', exact: true }).click();
    await expect(depositorPage.getByText('2 lignes vérifiées : le fichier est valide.')).toBeVisible();
    await expect(outside).toHaveText(
      'Hors des lignes de Sites que vous pouvez lire, donc vérifié par le serveur seulement : jura_05.',
    );
    await dismissToasts(depositorPage);
    await see('deposit-part-notes-offline-fr');
    await depositorPage.getByRole('button', { name: 'Déposer', exact: true }).click();
    await expect(toast(depositorPage, 'Enregistré sur cet appareil.')).toBeVisible();
    await goOnline(context, depositorPage);
    await expect
      .poll(async () => (await api.versions(name, 'visits')).map((v) => v.name), { timeout: 30_000 })
      .toContain(august);
    await dismissToasts(depositorPage);
  });

  await test.step('1,250 lines naming a site that exists nowhere: noted on the device, refused by the server with its total', async () => {
    const years = 'lac_blanc~01-01-2020~31-12-2023.csv';
    const lines = Array.from({ length: 1250 }, (_, i) => `lac_blanc;nulle_part;${day(i)};1`);
    await depositorPage
      .getByLabel('Fichier CSV', { exact: true })
      .setInputFiles(csv(years, `${HEADER}\n${lines.join('\n')}\n`));
    await expect(depositorPage.getByLabel('Date de fin', { exact: true })).toHaveValue('2023-12-31');
    await depositorPage.getByRole('button', { name: 'Vérifier', exact: true }).click();
    await expect(depositorPage.getByText('1\u202f250 lignes vérifiées : le fichier est valide.')).toBeVisible();
    await expect(outside).toContainText('nulle_part');
    await depositorPage.getByRole('button', { name: 'Déposer', exact: true }).click();
    const report = depositorPage.getByTestId('csv-report');
    await expect(report.getByRole('heading', { name: `1\u202f250 erreurs dans ${years}` })).toBeVisible();
    await expect(report).toContainText(
      'Les 50 premières sont affichées ; le rapport en contient 1\u202f000 sur 1\u202f250.',
    );
    await expect(report.getByRole('row')).toHaveCount(51);
    // The June and August versions only: the refused file left nothing.
    expect(await api.versions(name, 'visits')).toHaveLength(2);
    await dismissToasts(depositorPage);
    await see('deposit-refused-count-fr');
    await switchLanguage(depositorPage, 'English');
    await expect(report.getByRole('heading', { name: `1,250 errors in ${years}` })).toBeVisible();
    await expect(report).toContainText('The first 50 are shown; the report holds 1,000 of the 1,250.');
    await see('deposit-refused-count-en');
    await switchLanguage(depositorPage, 'Français');
  });

  await test.step('the upload dialog of a data type without versions: the same note, and the server accepts the file', async () => {
    await depositorPage.goto(`/applications/${name}/dataTypes`);
    const dialog = depositorPage.getByTestId('csv-upload');
    const note = dialog.locator('[data-code="referenceOutsideReadPart"]');
    /** Opens the dialog of the sightings and checks a file naming a site of the Jura. */
    const check = async (labels: { load: string; file: string; check: string; verdict: string }) => {
      await depositorPage.getByRole('button', { name: labels.load, exact: true }).click();
      await dialog
        .getByLabel(labels.file, { exact: true })
        .setInputFiles(csv('sightings.csv', 'site;day\ncol_vert;01/06/2024\njura_02;02/06/2024\n'));
      await dialog.getByRole('button', { name: labels.check, exact: true }).click();
      await expect(dialog.getByText(labels.verdict)).toBeVisible();
    };
    await check({
      load: 'Charger un fichier CSV dans Observations',
      file: 'Fichier CSV',
      check: 'Vérifier',
      verdict: '2 lignes vérifiées : le fichier est valide.',
    });
    await expect(note).toHaveText(
      'Hors des lignes de Sites que vous pouvez lire, donc vérifié par le serveur seulement : jura_02.',
    );
    await dismissToasts(depositorPage);
    await look(depositorPage, 'upload-part-notes-fr');
    // The menu is out of reach while the dialog is open: closed, the language switched, opened again.
    await depositorPage.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await switchLanguage(depositorPage, 'English');
    await check({
      load: 'Load a CSV file into Sightings',
      file: 'CSV file',
      check: 'Check',
      verdict: '2 lines checked: the file is valid.',
    });
    await expect(note).toHaveText('Not among the rows of Sites you may read, so checked by the server only: jura_02.');
    await dismissToasts(depositorPage);
    await look(depositorPage, 'upload-part-notes-en');
    await dialog.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(dialog).toBeHidden();
    expect(await api.count(name, 'sightings', 'data')).toBe(2);
  });
  await context.close();
});
