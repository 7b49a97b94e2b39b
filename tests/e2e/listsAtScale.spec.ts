import { readFile } from 'node:fs/promises';
import { expect, test } from './fixtures';
import { dismissToasts, registerUser, signInAsAdmin, switchLanguage } from './applicationSteps';
import { csvFixture, lookFromTop, setUpApi } from './dataSteps';

/**
 * The screens changed for lists at real size (docs/decisions.md, "Lists at real size"), seen in a browser with more
 * than each cap, on fieldbook.yaml with 1,200 sites: 40 file authorizations (30 a page), a user search matching 13
 * users (8 shown, how many match, the whole login first), the rights table's and the file attachment's scope of
 * 1,200 sites (100 at a time, "Show more"), the site of a protocol typed as a code (the reference is over 1,000
 * rows) and refused by the server when unknown, 40 versions of one period (30 a page), 35 data authorizations of one
 * name (30 a page, in one order) and by user; French then English.
 */

const SITES = 1_200;
const code = (n: number) => `s${String(n).padStart(4, '0')}`;
const sitesCsv = () =>
  Buffer.from(
    ['code;label', ...Array.from({ length: SITES }, (_, i) => `${code(i + 1)};Site ${code(i + 1)}`)].join('\n') + '\n',
  );
const VERSION = 'alps~lac_blanc~01-06-2024~30-06-2024.csv';
const PDF = Buffer.from('%PDF-1.4\nscale\n%%EOF\n');
/** French numbers group thousands with a narrow no-break space, English ones with a comma. */
const thousands = /1[\u202f\u00a0,]200/;

