import { readFile } from 'node:fs/promises';
import type { Locator, Page } from '@playwright/test';
import { expect, test, toast } from './fixtures';
import { dismissToasts, registerUser, signIn, signInAsAdmin, switchLanguage } from './applicationSteps';
import {
  csvFixture,
  csvLines,
  download,
  goOffline,
  goOnline,
  lookFromTop,
  publishCountsVersion,
  setUpApi,
  shownKeys,
  waitForServiceWorker,
  zipTexts,
} from './dataSteps';

/**
 * Versioned deposits end to end on the surveys application (counts scoped by project and site, with the day as
 * time scope, file names `project~site~start~end.csv`): offline, a file with a line outside the period is refused
 * by the worker, the right file fills the dataset from its name and is queued; back online it becomes exactly one
 * version, published from the UI; the published rows are consulted, filtered and exported; a version overlapping
 * the published one is refused with a translated message; French and English. Then a reader restricted to June:
 * versions their rights cover whole are listed, the rows they may read of the others come from the export, and a
 * download refused once their rights narrowed offers the rows of that version they still may read.
 */

const FIRST = 'alps~lac_blanc~01-06-2024~30-06-2024.csv';
const OVERLAPPING = 'alps~lac_blanc~15-06-2024~15-07-2024.csv';

const node = (page: Page, name: string) => page.locator(`[data-testid="reference-node"][data-name="${name}"]`);
/** The option a select shows (scope options hold hierarchical keys; they show the natural key here). */
const chosen = (select: Locator) => select.locator('option:checked');
const periodRow = (page: Page, text: string | RegExp) =>
  page.getByTestId('periods').getByRole('row').filter({ hasText: text });

