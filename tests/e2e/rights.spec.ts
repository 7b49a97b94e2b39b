import { copyFile, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { APIRequestContext, Browser, Locator, Page, TestInfo } from '@playwright/test';
import { expect, test, toast } from './fixtures';
import { dismissToasts, registerUser, signIn, signInAsAdmin, switchLanguage } from './applicationSteps';
import { csvFixture, lookFromTop, publishCountsVersion, setUpApi, shownKeys } from './dataSteps';

/**
 * Data rights end to end on the surveys application (counts scoped by project and site, the day as time scope),
 * with three published versions: Lac Blanc in June and in July (Alps), Mont Joly in June (Pyrenees).
 * A manager grants a user the reading of Lac Blanc from 1 to 10 June in the form (after its checks and the locked
 * dependencies), the user sees those two rows only; a public authorization opens the Pyrenees rows to visitors;
 * revoking takes the rights back; the managers table gives a user manager, who may add but not revoke
 * authorizations. Screens of every page are saved in test-results/rights/<size>/, in French and in English.
 */

const JUNE = 'alps~lac_blanc~01-06-2024~30-06-2024.csv';
const HEADER = 'project;site;species;day;individuals';
const JULY = { name: 'alps~lac_blanc~01-07-2024~31-07-2024.csv', lines: ['alps;lac_blanc;lagopus;10/07/2024;4'] };
const MONT_JOLY = {
  name: 'pyrenees~mont_joly~01-06-2024~30-06-2024.csv',
  lines: ['pyrenees;mont_joly;lagopus;05/06/2024;7', 'pyrenees;mont_joly;tichodroma;20/06/2024;2'],
};
/** Every published row, as project;site;species;day: the June file holds three (two on 2 June, one on 15 June). */
const ALL_ROWS = [
  'alps;lac_blanc;lagopus;02/06/2024',
  'alps;lac_blanc;lagopus;10/07/2024',
  'alps;lac_blanc;tichodroma;02/06/2024',
  'alps;lac_blanc;tichodroma;15/06/2024',
  'pyrenees;mont_joly;lagopus;05/06/2024',
  'pyrenees;mont_joly;tichodroma;20/06/2024',
];
/** What reading Lac Blanc from 1 to 10 June 2024 gives. */
const LAC_BLANC_EARLY_JUNE = ['alps;lac_blanc;lagopus;02/06/2024', 'alps;lac_blanc;tichodroma;02/06/2024'];
/** What reading the Pyrenees project gives. */
const PYRENEES = ['pyrenees;mont_joly;lagopus;05/06/2024', 'pyrenees;mont_joly;tichodroma;20/06/2024'];

const COMMENT = 'Lecture des comptages du Lac Blanc du 1er au 10 juin 2024';
const LOCK_FR = 'induit par les dépendances, non modifiable directement';
const NOT_GRANTABLE_FR = 'vous ne pouvez pas donner ce droit';
const NOT_CHANGEABLE_FR =
  'Cette autorisation donne des droits que vous ne pouvez pas donner vous-même : seul quelqu’un qui peut tous les donner peut la modifier.';

/** The surveys application with its references and the three published versions. */
async function surveysWithData(page: Page, name: string) {
  const api = setUpApi(page);
  await api.createApplication(name, 'surveys.yaml');
  await api.loadReference(name, 'projects', 'surveys-projects.csv');
  await api.loadReference(name, 'sites', 'surveys-sites.csv');
  await api.loadReference(name, 'species', 'surveys-species.csv');
  await publishCountsVersion(page.request, name, JUNE, await readFile(csvFixture(JUNE)));
  for (const version of [JULY, MONT_JOLY])
    await publishCountsVersion(
      page.request,
      name,
      version.name,
      Buffer.from([HEADER, ...version.lines].join('\n') + '\n'),
    );
  expect(await api.count(name, 'counts', 'data')).toBe(ALL_ROWS.length);
}

/** The rows a caller reads through the API, as project;site;species;day, or the refusal status. */
async function readableRows(request: APIRequestContext, application: string): Promise<string[] | number> {
  const query = encodeURIComponent(JSON.stringify({ offset: 0, limit: 100 }));
  const answer = await request.get(
    `/api/v1/applications/${application}/data/counts/json?downloadDatasetQuery=${query}`,
  );
  if (!answer.ok()) return answer.status();
  const body = (await answer.json()) as { rows: Array<{ naturalKey: string }>; totalRows: number };
  expect(body.totalRows).toBe(body.rows.length);
  return body.rows.map((row) => rowOfKey(row.naturalKey)).sort();
}

/** A natural key of counts (project__site__species__dd_MM_yyyy) as project;site;species;dd/MM/yyyy. */
function rowOfKey(key: string | null): string {
  const parts = (key ?? '').split('__');
  expect(parts, `natural key ${key}`).toHaveLength(4);
  return [...parts.slice(0, 3), parts[3].replace(/_/g, '/')].join(';');
}

/** Another person on the same server: a browser context of their own, signed in or not. */
async function person(browser: Browser, login?: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  if (login) await signIn(page, login);
  return { context, page };
}

/**
 * Screenshot and accessibility check of the fixtures (from the top, no wider than the screen), copied to
 * test-results/rights/<size>/<name>.png.
 */
function screens(page: Page, look: (page: Page, name: string) => Promise<void>, testInfo: TestInfo) {
  return async (name: string) => {
    await dismissToasts(page);
    await lookFromTop(page, look, `rights-${name}`);
    const folder = path.resolve('test-results/rights', testInfo.project.name);
    await mkdir(folder, { recursive: true });
    await copyFile(
      path.resolve('test-results/screens', testInfo.project.name, `rights-${name}.png`),
      path.join(folder, `${name}.png`),
    );
  };
}

const authorizationRow = (page: Page, name: string) =>
  page.locator(`[data-testid="authorization-row"][data-name="${name}"]`);
const rightsEntry = (page: Page, entry: string) =>
  page.getByTestId('rights-table').locator(`[data-testid="rights-entry"][data-entry="${entry}"]`);
const scopeNode = (page: Page, naturalKey: string) =>
  page.getByTestId('rights-table').locator(`[data-testid="scope-node"][data-node="${naturalKey}"]`);
const box = (row: Locator, operation: string) => row.locator(`[data-operation="${operation}"]`);

async function expectLocked(checkbox: Locator, note = LOCK_FR) {
  await expect(checkbox).toBeChecked();
  await expect(checkbox).toBeDisabled();
  await expect(checkbox).toHaveAttribute('aria-label', new RegExp(`\\(${note}\\)$`));
}

async function expectFree(checkbox: Locator, checked: boolean) {
  await expect(checkbox).toBeEnabled();
  if (checked) await expect(checkbox).toBeChecked();
  else await expect(checkbox).not.toBeChecked();
  await expect(checkbox).not.toHaveAttribute('aria-label', /\(/);
}

test('data rights: a form that checks itself, locked dependencies, a site and a period granted to a user who reads only those rows, a public authorization for visitors, a revocation', async ({
  page,
  browser,
  request,
  unique,
  lastKey,
  look,
}, testInfo) => {
  test.setTimeout(240_000);
  const see = screens(page, look, testInfo);
  const name = unique('rights');
  const { login: reader } = await registerUser(request, lastKey, unique('reader'));
  await signInAsAdmin(page);
  await surveysWithData(page, name);
  const grant = `Lac Blanc début juin ${testInfo.project.name}`;
  const publicGrant = `Pyrénées pour tous ${testInfo.project.name}`;
  const list = `/applications/${name}/authorizations`;

  await test.step('neither a visitor nor the reader may read counts yet', async () => {
    const visitor = await person(browser);
    expect(await readableRows(visitor.page.request, name)).toBe(401);
    await visitor.context.close();
    const { context, page: readerPage } = await person(browser, reader);
    expect(await readableRows(readerPage.request, name)).toBe(403);
    await context.close();
  });

  await test.step('from the home page to the empty list of authorizations', async () => {
    await page.goto(`/applications/${name}`);
    await page.getByRole('link', { name: 'Droits sur les données' }).click();
    await expect(page).toHaveURL(new RegExp(`${list}$`));
    await expect(page.getByRole('heading', { name: 'Droits sur les données de Suivis de sites' })).toBeVisible();
    await expect(page.getByText('Rien à afficher.')).toBeVisible();
    // No public authorization yet: no box to show them.
    await expect(page.getByRole('checkbox', { name: 'Autorisations publiques' })).toHaveCount(0);
    await see('list-empty-fr');
  });

  await test.step('the form offers saving only with a name and a comment, and says what is wrong', async () => {
    await page.getByRole('link', { name: 'Ajouter une autorisation', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${list}/new$`));
    await expect(page.getByRole('heading', { name: 'Nouvelle autorisation' })).toBeVisible();
    const notice = page.getByText('Donnez un nom et un commentaire à l’autorisation pour l’enregistrer.');
    const save = page.getByRole('button', { name: 'Enregistrer', exact: true });
    await expect(notice).toBeVisible();
    await expect(save).toHaveCount(0);
    await page.getByLabel('Nom', { exact: true }).fill(grant);
    await expect(notice).toBeVisible();
    await expect(save).toHaveCount(0);

    const comment = page.getByLabel('Commentaire', { exact: true });
    await comment.fill('x'.repeat(256));
    await expect(notice).toBeHidden();
    await expect(save.first()).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: '255 caractères au plus.' })).toBeVisible();
    await expect(comment).toHaveAttribute('aria-invalid', 'true');
    await comment.fill(COMMENT);
    await expect(page.getByText('255 caractères au plus.')).toBeHidden();
    await expect(page.getByText(`${COMMENT.length} / 255 caractères`)).toBeVisible();
    await comment.fill('');
    await expect(notice).toBeVisible();
    await expect(save).toHaveCount(0);
    await comment.fill(COMMENT);

    // Saving now lists what is missing.
    await save.first().click();
    await expect(page.getByRole('alert').filter({ hasText: 'Choisissez au moins un utilisateur.' })).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: 'Cochez au moins un droit.' })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`${list}/new$`));

    await page.getByRole('radio', { name: 'Entre deux jours' }).click();
    const from = page.getByLabel('Du (jj-MM-AAAA)', { exact: true });
    const to = page.getByLabel('Au (jj-MM-AAAA)', { exact: true });
    const badDay = page
      .getByRole('alert')
      .filter({ hasText: 'Écrivez un jour sous la forme jj-MM-AAAA, éventuellement suivi de hh, hh:mm ou HH:mm:ss.' });
    await from.fill('2024-06-01');
    await expect(badDay).toBeVisible();
    await expect(from).toHaveAttribute('aria-invalid', 'true');
    await from.fill('31-02-2024');
    await expect(badDay).toBeVisible();
    await from.fill('01-06-2024');
    await to.fill('10-13-2024');
    await expect(badDay).toBeVisible();
    await expect(to).toHaveAttribute('aria-invalid', 'true');
    await to.fill('10-05-2024');
    await expect(
      page.getByRole('alert').filter({ hasText: 'La période se termine avant de commencer.' }),
    ).toBeVisible();
    await to.fill('10-06-2024');
    await expect(badDay).toBeHidden();
    await expect(from).not.toHaveAttribute('aria-invalid', 'true');
    await expect(to).not.toHaveAttribute('aria-invalid', 'true');
  });

  await test.step('deleting brings depositing, publishing and reading, locked until deleting is unchecked', async () => {
    const counts = rightsEntry(page, 'counts');
    await expect(counts).toBeVisible();
    await box(counts, 'delete').click();
    await expectFree(box(counts, 'delete'), true);
    await expectLocked(box(counts, 'depot'));
    await expectLocked(box(counts, 'extraction'));
    // Publishing and deleting come together on versioned data: each may still be unchecked.
    await expectFree(box(counts, 'publication'), true);
    await expect(box(counts, 'delete')).toHaveAttribute('aria-label', 'Supprimer — Comptages');
    await expect(box(counts, 'depot')).toHaveAttribute('aria-label', `Déposer — Comptages (${LOCK_FR})`);
    await see('form-locked-fr');

    await box(counts, 'delete').click();
    await expectFree(box(counts, 'delete'), false);
    await expectFree(box(counts, 'publication'), false);
    // Depositing stays as it was given, free again; reading stays because depositing needs it.
    await expectFree(box(counts, 'depot'), true);
    await expectLocked(box(counts, 'extraction'));
    await box(counts, 'depot').click();
    await expectFree(box(counts, 'extraction'), true);
    await box(counts, 'extraction').click();
    for (const operation of ['depot', 'publication', 'delete', 'extraction', 'admin'])
      await expectFree(box(counts, operation), false);

    // On a reference, deleting brings depositing and reading.
    const sites = rightsEntry(page, 'sites');
    await box(sites, 'delete').click();
    await expectLocked(box(sites, 'depot'));
    await expectLocked(box(sites, 'extraction'));
    await box(sites, 'delete').click();
    await box(sites, 'depot').click();
    await box(sites, 'extraction').click();
    for (const operation of ['depot', 'delete', 'extraction', 'admin']) await expectFree(box(sites, operation), false);
    await expect(box(sites, 'publication')).toHaveCount(0);
  });

  await test.step('reading on the Lac Blanc node of counts, for the reader; saved through the outbox', async () => {
    const counts = rightsEntry(page, 'counts');
    await counts.getByRole('button', { name: 'Limiter Comptages à des parties de son périmètre' }).click();
    await expect(page.getByRole('cell', { name: 'Par Projets' })).toBeVisible();
    await expect(page.getByRole('cell', { name: 'Par Sites' })).toBeVisible();
    await expect(scopeNode(page, 'alps')).toBeVisible();
    await expect(scopeNode(page, 'mont_joly')).toBeVisible();
    const lacBlanc = box(scopeNode(page, 'lac_blanc'), 'extraction');
    await lacBlanc.click();
    await expect(lacBlanc).toBeChecked();
    // The whole entry is partly granted.
    await expect(box(counts, 'extraction')).toHaveAttribute('aria-checked', 'mixed');
    await expect(box(scopeNode(page, 'mont_joly'), 'extraction')).not.toBeChecked();

    const picker = page.getByLabel('Ajouter un utilisateur', { exact: true });
    await picker.fill(reader.slice(0, 12));
    await page.getByRole('button', { name: new RegExp(`^${reader} `) }).click();
    await expect(page.getByTestId('chosen-user')).toHaveText(reader);
    await expect(page.getByRole('alert').filter({ hasText: 'Choisissez au moins un utilisateur.' })).toBeHidden();
    await expect(page.getByRole('alert').filter({ hasText: 'Cochez au moins un droit.' })).toBeHidden();
    await see('form-tree-fr');

    await page.getByRole('button', { name: 'Enregistrer', exact: true }).last().click();
    await expect(toast(page, `L’autorisation ${grant} a été enregistrée.`)).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`${list}$`));
    await expect(authorizationRow(page, grant)).toBeVisible();

    const stored = (await (await page.request.get(`/api/v1/applications/${name}/authorization`)).json()) as {
      authorizationResults: Array<{
        name: string;
        users: Array<{ login: string }>;
        authorizationForAll: object;
        authorizationsWithRestriction: Record<
          string,
          Array<{
            operationTypes: string[];
            requiredAuthorizations: Record<string, string[]>;
            fromDay: string;
            toDay: string;
          }>
        >;
      }>;
    };
    const saved = stored.authorizationResults.find((a) => a.name === grant)!;
    expect(saved.users.map((u) => u.login)).toEqual([reader]);
    expect(saved.authorizationForAll).toEqual({});
    expect(Object.keys(saved.authorizationsWithRestriction)).toEqual(['counts']);
    const [restriction] = saved.authorizationsWithRestriction.counts;
    expect(restriction).toMatchObject({ operationTypes: ['extraction'], fromDay: '2024-06-01', toDay: '2024-06-10' });
    expect(Object.keys(restriction.requiredAuthorizations)).toEqual(['site']);
    expect(restriction.requiredAuthorizations.site).toHaveLength(1);
    expect(restriction.requiredAuthorizations.site[0]).toMatch(/lac_blanc$/);
  });

  await test.step('the list: a row opened on its users and rights, the details dialog, by user', async () => {
    const row = authorizationRow(page, grant);
    await expect(row).toContainText('Lecture des comptages du Lac Blanc');
    await see('list-fr');
    await row.getByRole('button', { name: `Afficher les utilisateurs et les droits de ${grant}` }).click();
    await expect(
      row.getByRole('button', { name: `Afficher les utilisateurs et les droits de ${grant}` }),
    ).toHaveAttribute('aria-expanded', 'true');
    const summary = page.getByTestId('authorizations-table').getByTestId('privilege-summary');
    await expect(page.getByTestId('authorizations-table').getByText(`Utilisateurs : ${reader}`)).toBeVisible();
    await expect(summary).toHaveText(/^Comptages — Lire \(lac_blanc\s; 01-06-2024 → 10-06-2024\)$/);
    await see('list-open-fr');

    await row.getByRole('button', { name: `Détails de ${grant}` }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('heading', { name: grant })).toBeVisible();
    await expect(dialog).toContainText(`${reader} (${reader}@terrain.test)`);
    await expect(dialog.getByTestId('privilege-summary')).toHaveText(
      /^Comptages — Lire \(lac_blanc\s; 01-06-2024 → 10-06-2024\)$/,
    );
    await see('detail-fr');
    await dialog.getByRole('button', { name: 'Fermer' }).click();
    await expect(dialog).toBeHidden();

    await page.getByRole('tab', { name: 'Par utilisateur' }).click();
    await page.getByLabel('Rechercher', { exact: true }).fill(reader);
    const user = page.locator(`[data-testid="user-row"][data-login="${reader}"]`);
    await expect(user).toContainText(grant);
    await expect(page.getByTestId('user-row')).toHaveCount(1);
    await user.getByRole('button', { name: `Afficher les droits de ${reader}` }).click();
    await expect(page.getByTestId('privilege-summary')).toHaveText(
      /Comptages — Lire \(lac_blanc\s; 01-06-2024 → 10-06-2024\)/,
    );
    await see('list-by-user-fr');
    await page.getByRole('tab', { name: 'Par autorisation' }).click();
  });

  await test.step('the reader sees only the Lac Blanc rows of 1–10 June, and the buttons their rights open', async () => {
    const { context, page: readerPage } = await person(browser, reader);
    const seeReader = screens(readerPage, look, testInfo);
    await readerPage.goto(`/applications/${name}`);
    await expect(readerPage.getByRole('heading', { name: 'Suivis de sites' })).toBeVisible();
    await expect(readerPage.getByRole('link', { name: 'Jeux de données' })).toHaveAttribute(
      'href',
      `/applications/${name}/dataTypes`,
    );
    await expect(readerPage.getByRole('button', { name: 'Références' })).toBeDisabled();
    await expect(readerPage.getByRole('link', { name: 'Références' })).toHaveCount(0);
    // Not a manager: no rights card.
    await expect(readerPage.getByRole('link', { name: 'Droits sur les données' })).toHaveCount(0);
    await readerPage.getByRole('link', { name: 'Jeux de données' }).click();
    await readerPage.getByRole('link', { name: 'Consulter Comptages' }).click();
    await expect(readerPage.getByRole('heading', { name: 'Comptages', exact: true })).toBeVisible();
    await expect(readerPage.getByText('2 lignes', { exact: true })).toBeVisible();
    await expect(readerPage.getByTestId('reference-row')).toHaveCount(2);
    expect((await shownKeys(readerPage)).map(rowOfKey).sort()).toEqual(LAC_BLANC_EARLY_JUNE);
    await seeReader('reader-consultation-fr');
    expect(await readableRows(readerPage.request, name)).toEqual(LAC_BLANC_EARLY_JUNE);
    // The manager reads everything.
    expect(await readableRows(page.request, name)).toEqual(ALL_ROWS);
    // The rights screens are for managers.
    expect((await readerPage.request.get(`/api/v1/applications/${name}/authorization`)).status()).toBe(403);
    await context.close();
  });

  await test.step('revoking: cancelled once, then confirmed; the reader loses the rows', async () => {
    await page.goto(list);
    const row = authorizationRow(page, grant);
    await row.getByRole('button', { name: `Révoquer ${grant}` }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('heading', { name: `Révoquer ${grant} ?` })).toBeVisible();
    await expect(dialog).toContainText('Ses utilisateurs perdent les droits qu’elle donne.');
    await see('revoke-fr');
    await dialog.getByRole('button', { name: 'Annuler' }).click();
    await expect(dialog).toBeHidden();
    await expect(row).toBeVisible();
    await row.getByRole('button', { name: `Révoquer ${grant}` }).click();
    await dialog.getByRole('button', { name: 'Révoquer', exact: true }).click();
    await expect(toast(page, `L’autorisation ${grant} a été révoquée.`)).toBeVisible();
    await expect(row).toHaveCount(0);
    await expect(page.getByText('Rien à afficher.')).toBeVisible();
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Droits sur les données de Suivis de sites' })).toBeVisible();
    await expect(page.getByText('Rien à afficher.')).toBeVisible();

    const { context, page: readerPage } = await person(browser, reader);
    expect(await readableRows(readerPage.request, name)).toBe(403);
    await readerPage.goto(`/applications/${name}`);
    await expect(readerPage.getByRole('button', { name: 'Jeux de données' })).toBeDisabled();
    await readerPage.goto(`/applications/${name}/dataTypes/counts`);
    await expect(readerPage.getByRole('alert').first()).toBeVisible();
    await expect(readerPage.getByTestId('reference-row')).toHaveCount(0);
    await context.close();
  });

  await test.step('a public authorization: reading the Pyrenees rows, for visitors too', async () => {
    await page.getByRole('link', { name: 'Ajouter une autorisation publique' }).click();
    await expect(page).toHaveURL(new RegExp(`${list}/public/new$`));
    await expect(page.getByRole('heading', { name: 'Nouvelle autorisation publique' })).toBeVisible();
    await expect(
      page.getByText('Une autorisation publique permet à tous, connectés ou non, de lire les données qu’elle nomme.'),
    ).toBeVisible();
    // Only reading, and no users to choose.
    await expect(page.getByTestId('rights-table').getByRole('columnheader')).toHaveText(['Données', 'Lire']);
    await expect(page.getByLabel('Ajouter un utilisateur')).toHaveCount(0);
    await page.getByLabel('Nom', { exact: true }).fill(publicGrant);
    await page.getByLabel('Commentaire', { exact: true }).fill('Les comptages des Pyrénées sont ouverts à tous.');
    await rightsEntry(page, 'counts')
      .getByRole('button', { name: 'Limiter Comptages à des parties de son périmètre' })
      .click();
    await box(scopeNode(page, 'pyrenees'), 'extraction').click();
    await expect(box(rightsEntry(page, 'counts'), 'extraction')).toHaveAttribute('aria-checked', 'mixed');
    await see('form-public-fr');
    await page.getByRole('button', { name: 'Enregistrer', exact: true }).first().click();
    await expect(toast(page, `L’autorisation ${publicGrant} a été enregistrée.`)).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`${list}$`));

    // Public ones are listed apart.
    await expect(authorizationRow(page, publicGrant)).toHaveCount(0);
    const showPublic = page.getByRole('checkbox', { name: 'Autorisations publiques' });
    await showPublic.click();
    await expect(showPublic).toBeChecked();
    const row = authorizationRow(page, publicGrant);
    await expect(row).toBeVisible();
    await row.getByRole('button', { name: `Afficher les utilisateurs et les droits de ${publicGrant}` }).click();
    await expect(page.getByTestId('authorizations-table').getByText('Utilisateurs : tout le monde')).toBeVisible();
    await expect(page.getByTestId('privilege-summary')).toHaveText(/^Comptages — Lire \(pyrenees\)$/);
    await see('list-public-fr');

    const visitor = await person(browser);
    expect(await readableRows(visitor.page.request, name)).toEqual(PYRENEES);
    // The portal's screens ask visitors to sign in.
    await visitor.page.goto(`/applications/${name}/dataTypes/counts`);
    await expect(visitor.page).toHaveURL(/\/login/);
    await visitor.context.close();
    // Signed-in users read the public rows too.
    const { context, page: readerPage } = await person(browser, reader);
    expect(await readableRows(readerPage.request, name)).toEqual(PYRENEES);
    await context.close();
  });

  await test.step('in English: the list, an open row, the details and the public form with its tree open', async () => {
    await switchLanguage(page, 'English');
    await expect(page.getByRole('heading', { name: 'Data rights of Site surveys' })).toBeVisible();
    const showPublic = page.getByRole('checkbox', { name: 'Public authorizations' });
    if (!(await showPublic.isChecked())) await showPublic.click();
    const row = authorizationRow(page, publicGrant);
    const toggle = row.getByRole('button', { name: `Show the users and rights of ${publicGrant}` });
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    await expect(page.getByTestId('authorizations-table').getByText('Users: everyone')).toBeVisible();
    await expect(page.getByTestId('privilege-summary')).toHaveText(/^Counts — Read \(pyrenees\)$/);
    await see('list-open-en');
    await row.getByRole('button', { name: `Details of ${publicGrant}` }).click();
    await expect(page.getByRole('dialog').getByTestId('privilege-summary')).toHaveText(/^Counts — Read \(pyrenees\)$/);
    await see('detail-en');
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();

    await row.getByRole('link', { name: `Edit ${publicGrant}` }).click();
    await expect(page.getByRole('heading', { name: `Public authorization ${publicGrant}` })).toBeVisible();
    await expect(page.getByLabel('Name', { exact: true })).toHaveValue(publicGrant);
    await rightsEntry(page, 'counts').getByRole('button', { name: 'Restrict Counts to parts of its scope' }).click();
    await expect(box(scopeNode(page, 'pyrenees'), 'extraction')).toBeChecked();
    await expect(box(scopeNode(page, 'alps'), 'extraction')).not.toBeChecked();
    await see('form-tree-en');

    await page.goto(`/applications/${name}/authorizations/new`);
    await expect(page.getByRole('heading', { name: 'New authorization' })).toBeVisible();
    await expect(page.getByText('Give the authorization a name and a comment to save it.')).toBeVisible();
    await page.getByRole('radio', { name: 'Between two days' }).click();
    await page.getByLabel('From (dd-MM-YYYY)', { exact: true }).fill('1/6/2024');
    await expect(
      page
        .getByRole('alert')
        .filter({ hasText: 'Write a day as dd-MM-YYYY, optionally followed by hh, hh:mm or HH:mm:ss.' }),
    ).toBeVisible();
    await box(rightsEntry(page, 'counts'), 'delete').click();
    await expectLocked(
      box(rightsEntry(page, 'counts'), 'depot'),
      'induced by dependencies, cannot be modified directly',
    );
    await see('form-en');
    await switchLanguage(page, 'Français');
  });
});

test('managers table: a user manager is given, a change is cancelled by unchecking; the user manager adds authorizations but does not revoke them', async ({
  page,
  browser,
  request,
  unique,
  lastKey,
  look,
}, testInfo) => {
  test.setTimeout(240_000);
  // The accounts of this test share their ending: a search for it shows them alone.
  const ours = (login: string) => login.replace(/^(helper|other)/, '');
  const see = screens(page, look, testInfo);
  const name = unique('roles');
  const { login: helper } = await registerUser(request, lastKey, unique('helper'));
  const { login: other } = await registerUser(request, lastKey, unique('other'));
  await signInAsAdmin(page);
  await setUpApi(page).createApplication(name, 'surveys.yaml');
  // Two authorizations to list, sort and search.
  for (const [authorization, data] of [
    ['Beta species', 'species'],
    ['Alpha sites', 'sites'],
  ]) {
    const answer = await page.request.post(`/api/v1/applications/${name}/authorization`, {
      data: {
        name: authorization,
        description: `Reading ${data}`,
        usersId: [other],
        authorizationForAll: { [data]: ['extraction'] },
      },
    });
    expect(answer.status(), await answer.text()).toBe(201);
  }
  const rowNames = () =>
    page.getByTestId('authorization-row').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-name')));

  await test.step('the list sorted both ways and searched', async () => {
    await page.goto(`/applications/${name}/authorizations`);
    await expect(page.getByTestId('authorization-row')).toHaveCount(2);
    expect(await rowNames()).toEqual(['Alpha sites', 'Beta species']);
    await page
      .getByRole('columnheader', { name: /Autorisation/ })
      .getByRole('button')
      .click();
    await expect(page.getByRole('columnheader', { name: /Autorisation/ })).toHaveAttribute('aria-sort', 'descending');
    expect(await rowNames()).toEqual(['Beta species', 'Alpha sites']);
    await page.getByLabel('Rechercher', { exact: true }).fill('alp');
    await expect(page.getByTestId('authorization-row')).toHaveCount(1);
    await expect(authorizationRow(page, 'Alpha sites')).toBeVisible();
    await page.getByLabel('Rechercher', { exact: true }).fill('');
    await expect(page.getByTestId('authorization-row')).toHaveCount(2);
  });

  const row = (target: Page, login: string) => target.locator(`[data-testid="role-row"][data-login="${login}"]`);
  const roleBox = (target: Page, login: string, role: 'applicationManager' | 'userManager') =>
    row(target, login).locator(`[data-role="${role}"]`);

  await test.step('the managers table: a change undone by unchecking, then a user manager saved', async () => {
    await page.goto(`/applications/${name}`);
    await page.getByRole('link', { name: 'Gestionnaires', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/applications/${name}/authorizationsManagementForApplicationUsers$`));
    await expect(page.getByRole('heading', { name: 'Gestionnaires de Suivis de sites' })).toBeVisible();
    await page.getByLabel('Rechercher', { exact: true }).fill(ours(helper));
    await expect(row(page, helper)).toBeVisible();
    await expect(row(page, other)).toBeVisible();
    const save = page.getByRole('button', { name: /^Enregistrer \(\d+\)$/ });
    await expect(save).toHaveText('Enregistrer (0)');
    await expect(save).toBeDisabled();

    const userManager = roleBox(page, helper, 'userManager');
    await expect(userManager).toHaveAttribute('aria-label', `${helper} est Gestionnaire d’utilisateurs`);
    await expect(userManager).not.toBeChecked();
    await userManager.click();
    await expect(userManager).toBeChecked();
    await expect(save).toHaveText('Enregistrer (1)');
    await roleBox(page, other, 'applicationManager').click();
    await expect(save).toHaveText('Enregistrer (2)');
    await see('roles-pending-fr');
    // Unchecking what was just checked cancels the change.
    await roleBox(page, other, 'applicationManager').click();
    await expect(roleBox(page, other, 'applicationManager')).not.toBeChecked();
    await userManager.click();
    await expect(userManager).not.toBeChecked();
    await expect(save).toHaveText('Enregistrer (0)');
    await expect(save).toBeDisabled();

    await switchLanguage(page, 'English');
    await expect(page.getByRole('heading', { name: 'Managers of Site surveys' })).toBeVisible();
    const saveEn = page.getByRole('button', { name: /^Save \(\d+\)$/ });
    await page.getByLabel('Search', { exact: true }).fill(ours(helper));
    await roleBox(page, helper, 'userManager').click();
    await expect(roleBox(page, helper, 'userManager')).toHaveAttribute('aria-label', `${helper} is User manager`);
    await expect(saveEn).toHaveText('Save (1)');
    await see('roles-en');
    await saveEn.click();
    await expect(toast(page, 'The roles have been saved.')).toBeVisible();
    await expect(saveEn).toHaveText('Save (0)');
    await expect(roleBox(page, helper, 'userManager')).toBeChecked();
    await switchLanguage(page, 'Français');
    await expect(page.getByRole('heading', { name: 'Gestionnaires de Suivis de sites' })).toBeVisible();
    await page.getByLabel('Rechercher', { exact: true }).fill(ours(helper));
    await expect(roleBox(page, helper, 'userManager')).toBeChecked();
    await see('roles-fr');
  });

  await test.step('the user manager adds and edits authorizations, never revokes; sees the managers table without changing it', async () => {
    const { context, page: helperPage } = await person(browser, helper);
    const seeHelper = screens(helperPage, look, testInfo);
    await helperPage.goto(`/applications/${name}`);
    await helperPage.getByRole('link', { name: 'Droits sur les données' }).click();
    await expect(helperPage.getByRole('heading', { name: 'Droits sur les données de Suivis de sites' })).toBeVisible();
    await expect(helperPage.getByTestId('authorization-row')).toHaveCount(2);
    await expect(helperPage.getByRole('link', { name: 'Ajouter une autorisation', exact: true })).toBeVisible();
    await expect(helperPage.getByRole('link', { name: 'Ajouter une autorisation publique' })).toBeVisible();
    await expect(helperPage.getByRole('link', { name: 'Modifier Alpha sites' })).toBeVisible();
    await expect(helperPage.getByRole('button', { name: 'Détails de Alpha sites' })).toBeVisible();
    await expect(helperPage.getByRole('button', { name: /^Révoquer/ })).toHaveCount(0);
    await seeHelper('list-user-manager-fr');
    expect(
      (
        await helperPage.request.delete(
          `/api/v1/applications/${name}/authorization/${'0'.repeat(8)}-0000-0000-0000-${'0'.repeat(12)}`,
        )
      ).status(),
    ).toBe(403);

    await helperPage.goto(`/applications/${name}/authorizationsManagementForApplicationUsers`);
    await expect(helperPage.getByRole('heading', { name: 'Gestionnaires de Suivis de sites' })).toBeVisible();
    await helperPage.getByLabel('Rechercher', { exact: true }).fill(helper);
    await expect(roleBox(helperPage, helper, 'userManager')).toBeChecked();
    await expect(roleBox(helperPage, helper, 'userManager')).toBeDisabled();
    await expect(helperPage.getByRole('button', { name: /^Enregistrer/ })).toHaveCount(0);
    await context.close();
  });

  await test.step('the user manager gives only what they hold with the right to give it', async () => {
    // The manager lets the user manager read sites and give that reading away; nothing else.
    const held = await page.request.post(`/api/v1/applications/${name}/authorization`, {
      data: {
        name: 'Delegated sites',
        description: 'Reading sites, and giving it',
        usersId: [helper],
        authorizationForAll: { sites: ['extraction', 'admin'] },
      },
    });
    expect(held.status(), await held.text()).toBe(201);
    const { context, page: helperPage } = await person(browser, helper);
    const seeHelper = screens(helperPage, look, testInfo);
    await helperPage.goto(`/applications/${name}/authorizations/new`);
    await expect(helperPage.getByRole('heading', { name: 'Nouvelle autorisation' })).toBeVisible();
    const sites = rightsEntry(helperPage, 'sites');
    await expectFree(box(sites, 'extraction'), false);
    await expectFree(box(sites, 'admin'), false);
    for (const refused of [
      box(sites, 'depot'),
      box(sites, 'delete'),
      ...['depot', 'publication', 'delete', 'extraction', 'admin'].map((op) =>
        box(rightsEntry(helperPage, 'counts'), op),
      ),
      box(rightsEntry(helperPage, 'species'), 'extraction'),
    ]) {
      await expect(refused).toBeDisabled();
      await expect(refused).toHaveAttribute('aria-label', new RegExp(`\\(${NOT_GRANTABLE_FR}\\)$`));
    }
    await helperPage.getByLabel('Nom', { exact: true }).fill('Sites for other');
    await helperPage.getByLabel('Commentaire', { exact: true }).fill('Reading sites, given by the user manager');
    await helperPage.getByLabel('Ajouter un utilisateur', { exact: true }).fill(other.slice(0, 12));
    // A user manager chooses people by login: the addresses of others are for platform administrators.
    await expect(helperPage.getByLabel('Ajouter un utilisateur', { exact: true })).toHaveAttribute(
      'placeholder',
      'Rechercher un identifiant',
    );
    await helperPage.getByRole('button', { name: other, exact: true }).click();
    await box(sites, 'extraction').click();
    await expect(box(sites, 'extraction')).toBeChecked();
    await seeHelper('form-user-manager-fr');
    await helperPage.getByRole('button', { name: 'Enregistrer', exact: true }).last().click();
    await expect(toast(helperPage, 'L’autorisation Sites for other a été enregistrée.')).toBeVisible();
    await expect(authorizationRow(helperPage, 'Sites for other')).toBeVisible();
    const listed = (await (await page.request.get(`/api/v1/applications/${name}/authorization`)).json()) as {
      authorizationResults: Array<{ name: string; users: Array<{ login: string }>; authorizationForAll: object }>;
    };
    expect(listed.authorizationResults.find((a) => a.name === 'Sites for other')).toMatchObject({
      users: [{ login: other }],
      authorizationForAll: { sites: ['extraction'] },
    });
    // What the form keeps out of reach, the server refuses too.
    const beyond = await helperPage.request.post(`/api/v1/applications/${name}/authorization`, {
      data: {
        name: 'More',
        description: 'Depositing sites',
        usersId: [other],
        authorizationForAll: { sites: ['depot'] },
      },
    });
    expect(beyond.status()).toBe(403);
    await context.close();
  });

  await test.step('the user manager may change what they could give, not an authorization giving more: the form says so, the server refuses', async () => {
    const { context, page: helperPage } = await person(browser, helper);
    const seeHelper = screens(helperPage, look, testInfo);
    const edit = async (authorization: string, title: string) => {
      await helperPage.goto(`/applications/${name}/authorizations`);
      await helperPage.getByRole('link', { name: new RegExp(`^(Modifier|Edit) ${authorization}$`) }).click();
      await expect(helperPage.getByRole('heading', { name: title })).toBeVisible();
    };
    await edit('Alpha sites', 'Autorisation Alpha sites');
    await expect(helperPage.getByText(NOT_CHANGEABLE_FR)).toHaveCount(0);
    await expect(helperPage.getByRole('button', { name: 'Enregistrer', exact: true }).first()).toBeVisible();
    await edit('Beta species', 'Autorisation Beta species');
    await expect(helperPage.getByText(NOT_CHANGEABLE_FR)).toBeVisible();
    await expect(helperPage.getByRole('button', { name: 'Enregistrer', exact: true })).toHaveCount(0);
    await seeHelper('form-not-changeable-fr');
    // Replaced by what the user manager may give, it would take the species away from its people: refused.
    const listed = (await (await page.request.get(`/api/v1/applications/${name}/authorization`)).json()) as {
      authorizationResults: Array<{ uuid: string; name: string }>;
    };
    const beta = listed.authorizationResults.find((a) => a.name === 'Beta species')!;
    const replaced = await helperPage.request.post(`/api/v1/applications/${name}/authorization`, {
      data: {
        uuid: beta.uuid,
        name: 'Beta species',
        description: 'Reading sites instead',
        usersId: [other],
        authorizationForAll: { sites: ['extraction'] },
      },
    });
    expect(replaced.status()).toBe(403);
    expect(((await replaced.json()) as { code: string }).code).toBe('NO_RIGHT_FOR_AUTHORIZATION_CHANGE');
    await switchLanguage(helperPage, 'English');
    await edit('Beta species', 'Authorization Beta species');
    await expect(
      helperPage.getByText(
        'This authorization gives rights you may not give yourself: only someone who may give all of them can change it.',
      ),
    ).toBeVisible();
    await seeHelper('form-not-changeable-en');
    await context.close();
  });
});

/** Massifs: places within places, sightings (without versioning) by place and day. */
const SIGHTINGS_CSV = [
  'place;day;birds',
  'mont_blanc;05/06/2024;1',
  'aiguilles;20/06/2024;2',
  'aiguilles;15/07/2024;3',
  'alps;05/06/2024;5',
  'mont_blanc_sud;05/06/2024;6',
  'vanoise;05/06/2024;4',
].join('\n');
/** The Mont Blanc and the places below it, in June 2024. */
const MONT_BLANC_IN_JUNE = ['aiguilles__20_06_2024', 'mont_blanc__05_06_2024'];

test('a sub-tree and a period: parents partly checked, children checked through their parent, a parent checked when all its children are; the user reads the rows below the node in the period only', async ({
  page,
  browser,
  request,
  unique,
  lastKey,
  look,
}, testInfo) => {
  test.setTimeout(180_000);
  const see = screens(page, look, testInfo);
  const name = unique('massifs');
  const { login: walker } = await registerUser(request, lastKey, unique('walker'));
  await signInAsAdmin(page);
  const api = setUpApi(page);
  await api.createApplication(name, 'massifs.yaml');
  await api.loadReference(name, 'places', 'massifs-places.csv');
  const loaded = await page.request.post(`/api/v1/applications/${name}/data/sightings`, {
    multipart: { file: { name: 'sightings.csv', mimeType: 'text/csv', buffer: Buffer.from(SIGHTINGS_CSV + '\n') } },
  });
  expect(loaded.status(), await loaded.text()).toBe(201);
  const grant = `Mont Blanc en juin ${testInfo.project.name}`;
  const place = (key: string) => box(scopeNode(page, key), 'extraction');

  await test.step('the tree of places: a node checked with its sub-tree, then a parent checked when every child is, then giving way to the siblings', async () => {
    await page.goto(`/applications/${name}/authorizations/new`);
    await page.getByLabel('Nom', { exact: true }).fill(grant);
    await page
      .getByLabel('Commentaire', { exact: true })
      .fill('Les observations du Mont Blanc et de ce qu’il contient, en juin 2024');
    await page.getByRole('radio', { name: 'Entre deux jours' }).click();
    await page.getByLabel('Du (jj-MM-AAAA)', { exact: true }).fill('01-06-2024');
    await page.getByLabel('Au (jj-MM-AAAA)', { exact: true }).fill('30-06-2024');
    const sightings = rightsEntry(page, 'sightings');
    await sightings.getByRole('button', { name: 'Limiter Observations à des parties de son périmètre' }).click();
    await expect(page.getByRole('cell', { name: 'Par Lieux' })).toBeVisible();
    await expect(scopeNode(page, 'mont_blanc')).toHaveCount(0);
    await page.getByRole('button', { name: 'Afficher les parties de alps' }).click();
    await page.getByRole('button', { name: 'Afficher les parties de mont_blanc', exact: true }).click();
    await expect(scopeNode(page, 'aiguilles')).toBeVisible();

    await place('mont_blanc').click();
    await expect(place('mont_blanc')).toBeChecked();
    await expect(place('aiguilles')).toBeChecked();
    await expect(place('alps')).toHaveAttribute('aria-checked', 'mixed');
    await expect(box(sightings, 'extraction')).toHaveAttribute('aria-checked', 'mixed');
    await expect(place('mont_blanc_sud')).not.toBeChecked();
    await expect(place('vanoise')).not.toBeChecked();

    // Every child of the Alps checked: the Alps are checked instead.
    await place('mont_blanc_sud').click();
    await place('vanoise').click();
    await expect(place('alps')).toBeChecked();
    // One child unchecked under the checked Alps: the Alps give way to the other children.
    await place('vanoise').click();
    await expect(place('alps')).toHaveAttribute('aria-checked', 'mixed');
    await expect(place('mont_blanc')).toBeChecked();
    await expect(place('mont_blanc_sud')).toBeChecked();
    await expect(place('vanoise')).not.toBeChecked();
    await place('mont_blanc_sud').click();
    await expect(place('mont_blanc_sud')).not.toBeChecked();
    await expect(place('aiguilles')).toBeChecked();

    await page.getByLabel('Ajouter un utilisateur', { exact: true }).fill(walker.slice(0, 12));
    await page.getByRole('button', { name: new RegExp(`^${walker} `) }).click();
    await see('form-sub-tree-fr');
    await page.getByRole('button', { name: 'Enregistrer', exact: true }).last().click();
    await expect(toast(page, `L’autorisation ${grant} a été enregistrée.`)).toBeVisible();
    const stored = (await (await page.request.get(`/api/v1/applications/${name}/authorization`)).json()) as {
      authorizationResults: Array<{
        name: string;
        authorizationsWithRestriction: Record<
          string,
          Array<{
            operationTypes: string[];
            requiredAuthorizations: Record<string, string[]>;
            fromDay: string;
            toDay: string;
          }>
        >;
      }>;
    };
    expect(stored.authorizationResults.find((a) => a.name === grant)?.authorizationsWithRestriction).toEqual({
      sightings: [
        {
          operationTypes: ['extraction'],
          requiredAuthorizations: { place: ['placesKalps.placesKmont_blanc'] },
          fromDay: '2024-06-01',
          toDay: '2024-06-30',
        },
      ],
    });
  });

  await test.step('the user reads the Mont Blanc and the Aiguilles in June, nothing else', async () => {
    const { context, page: walkerPage } = await person(browser, walker);
    const query = encodeURIComponent(JSON.stringify({ offset: 0, limit: 100 }));
    const answer = await walkerPage.request.get(
      `/api/v1/applications/${name}/data/sightings/json?downloadDatasetQuery=${query}`,
    );
    expect(answer.status()).toBe(200);
    expect(
      ((await answer.json()) as { rows: Array<{ naturalKey: string }> }).rows.map((row) => row.naturalKey).sort(),
    ).toEqual(MONT_BLANC_IN_JUNE);
    await walkerPage.goto(`/applications/${name}/dataTypes/sightings`);
    await expect(walkerPage.getByRole('heading', { name: 'Observations', exact: true })).toBeVisible();
    await expect(walkerPage.getByText('2 lignes', { exact: true })).toBeVisible();
    expect(((await shownKeys(walkerPage)) as string[]).sort()).toEqual(MONT_BLANC_IN_JUNE);
    await screens(walkerPage, look, testInfo)('sub-tree-reader-fr');
    await context.close();
  });

  await test.step('in English: the tree of the saved authorization', async () => {
    await switchLanguage(page, 'English');
    await page.getByRole('link', { name: `Edit ${grant}` }).click();
    await expect(page.getByRole('heading', { name: `Authorization ${grant}` })).toBeVisible();
    await rightsEntry(page, 'sightings')
      .getByRole('button', { name: 'Restrict Sightings to parts of its scope' })
      .click();
    await page.getByRole('button', { name: 'Show the parts of alps' }).click();
    await page.getByRole('button', { name: 'Show the parts of mont_blanc', exact: true }).click();
    // Opening the tree does not submit the form: still editing.
    await expect(page).toHaveURL(/\/authorizations\/[0-9a-f-]{36}$/);
    await expect(place('mont_blanc')).toBeChecked();
    await expect(place('aiguilles')).toBeChecked();
    await expect(place('alps')).toHaveAttribute('aria-checked', 'mixed');
    await expect(place('mont_blanc')).toHaveAttribute('aria-label', 'Read — Sightings — mont_blanc');
    await see('form-sub-tree-en');
    await switchLanguage(page, 'Français');
  });
});