test('lists at real size: pagers, "show more", the user search hint, a large reference typed as a code; fr and en', async ({
  page,
  request,
  unique,
  lastKey,
  look,
}) => {
  test.setTimeout(180_000);
  const see = async (screen: string) => {
    await dismissToasts(page);
    await lookFromTop(page, look, `scale-${screen}`);
  };
  const name = unique('scale');
  const base = unique('pick');
  // The whole login, and 12 others containing it that an alphabetical list shows before it.
  const others = Array.from({ length: 12 }, (_, i) => `a${base}${String(i).padStart(2, '0')}`);
  await Promise.all([base, ...others].map((login) => registerUser(request, lastKey, login)));

  await signInAsAdmin(page);
  const api = setUpApi(page);
  await api.createApplication(name, 'fieldbook.yaml');
  const app = `/api/v1/applications/${name}`;
  const loaded = await page.request.post(`${app}/references/sites`, {
    multipart: { file: { name: 'sites.csv', mimeType: 'text/csv', buffer: sitesCsv() } },
  });
  expect(loaded.status(), await loaded.text()).toBe(201);

  // 40 file authorizations, 40 versions of one period: sent together.
  await Promise.all(
    Array.from({ length: 40 }, async (_, i) => {
      const answer = await page.request.post(`${app}/additionalFiles/authorization`, {
        data: {
          name: `Lecture ${String(i + 1).padStart(2, '0')}`,
          usersId: [others[i % others.length]],
          applicationNameOrId: name,
          additionalFiles: { extraction: ['protocols'] },
        },
      });
      expect(answer.status(), await answer.text()).toBe(201);
    }),
  );
  // 35 data authorizations of one name: listed 30 a page, in one order (name, then id).
  await Promise.all(
    Array.from({ length: 35 }, async (_, i) => {
      const answer = await page.request.post(`${app}/authorization`, {
        data: {
          uuid: null,
          name: 'Lecture des comptages',
          description: `accès ${i + 1}`,
          usersId: [others[i % others.length]],
          authorizationForAll: { counts: ['extraction'] },
          authorizationsWithRestriction: {},
        },
      });
      expect(answer.status(), await answer.text()).toBe(201);
    }),
  );
  // Versions on the surveys application, whose counts are deposited by dataset and period.
  const surveys = `${name}v`;
  await api.createApplication(surveys, 'surveys.yaml');
  for (const reference of ['projects', 'sites', 'species'])
    await api.loadReference(surveys, reference, `surveys-${reference}.csv`);
  const version = await readFile(csvFixture(VERSION));
  for (let batch = 0; batch < 4; batch++)
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        const answer = await page.request.post(`/api/v1/applications/${surveys}/data/counts`, {
          multipart: {
            params: JSON.stringify({
              binaryfiledataset: {
                datatype: 'counts',
                requiredAuthorizations: { project: 'alps', site: 'lac_blanc' },
                from: '2024-06-01',
                to: '2024-06-30',
              },
              topublish: false,
            }),
            file: { name: VERSION, mimeType: 'text/csv', buffer: version },
          },
        });
        expect([201, 202], await answer.text()).toContain(answer.status());
      }),
    );
  await expect.poll(async () => (await api.versions(surveys, 'counts')).length, { timeout: 60_000 }).toBe(40);

  const fileAuthorizations = async (language: 'fr' | 'en') => {
    const labels = language === 'fr' ? { page: 'Page', next: 'Page suivante' } : { page: 'Page', next: 'Next page' };
    await page.goto(`/applications/${name}/additionalFiles/authorizations`);
    const rows = page.getByTestId('file-authorization-row');
    await expect(rows).toHaveCount(30);
    await expect(rows.first()).toHaveAttribute('data-name', 'Lecture 01');
    await expect(page.getByRole('button', { name: `${labels.page} 2`, exact: true })).toBeVisible();
    await see(`file-authorizations-${language}`);
    await page.getByRole('button', { name: labels.next, exact: true }).click();
    await expect(rows).toHaveCount(10);
    await expect(rows.first()).toHaveAttribute('data-name', 'Lecture 31');
    await expect(page.getByRole('button', { name: `${labels.page} 2`, exact: true })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await see(`file-authorizations-page2-${language}`);
  };

  const userSearch = async (language: 'fr' | 'en') => {
    await page.goto(`/applications/${name}/additionalFiles/authorizations/new`);
    const picker = page.getByLabel(language === 'fr' ? 'Ajouter un utilisateur' : 'Add a user', { exact: true });
    await picker.fill(base.slice(0, -2));
    const hint = page.getByTestId('more-users');
    await expect(hint).toHaveText(
      language === 'fr'
        ? '8 utilisateurs affichés sur les 13 qui correspondent\u00a0: saisissez davantage de l’identifiant ou du courriel.'
        : '8 of 13 matching users shown: type more of the login or e-mail.',
    );
    await see(`user-search-${language}`);
    await picker.fill(base);
    // The whole login first, before the 12 that contain it.
    const offered = page.getByRole('button', { name: /@terrain\.test$/ });
    await expect(offered.first()).toHaveAccessibleName(`${base} ${base}@terrain.test`);
    await expect(hint).toHaveText(language === 'fr' ? /^8 .* 13 / : /^8 of 13 /);
    await offered.first().click();
    await expect(page.getByTestId('chosen-user')).toHaveText(base);
    // The chosen one is no longer offered.
    await picker.fill(base);
    await expect(hint).toHaveText(language === 'fr' ? /^8 .* 12 / : /^8 of 12 /);
  };

  const rightsTree = async (language: 'fr' | 'en') => {
    await page.goto(`/applications/${name}/authorizations/new`);
    await page
      .getByRole('button', {
        name: language === 'fr' ? 'Limiter Comptages à des parties de son périmètre' : /^Restrict Counts to parts/,
      })
      .click();
    const nodes = page.getByTestId('rights-table').getByTestId('scope-node');
    await expect(nodes).toHaveCount(100);
    const more = page.getByTestId('rights-table').getByTestId('more-nodes');
    await expect(more).toHaveText(
      language === 'fr'
        ? new RegExp(`^Afficher la suite \\(100 sur ${thousands.source} affichés\\)$`)
        : new RegExp(`^Show more \\(100 of ${thousands.source} shown\\)$`),
    );
    await more.click();
    await expect(nodes).toHaveCount(200);
    await expect(more).toContainText(language === 'fr' ? '200 sur' : '200 of');
    await see(`rights-tree-${language}`);
  };

  const fileForm = async (language: 'fr' | 'en') => {
    const fr = language === 'fr';
    await page.goto(`/applications/${name}/additionalFiles/protocols/new`);
    const site = page.getByLabel(fr ? 'Site concerné' : 'Site', { exact: true });
    // Over 1,000 sites: a code to type, no select of every row.
    await expect(page.locator('select[data-field="site"]')).toHaveCount(0);
    // The reference named by its title, never by its name (`sites`).
    await expect(
      page.getByText(fr ? 'Le code d’une ligne de Sites d’observation.' : 'The code of a row of Observation sites.'),
    ).toBeVisible();
    await page.getByLabel(fr ? 'Titre *' : 'Title *').fill('Protocole');
    await page.getByLabel(fr ? 'Date de parution *' : 'Issue date *').fill('01/06/2024');
    await site.fill('inconnu');
    await page.getByLabel(fr ? 'Commentaire *' : 'Comment *').fill('Un site inconnu');
    await page
      .getByLabel(fr ? 'Fichier à envoyer *' : 'File to send *')
      .setInputFiles({ name: `protocole-${language}.pdf`, mimeType: 'application/pdf', buffer: PDF });
    await page.getByText(fr ? 'Données associées' : 'Associated data').click();
    const tree = page.getByTestId('association-panel');
    const more = tree.getByTestId('more-nodes');
    await expect(more).toHaveText(
      fr
        ? new RegExp(`^Afficher la suite \\(100 sur ${thousands.source} affichés\\)$`)
        : new RegExp(`^Show more \\(100 of ${thousands.source} shown\\)$`),
    );
    await more.click();
    await expect(more).toContainText(fr ? '200 sur' : '200 of');
    await see(`file-form-tree-${language}`);
    await page.getByRole('button', { name: fr ? 'Ajouter le fichier' : 'Add the file' }).click();
    // Refused by the server, in the reader's language, under the field.
    await expect(
      page.getByText(
        fr
          ? /^«\sinconnu\s» n’est pas une valeur de Sites d’observation/
          : /^“inconnu” is not a value of Observation sites/,
      ),
    ).toBeVisible();
    await expect(site).toHaveAttribute('aria-invalid', 'true');
    await see(`file-form-refused-${language}`);
    await site.fill(code(1200));
    await page.getByRole('button', { name: fr ? 'Ajouter le fichier' : 'Add the file' }).click();
    await expect(page).toHaveURL(new RegExp(`/applications/${name}/additionalFiles/protocols$`));
    const row = page.locator(`[data-testid="file-row"][data-name="protocole-${language}.pdf"]`);
    await row
      .getByRole('button', {
        name: fr ? `Détails de protocole-${language}.pdf` : `Details of protocole-${language}.pdf`,
      })
      .click();
    // Listed with the site's label (valueLabels), not its code.
    await expect(page.getByTestId('file-details')).toContainText(`Site ${code(1200)}`);
    await see(`files-labelled-${language}`);
  };

  const versions = async (language: 'fr' | 'en') => {
    const fr = language === 'fr';
    await page.goto(`/applications/${surveys}/dataVersioning/counts`);
    await page.getByLabel(fr ? 'Projets' : 'Projects', { exact: true }).selectOption({ label: 'alps' });
    await page.getByLabel('Sites', { exact: true }).selectOption({ label: 'lac_blanc' });
    const period = page
      .getByTestId('periods')
      .getByRole('row')
      .filter({ hasText: fr ? '1 juin 2024 – 30 juin 2024' : 'Jun 1, 2024 – Jun 30, 2024' });
    await period.getByRole('button').click();
    const rows = page.getByTestId('version-row');
    await expect(rows).toHaveCount(30);
    await see(`versions-${language}`);
    await page.getByRole('button', { name: fr ? 'Page suivante' : 'Next page', exact: true }).click();
    await expect(rows).toHaveCount(10);
    await see(`versions-page2-${language}`);
  };

  const dataAuthorizations = async (language: 'fr' | 'en') => {
    const fr = language === 'fr';
    await page.goto(`/applications/${name}/authorizations`);
    const rows = page.getByTestId('authorization-row');
    await expect(rows).toHaveCount(30);
    const firstPage = await rows.evaluateAll((all) => all.map((row) => row.textContent));
    await see(`authorizations-${language}`);
    await page.getByRole('button', { name: fr ? 'Page suivante' : 'Next page', exact: true }).click();
    await expect(rows).toHaveCount(5);
    // The same order again: no authorization of page 1 comes back on page 2.
    const secondPage = await rows.evaluateAll((all) => all.map((row) => row.textContent));
    expect(secondPage.filter((text) => firstPage.includes(text))).toEqual([]);
    await see(`authorizations-page2-${language}`);
    await page.getByRole('tab', { name: fr ? 'Par utilisateur' : 'By user' }).click();
    await expect(page.locator(`[data-testid="user-row"][data-login="${others[0]}"]`)).toContainText(
      'Lecture des comptages (×3)',
    );
    await expect(page.locator(`[data-testid="user-row"][data-login^="a${base}"]`)).toHaveCount(12);
    await see(`authorizations-by-user-${language}`);
  };

  for (const language of ['fr', 'en'] as const) {
    if (language === 'en') await switchLanguage(page, 'English');
    await test.step(`${language}: file authorizations, 30 a page`, () => fileAuthorizations(language));
    await test.step(`${language}: the user search says how many match, the whole login first`, () =>
      userSearch(language));
    await test.step(`${language}: the rights table shows 100 sites at a time`, () => rightsTree(language));
    await test.step(`${language}: a site typed as a code, refused when unknown; the attachment tree`, () =>
      fileForm(language));
    await test.step(`${language}: versions of a period, 30 a page`, () => versions(language));
    await test.step(`${language}: data authorizations of one name, 30 a page; by user`, () =>
      dataAuthorizations(language));
  }
  await switchLanguage(page, 'Français');
});