test('deposits: checked offline with errors, fixed from the file name, queued, sent once online, published, consulted, filtered, exported; an overlap is refused', async ({
  page,
  context,
  unique,
  look,
}) => {
  test.setTimeout(240_000);
  const see = (screen: string) => lookFromTop(page, look, screen);
  const name = unique('deps');
  await signInAsAdmin(page);
  const api = setUpApi(page);
  await api.createApplication(name, 'surveys.yaml');
  await api.loadReference(name, 'projects', 'surveys-projects.csv');
  await api.loadReference(name, 'sites', 'surveys-sites.csv');
  await api.loadReference(name, 'species', 'surveys-species.csv');

  const projects = page.getByLabel('Projets', { exact: true });
  const sites = page.getByLabel('Sites', { exact: true });
  const start = page.getByLabel('Date de début', { exact: true });
  const end = page.getByLabel('Date de fin', { exact: true });
  const fileInput = page.getByLabel('Fichier CSV', { exact: true });

  await test.step('the data types, then the deposits page, visited online once', async () => {
    await waitForServiceWorker(page);
    await page.goto(`/applications/${name}/dataTypes`);
    await expect(page.getByRole('heading', { name: 'Types de données de Suivis de sites' })).toBeVisible();
    await expect(node(page, 'counts').getByLabel('0 lignes')).toBeVisible();
    await see('data-types-empty-fr');
    await page.getByRole('link', { name: 'Dépôts de Comptages' }).click();
    await expect(page).toHaveURL(new RegExp(`/applications/${name}/dataVersioning/counts$`));
    await expect(page.getByRole('heading', { name: 'Dépôts de Comptages' })).toBeVisible();
    await expect(projects).toBeVisible();
    // Versions load once every scope is chosen.
    await expect(page.getByTestId('periods')).toHaveCount(0);
    await projects.selectOption({ label: 'alps' });
    await sites.selectOption({ label: 'lac_blanc' });
    await expect(page.getByText('Pas encore de version pour ce jeu de données.')).toBeVisible();
    await see('deposits-empty-fr');
  });

  await test.step('offline: a file with a line outside the period, refused by the worker', async () => {
    await goOffline(context, page);
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Dépôts de Comptages' })).toBeVisible();
    await expect(page.getByTestId('offline-badge')).toBeVisible();
    await projects.selectOption({ label: 'alps' });
    await sites.selectOption({ label: 'lac_blanc' });
    await start.fill('2024-06-01');
    await end.fill('2024-06-30');
    await fileInput.setInputFiles(csvFixture('surveys-outside-period.csv'));
    // The name does not follow the pattern: the dataset stays as chosen.
    await expect(chosen(projects)).toHaveText('alps');
    await expect(start).toHaveValue('2024-06-01');
    const deposit = page.getByRole('button', { name: 'Déposer', exact: true });
    await expect(deposit).toBeDisabled();
    await page.getByRole('button', { name: 'Vérifier', exact: true }).click();
    const report = page.getByTestId('csv-report');
    await expect(report.getByRole('heading', { name: '1 erreur dans surveys-outside-period.csv' })).toBeVisible();
    const error = report.locator('[data-code="timerangeoutofinterval"]');
    await expect(error).toHaveCount(1);
    await expect(error.getByRole('cell').first()).toHaveText('3');
    await expect(error).toContainText(
      'La date 12/08/2024 est hors de la période du dépôt (1 juin 2024 – 30 juin 2024).',
    );
    await expect(error).not.toContainText(/translation missing|csvError/i);
    await expect(deposit).toBeDisabled();
    await dismissToasts(page);
    await see('deposit-errors-offline-fr');
    const saved = await download(page, () => report.getByRole('button', { name: 'Télécharger le rapport' }).click());
    const lines = csvLines(saved.bytes, ';');
    expect(lines).toHaveLength(2);
    expect(lines[1].slice(0, 3)).toEqual(['3', 'day', '12/08/2024']);
    expect(lines[1][3]).toBe('La date 12/08/2024 est hors de la période du dépôt (1 juin 2024 – 30 juin 2024).');
  });

  await test.step('offline: the right file fills the dataset and the period from its name, is checked and queued', async () => {
    // Another dataset chosen first: the name puts back the one it states.
    await projects.selectOption({ label: 'pyrenees' });
    await sites.selectOption({ label: 'mont_joly' });
    await start.fill('2024-01-01');
    await end.fill('2024-01-31');
    // The naming rule is written as a file name, never as its regular expression.
    await expect(
      page.getByText(
        /^Un fichier nommé ‹[^›]+›~‹[^›]+›~‹date de début›~‹date de fin›\.csv remplit le jeu de données et la période\.$/,
      ),
    ).toBeVisible();
    await fileInput.setInputFiles(csvFixture(FIRST));
    await expect(toast(page, 'Le jeu de données a été lu dans le nom du fichier.')).toBeVisible();
    await expect(chosen(projects)).toHaveText('alps');
    await expect(chosen(sites)).toHaveText('lac_blanc');
    await expect(start).toHaveValue('2024-06-01');
    await expect(end).toHaveValue('2024-06-30');
    await expect(page.getByTestId('csv-report')).toHaveCount(0);
    await page.getByLabel('Commentaire', { exact: true }).fill('Relevés de juin');
    await page.getByRole('button', { name: 'Vérifier', exact: true }).click();
    await expect(page.getByText('3 lignes vérifiées : le fichier est valide.')).toBeVisible();
    await dismissToasts(page);
    await see('deposit-valid-offline-fr');
    await page.getByRole('button', { name: 'Déposer', exact: true }).click();
    await expect(toast(page, 'Enregistré sur cet appareil.')).toBeVisible();
    const pending = page.getByTestId('pending-deposit');
    await expect(pending).toHaveCount(1);
    await expect(pending).toContainText('envoi en attente');
    await expect(pending).toContainText(FIRST);
    await expect(pending).toContainText('(1 juin 2024 – 30 juin 2024)');
    await expect(page.getByTestId('pending-badge')).toHaveText('1');
    expect(await api.versions(name, 'counts')).toHaveLength(0);
    await dismissToasts(page);
    await see('deposit-pending-fr');
  });

  await test.step('back online: sent once, one version', async () => {
    await goOnline(context, page);
    await expect(page.getByTestId('pending-deposit')).toHaveCount(0, { timeout: 30_000 });
    await expect(page.getByTestId('pending-badge')).toHaveCount(0);
    const period = periodRow(page, '1 juin 2024 – 30 juin 2024');
    await expect(period).toBeVisible();
    await expect(period).toContainText('non publiée');
    let versions = await api.versions(name, 'counts');
    expect(versions.map((v) => v.name)).toEqual([FIRST]);
    // Syncing again and reloading (which triggers a pass) sends nothing more.
    await page.goto('/pendingChanges');
    const sent = page.getByTestId('pending-change').filter({ hasText: FIRST });
    await expect(sent).toHaveAttribute('data-status', 'done');
    // Named by its data type and dataset, which tell two deposits of one file name apart.
    await expect(sent).toContainText(`Déposer ${FIRST} dans le type de données counts de ${name}`);
    await expect(sent.getByTestId('pending-dataset')).toHaveText(
      'Jeu de données : alps · lac_blanc · 1 juin 2024 – 30 juin 2024',
    );
    const syncNow = page.getByRole('button', { name: 'Synchroniser maintenant' });
    await syncNow.click();
    await page.reload();
    // A pass asked for after the reload's own waits for it (one pass at a time): once "Sync now" is enabled again
    // after a click, both passes are over and anything they sent has been answered.
    await syncNow.click();
    await expect(syncNow).toBeEnabled();
    versions = await api.versions(name, 'counts');
    expect(versions).toHaveLength(1);
    expect(versions[0].published).toBe(false);
  });

  await test.step('publish from the UI', async () => {
    await page.goto(`/applications/${name}/dataVersioning/counts`);
    await projects.selectOption({ label: 'alps' });
    await sites.selectOption({ label: 'lac_blanc' });
    const period = periodRow(page, '1 juin 2024 – 30 juin 2024');
    await period.getByRole('button').click();
    await expect(page.getByRole('heading', { name: 'Versions de 1 juin 2024 – 30 juin 2024' })).toBeVisible();
    const version = page.getByTestId('version-row');
    await expect(version).toHaveCount(1);
    await expect(version).toHaveAttribute('data-published', 'false');
    await expect(version).toHaveAttribute('title', 'Relevés de juin');
    const publish = version.getByRole('switch', { name: 'Publier la version 1' });
    await expect(publish).not.toBeChecked();
    await publish.click();
    await expect(toast(page, 'La version a été publiée.')).toBeVisible({ timeout: 30_000 });
    await expect(period).toContainText('version 1 publiée');
    await expect(version).toHaveAttribute('data-published', 'true');
    await expect(version.getByRole('switch', { name: 'Dépublier la version 1' })).toBeChecked();
    expect((await api.versions(name, 'counts'))[0].published).toBe(true);
    await dismissToasts(page);
    await see('deposit-published-fr');
    const saved = await download(page, () => version.getByRole('button', { name: 'Télécharger la version 1' }).click());
    expect(saved.fileName).toBe(FIRST);
    expect(saved.bytes.toString('utf8')).toContain('alps;lac_blanc;tichodroma;02/06/2024;3');
  });

  await test.step('consult the published rows: three lines; filter and export', async () => {
    await page.goto(`/applications/${name}/dataTypes`);
    await expect(node(page, 'counts').getByLabel('3 lignes')).toBeVisible();
    // The synthesis: lines over time, from the first to the last day of the published rows.
    await expect(
      node(page, 'counts').getByRole('button', {
        name: /^Synthèse de Comptages\s: lignes du 2 juin 2024 au 15 juin 2024/,
      }),
    ).toBeVisible();
    await see('data-types-fr');
    await page.getByRole('link', { name: 'Consulter Comptages' }).click();
    await expect(page).toHaveURL(new RegExp(`/applications/${name}/dataTypes/counts$`));
    await expect(page.getByRole('heading', { name: 'Comptages', exact: true })).toBeVisible();
    await expect(page.getByText('3 lignes', { exact: true })).toBeVisible();
    await expect(page.getByTestId('reference-row')).toHaveCount(3);
    await see('data-consultation-fr');

    await page.getByRole('button', { name: 'Filtres' }).click();
    const individuals = page.getByTestId('filter-panel').getByRole('group', { name: 'individuals' });
    // A reversed interval is refused in the form, not counted as a filter, and filters nothing.
    await individuals.getByLabel('de').fill('10');
    await expect(individuals.getByText('Donnez les deux bornes de l’intervalle pour filtrer.')).toBeVisible();
    await individuals.getByLabel('à').fill('2');
    await expect(individuals.getByText('La fin de l’intervalle doit venir après son début.')).toBeVisible();
    await expect(individuals.getByLabel('à')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByRole('button', { name: 'Filtres', exact: true })).toBeVisible();
    await expect(page.getByText('3 lignes', { exact: true })).toBeVisible();
    await see('data-filter-reversed-fr');
    await individuals.getByLabel('de').fill('2');
    await individuals.getByLabel('à').fill('10');
    await expect(individuals.getByRole('status')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Filtres (1)' })).toBeVisible();
    await expect(page.getByText('2 lignes', { exact: true })).toBeVisible();
    await expect(page.getByTestId('reference-row')).toHaveCount(2);
    const keys = await shownKeys(page);
    expect(keys.every((key) => !key?.includes('15/06/2024'))).toBe(true);
    await dismissToasts(page);
    await see('data-filtered-fr');

    // A row's details give the rows it points to by their natural keys, and open them in turn.
    await page.getByRole('button', { name: /^Détails de alps__lac_blanc__lagopus/ }).click();
    const details = page.getByTestId('row-details');
    await expect(details.getByRole('button', { name: 'lagopus', exact: true })).toBeVisible();
    await expect(details).not.toContainText(/[a-z_]K[a-z0-9_]/);
    await see('data-row-details-fr');
    await details.getByRole('button', { name: 'lac_blanc', exact: true }).click();
    await expect(details.getByRole('heading')).toHaveText(/lac_blanc$/);
    await expect(details).not.toContainText(/[a-z_]K[a-z0-9_]/);
    await page.keyboard.press('Escape');
    await expect(details).toHaveCount(0);

    await page.getByRole('button', { name: 'Exporter' }).click();
    const saved = await download(page, () =>
      page.getByRole('menuitem', { name: 'Zip : le CSV et les références vers lesquelles il pointe' }).click(),
    );
    expect(saved.fileName).toBe('export.zip');
    const files = zipTexts(saved.bytes);
    expect(Object.keys(files).sort()).toEqual([
      'counts.csv',
      'references/projects.csv',
      'references/sites.csv',
      'references/species.csv',
    ]);
    const counts = files['counts.csv'].split(/\r?\n/).filter(Boolean);
    expect(counts).toHaveLength(3);
    expect(files['counts.csv']).toContain('02/06/2024');
    expect(files['counts.csv']).not.toContain('15/06/2024');
    expect(files['references/sites.csv']).toContain('lac_blanc');
  });

  await test.step('a version overlapping the published one is refused, with the translated message', async () => {
    await page.goto(`/applications/${name}/dataVersioning/counts`);
    await fileInput.setInputFiles(csvFixture(OVERLAPPING));
    await expect(chosen(projects)).toHaveText('alps');
    await expect(chosen(sites)).toHaveText('lac_blanc');
    await expect(start).toHaveValue('2024-06-15');
    await expect(end).toHaveValue('2024-07-15');
    await page.getByRole('button', { name: 'Vérifier', exact: true }).click();
    await expect(page.getByText('1 ligne vérifiée : le fichier est valide.')).toBeVisible();
    await page.getByRole('button', { name: 'Déposer', exact: true }).click();
    await expect(toast(page, `Le fichier ${OVERLAPPING} a été déposé.`)).toBeVisible();
    const period = periodRow(page, '15 juin 2024 – 15 juil. 2024');
    await expect(period).toContainText('non publiée');
    await period.getByRole('button').click();
    await page.getByTestId('version-row').getByRole('switch', { name: 'Publier la version 1' }).click();
    const refusal = toast(page, 'Une version publiée de ce jeu de données couvre une partie de cette période');
    await expect(refusal).toBeVisible({ timeout: 30_000 });
    await expect(refusal).toContainText(FIRST);
    await expect(refusal).not.toContainText(/translation missing|exceptionMessage/i);
    await expect(period).toContainText('non publiée');
    await expect(periodRow(page, '1 juin 2024 – 30 juin 2024')).toContainText('version 1 publiée');
    await see('deposit-overlap-fr');
    const versions = await api.versions(name, 'counts');
    expect(versions.filter((v) => v.published).map((v) => v.name)).toEqual([FIRST]);
    expect(await api.count(name, 'counts', 'data')).toBe(3);
  });

  await test.step('offline: the same publication queued, then refused by its job once sent; the toast, the pending change and the version say why', async () => {
    const version = page.getByTestId('version-row');
    // Said under the versions' table, where a phone shows it whole.
    await expect(page.getByTestId('version-job-failed')).toContainText(
      'La publication de la version 1 a échoué : Une version publiée de ce jeu de données couvre une partie de cette période',
    );
    await dismissToasts(page);
    await goOffline(context, page);
    await version.getByRole('switch', { name: 'Publier la version 1' }).click();
    await expect(toast(page, 'Enregistré sur cet appareil.')).toBeVisible();
    await dismissToasts(page);
    await goOnline(context, page);
    // Accepted by the server (the change is applied), the job then fails: that is what the user is told.
    const refused = toast(page, 'La version n’a pas pu être publiée.');
    await expect(refused).toBeVisible({ timeout: 30_000 });
    await expect(refused).toContainText('Une version publiée de ce jeu de données couvre une partie de cette période');
    await expect(refused).toContainText(`Publier la version ${OVERLAPPING} du type de données counts de ${name}`);
    await expect(page.getByTestId('pending-badge')).toHaveCount(0);
    await page.goto('/pendingChanges');
    // Sent twice: online, then from the device; each was accepted, then refused by its job.
    const changes = page.getByTestId('pending-change').filter({ hasText: `Publier la version ${OVERLAPPING}` });
    await expect(changes).toHaveCount(2);
    const change = changes.last();
    await expect(change).toHaveAttribute('data-status', 'done');
    await expect(change.getByTestId('pending-job')).toContainText(
      'La publication a échoué : Une version publiée de ce jeu de données couvre une partie de cette période',
    );
    await dismissToasts(page);
    await see('pending-publication-failed-fr');
    await switchLanguage(page, 'English');
    const changeInEnglish = page
      .getByTestId('pending-change')
      .filter({ hasText: `Publish the version ${OVERLAPPING}` })
      .last();
    await expect(changeInEnglish.getByTestId('pending-job')).toContainText(
      'The publication failed: A published version of this dataset covers part of this period',
    );
    await see('pending-publication-failed-en');
    await switchLanguage(page, 'Français');
    expect((await api.versions(name, 'counts')).filter((v) => v.published).map((v) => v.name)).toEqual([FIRST]);
    await page.goto(`/applications/${name}/dataVersioning/counts`);
    await projects.selectOption({ label: 'alps' });
    await sites.selectOption({ label: 'lac_blanc' });
    await periodRow(page, '15 juin 2024 – 15 juil. 2024').getByRole('button').click();
    await expect(page.getByTestId('version-job-failed')).toBeVisible();
    await see('deposit-publication-failed-fr');
  });

  await test.step('the same in English', async () => {
    await dismissToasts(page);
    await switchLanguage(page, 'English');
    await expect(page.getByRole('heading', { name: 'Deposits of Counts' })).toBeVisible();
    await expect(periodRow(page, 'Jun 1, 2024 – Jun 30, 2024')).toContainText('version 1 published');
    const period = periodRow(page, 'Jun 15, 2024 – Jul 15, 2024');
    await expect(period).toContainText('not published');
    await period.getByRole('button').click();
    await page.getByTestId('version-row').getByRole('switch', { name: 'Publish version 1' }).click();
    const refusal = toast(page, 'A published version of this dataset covers part of this period');
    await expect(refusal).toBeVisible({ timeout: 30_000 });
    await expect(refusal).toContainText(FIRST);
    await see('deposit-overlap-en');

    await page.getByLabel('CSV file', { exact: true }).setInputFiles(csvFixture('surveys-outside-period.csv'));
    await page.getByLabel('Start date', { exact: true }).fill('2024-06-01');
    await page.getByLabel('End date', { exact: true }).fill('2024-06-30');
    await page.getByRole('button', { name: 'Check', exact: true }).click();
    const error = page.getByTestId('csv-report').locator('[data-code="timerangeoutofinterval"]');
    await expect(error).toContainText(
      'The date 12/08/2024 is outside the period of the deposit (Jun 1, 2024 – Jun 30, 2024).',
    );
    await dismissToasts(page);
    await see('deposit-errors-en');

    await page.goto(`/applications/${name}/dataTypes/counts`);
    await expect(page.getByText('3 lines', { exact: true })).toBeVisible();
    await see('data-consultation-en');
    await switchLanguage(page, 'Français');
  });

  await test.step('deleting a version asks first, and warns when the version is published; fr and en', async () => {
    await page.goto(`/applications/${name}/dataVersioning/counts`);
    await projects.selectOption({ label: 'alps' });
    await sites.selectOption({ label: 'lac_blanc' });
    await periodRow(page, '1 juin 2024 – 30 juin 2024').getByRole('button').click();
    await page.getByTestId('version-row').getByRole('button', { name: 'Supprimer la version 1' }).click();
    const dialog = page.getByRole('dialog', { name: 'Supprimer cette version ?' });
    await expect(dialog).toContainText('Cette version est publiée : ses données publiées seront supprimées aussi.');
    await dismissToasts(page);
    await see('deposit-delete-published-fr');
    await dialog.getByRole('button', { name: 'Annuler' }).click();
    await expect(dialog).toHaveCount(0);

    await switchLanguage(page, 'English');
    await page.getByTestId('version-row').getByRole('button', { name: 'Delete version 1' }).click();
    const english = page.getByRole('dialog', { name: 'Delete this version?' });
    await expect(english).toContainText('This version is published: its published data will be deleted too.');
    await see('deposit-delete-published-en');
    await english.getByRole('button', { name: 'Cancel' }).click();
    await expect(english).toHaveCount(0);

    // The version overlapping the published one is not published: deleting it needs no warning.
    await periodRow(page, 'Jun 15, 2024 – Jul 15, 2024').getByRole('button').click();
    await page.getByTestId('version-row').getByRole('button', { name: 'Delete version 1' }).click();
    await expect(english).toBeVisible();
    await expect(english.getByRole('alert')).toHaveCount(0);
    await english.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(toast(page, 'The version has been deleted.')).toBeVisible();
    await expect(periodRow(page, 'Jun 15, 2024 – Jul 15, 2024')).toHaveCount(0);
    expect((await api.versions(name, 'counts')).map((v) => v.name)).toEqual([FIRST]);
    await switchLanguage(page, 'Français');
  });
});

const csvText = (bytes: Buffer) => bytes.toString('utf8');

test('deposits of a reader restricted to a period: versions covered whole are listed, the rows of the others exported; a refused download offers its rows; fr and en', async ({
  page,
  browser,
  request,
  unique,
  lastKey,
  look,
}) => {
  test.setTimeout(240_000);
  const name = unique('depr');
  await signInAsAdmin(page);
  const api = setUpApi(page);
  await api.createApplication(name, 'surveys.yaml');
  for (const reference of ['projects', 'sites', 'species'])
    await api.loadReference(name, reference, `surveys-${reference}.csv`);
  await publishCountsVersion(page.request, name, FIRST, await readFile(csvFixture(FIRST)));
  // In scope, from mid-May to mid-June: more than the reader's period, one line on each side of 1 June.
  const wide =
    'project;site;species;day;individuals\nalps;mont_joly;lagopus;20/05/2024;1\nalps;mont_joly;tichodroma;10/06/2024;2\n';
  await publishCountsVersion(page.request, name, 'alps~mont_joly~16-05-2024~15-06-2024.csv', Buffer.from(wide));

  // Registered without the manager's session (an account is activated by whoever is not signed in as someone else).
  const reader = await registerUser(request, lastKey, unique('reader'));
  const readingUntil = async (toDay: string, uuid?: string) => {
    const answer = await page.request.post(`/api/v1/applications/${name}/authorization`, {
      data: {
        uuid: uuid ?? null,
        name: 'lecture de juin',
        description: 'les Alpes en juin',
        usersId: [reader.login],
        authorizationForAll: { projects: ['extraction'], sites: ['extraction'], species: ['extraction'] },
        authorizationsWithRestriction: {
          counts: {
            operationTypes: ['extraction'],
            requiredAuthorizations: { project: ['projectsKalps'] },
            timeScope: { fromDay: '2024-06-01', toDay },
          },
        },
      },
    });
    expect(answer.status(), await answer.text()).toBe(201);
    return ((await answer.json()) as { authorizationId: string }).authorizationId;
  };
  const authorization = await readingUntil('2024-06-30');

  const context = await browser.newContext();
  const readerPage = await context.newPage();
  await signIn(readerPage, reader.login);
  const see = (screen: string) => lookFromTop(readerPage, look, screen);
  const projects = readerPage.getByLabel(/^(Projets|Projects)$/);
  const sites = readerPage.getByLabel(/^(Sites)$/);
  const choose = async (project: string, site: string) => {
    await projects.selectOption({ label: project });
    await sites.selectOption({ label: site });
  };

  /** Reading June until `toDay`, the reader asks for the June version; the refusal offers its rows up to that day. */
  async function refusedAfterNarrowing(
    toDay: string,
    labels: { period: string | RegExp; download: string; rows: string; refusal: string },
  ) {
    await readingUntil('2024-06-30', authorization);
    await readerPage.goto(`/applications/${name}/dataVersioning/counts`);
    await choose('alps', 'lac_blanc');
    await periodRow(readerPage, labels.period).getByRole('button').click();
    const version = readerPage.getByTestId('version-row');
    await expect(version).toHaveCount(1);
    await readingUntil(toDay, authorization);
    await version.getByRole('button', { name: labels.download }).click();
    const refused = readerPage.getByTestId('version-refused');
    await expect(refused).toContainText(labels.refusal);
    // The list is read again under the narrowed rights: the version is no longer among those covered whole.
    await expect(readerPage.getByTestId('periods')).toHaveCount(0);
    const rows = await download(readerPage, () => refused.getByRole('link', { name: labels.rows }).click());
    expect(csvText(rows.bytes)).toContain('02/06/2024');
    expect(csvText(rows.bytes)).not.toContain('15/06/2024');
  }

  await test.step('the June version is listed whole; the wider one is not, its June line comes from the export', async () => {
    await readerPage.goto(`/applications/${name}/dataVersioning/counts`);
    await expect(readerPage.getByRole('heading', { name: 'Dépôts de Comptages' })).toBeVisible();
    await choose('alps', 'lac_blanc');
    await expect(periodRow(readerPage, '1 juin 2024 – 30 juin 2024')).toContainText('version 1 publiée');
    await choose('alps', 'mont_joly');
    await expect(readerPage.getByText('Pas encore de version pour ce jeu de données.')).toBeVisible();
    await expect(
      readerPage.getByText(
        'Les versions figurent ici quand vos droits couvrent tout leur périmètre et toute leur période.',
      ),
    ).toBeVisible();
    await see('deposits-reader-fr');
    const rows = await download(readerPage, () =>
      readerPage
        .getByRole('link', { name: 'Télécharger les lignes publiées de ce jeu de données que vous pouvez lire (CSV)' })
        .click(),
    );
    const lines = csvLines(rows.bytes, ';');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toEqual(['alps', 'mont_joly', 'tichodroma', '10/06/2024', '2']);
  });

  await test.step('rights narrowed to the first half of June: the download is refused in words, its rows are offered', async () => {
    await refusedAfterNarrowing('2024-06-10', {
      period: '1 juin 2024 – 30 juin 2024',
      download: 'Télécharger la version 1',
      rows: 'Télécharger les lignes de cette version que vous pouvez lire (CSV)',
      refusal:
        'Vos droits ne couvrent pas toute cette version (son périmètre et sa période) : téléchargez plutôt les lignes que vous pouvez lire.',
    });
    await see('deposits-reader-refused-fr');
  });

  await test.step('the same in English', async () => {
    await switchLanguage(readerPage, 'English');
    await refusedAfterNarrowing('2024-06-10', {
      period: 'Jun 1, 2024 – Jun 30, 2024',
      download: 'Download version 1',
      rows: 'Download the rows of this version you may read (CSV)',
      refusal:
        'Your rights do not cover the whole of this version (its scope and its period): download the rows of it you may read instead.',
    });
    await see('deposits-reader-refused-en');
    await choose('alps', 'mont_joly');
    await expect(
      readerPage.getByText('Versions appear here when your rights cover their whole scope and period.'),
    ).toBeVisible();
    await see('deposits-reader-en');
  });
  await context.close();
});
