import type { Page } from '@playwright/test';
import { expect, test, toast } from './fixtures';
import { dismissToasts, registerUser, signIn, signInAsAdmin, switchLanguage } from './applicationSteps';
import { lookFromTop, publishCountsVersion, setUpApi } from './dataSteps';

/**
 * A publisher whose rights cover the Alps in June only (surveys, counts): the manager published Y (16 May to 15 June,
 * which they may not read) and Z (20 to 25 June, which they may). Their own June version fails to publish: the
 * reason names Z and counts Y without naming it. Their rights then moved to July: the June version, still on their
 * screen, answers as a file that does not exist, and the list, read again, no longer shows it. French and English.
 */

const HEADER = 'project;site;species;day;individuals';
const Y = 'alps~lac_blanc~16-05-2024~15-06-2024.csv';
const Z = 'alps~lac_blanc~20-06-2024~25-06-2024.csv';
const X = 'alps~lac_blanc~01-06-2024~30-06-2024.csv';

const periodRow = (page: Page, text: string | RegExp) =>
  page.getByTestId('periods').getByRole('row').filter({ hasText: text });

test('a partial publisher: overlapping versions they may not read are counted, not named; a version their rights left answers as a file that does not exist and leaves the list; fr and en', async ({
  page,
  browser,
  request,
  unique,
  lastKey,
  look,
}) => {
  test.setTimeout(150_000);
  const name = unique('pubp');
  await signInAsAdmin(page);
  const api = setUpApi(page);
  await api.createApplication(name, 'surveys.yaml');
  for (const reference of ['projects', 'sites', 'species'])
    await api.loadReference(name, reference, `surveys-${reference}.csv`);
  await publishCountsVersion(page.request, name, Y, Buffer.from(`${HEADER}\nalps;lac_blanc;lagopus;20/05/2024;1\n`));
  await publishCountsVersion(page.request, name, Z, Buffer.from(`${HEADER}\nalps;lac_blanc;lagopus;21/06/2024;2\n`));

  // Registered without the manager's session (an account is activated by whoever is not signed in as someone else).
  const publisher = await registerUser(request, lastKey, unique('pub'));
  const publishing = async (month: { fromDay: string; toDay: string }, uuid?: string) => {
    const answer = await page.request.post(`/api/v1/applications/${name}/authorization`, {
      data: {
        uuid: uuid ?? null,
        name: 'publication des Alpes',
        description: 'un mois des Alpes',
        usersId: [publisher.login],
        authorizationForAll: { projects: ['extraction'], sites: ['extraction'], species: ['extraction'] },
        authorizationsWithRestriction: {
          counts: {
            operationTypes: ['depot', 'publication'],
            requiredAuthorizations: { project: ['projectsKalps'] },
            timeScope: month,
          },
        },
      },
    });
    expect(answer.status(), await answer.text()).toBe(201);
    return ((await answer.json()) as { authorizationId: string }).authorizationId;
  };
  const JUNE = { fromDay: '2024-06-01', toDay: '2024-06-30' };
  const JULY = { fromDay: '2024-07-01', toDay: '2024-07-31' };
  const authorization = await publishing(JUNE);

  const context = await browser.newContext();
  const publisherPage = await context.newPage();
  await signIn(publisherPage, publisher.login);
  const see = (screen: string) => lookFromTop(publisherPage, look, screen);
  const version = publisherPage.getByTestId('version-row');
  const failed = publisherPage.getByTestId('version-job-failed');
  const openJune = async (period: string) => {
    await publisherPage.goto(`/applications/${name}/dataVersioning/counts`);
    await publisherPage.getByLabel(/^(Projets|Projects)$/).selectOption({ label: 'alps' });
    await publisherPage.getByLabel('Sites', { exact: true }).selectOption({ label: 'lac_blanc' });
    await periodRow(publisherPage, period).getByRole('button').click();
    await expect(version).toHaveCount(1);
  };

  await test.step('their June version fails to publish: Z is named, Y counted', async () => {
    await publisherPage.goto(`/applications/${name}/dataVersioning/counts`);
    await publisherPage.getByLabel('Fichier CSV', { exact: true }).setInputFiles({
      name: X,
      mimeType: 'text/csv',
      buffer: Buffer.from(`${HEADER}\nalps;lac_blanc;lagopus;10/06/2024;5\n`),
    });
    await publisherPage.getByRole('button', { name: 'Vérifier', exact: true }).click();
    await expect(publisherPage.getByText('1 ligne vérifiée : le fichier est valide.')).toBeVisible();
    await publisherPage.getByRole('button', { name: 'Déposer', exact: true }).click();
    await expect(toast(publisherPage, `Le fichier ${X} a été déposé.`)).toBeVisible();
    // Y is not theirs whole: not listed. Z is.
    await expect(periodRow(publisherPage, '16 mai 2024')).toHaveCount(0);
    await expect(periodRow(publisherPage, '20 juin 2024 – 25 juin 2024')).toContainText('version 1 publiée');
    await periodRow(publisherPage, '1 juin 2024 – 30 juin 2024').getByRole('button').click();
    await version.getByRole('switch', { name: 'Publier la version 1' }).click();
    const reason =
      'Une version publiée de ce jeu de données, que vous ne pouvez pas lire, couvre une partie de cette période, de même que ' +
      `${Z}.`;
    const refusal = toast(publisherPage, 'La version n’a pas pu être publiée.');
    await expect(refusal).toBeVisible({ timeout: 30_000 });
    await expect(refusal).toContainText(reason);
    await expect(refusal).not.toContainText(Y);
    await expect(failed).toContainText(`La publication de la version 1 a échoué : ${reason}`);
    await see('publication-overlap-unreadable-toast-fr');
    await dismissToasts(publisherPage);
    await see('publication-overlap-unreadable-fr');
    await switchLanguage(publisherPage, 'English');
    await expect(failed).toContainText(
      `The publication of version 1 failed: A published version of this dataset that you may not read covers part of this period, as does ${Z}.`,
    );
    await expect(failed).not.toContainText(Y);
    await see('publication-overlap-unreadable-en');
    await switchLanguage(publisherPage, 'Français');
  });

  await test.step('their rights moved to July: the June version still on screen answers as a file that does not exist', async () => {
    await openJune('1 juin 2024 – 30 juin 2024');
    await publishing(JULY, authorization);
    await version.getByRole('button', { name: 'Télécharger la version 1' }).click();
    await expect(toast(publisherPage, 'Ce fichier n’existe pas.')).toBeVisible();
    // The list is read again as the server now sees it: the version leaves the screen, not to be clicked again.
    await expect(periodRow(publisherPage, '1 juin 2024 – 30 juin 2024')).toHaveCount(0);
    await expect(version).toHaveCount(0);
    await see('version-hidden-toast-fr');
    await dismissToasts(publisherPage);
    await publishing(JUNE, authorization);
    await switchLanguage(publisherPage, 'English');
    await openJune('Jun 1, 2024 – Jun 30, 2024');
    await publishing(JULY, authorization);
    await version.getByRole('button', { name: 'Download version 1' }).click();
    await expect(toast(publisherPage, 'This file does not exist.')).toBeVisible();
    await expect(version).toHaveCount(0);
    await see('version-hidden-toast-en');
  });
  await context.close();
});
