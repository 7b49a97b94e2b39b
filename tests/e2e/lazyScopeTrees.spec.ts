import type { Locator, Page } from '@playwright/test';
import { expect, test, toast } from './fixtures';
import { dismissToasts, registerUser, signIn, signInAsAdmin, switchLanguage } from './applicationSteps';
import { goOffline, goOnline, loadReferenceCsv, lookFromTop, setUpApi, waitForServiceWorker } from './dataSteps';

/**
 * Scope trees larger than 2,000 rows, sent a level at a time with a search (docs/decisions.md, "Scope trees a
 * level at a time"), on lazy-scopes.yaml: 5,000 sites under two projects, and 2,103 zones (three regions of 700
 * sectors). A right granted on one site found by search, a request for one site, a file attached to one; a sector
 * unchecked under its checked region, as in a small tree; offline, a part never read says so. French then English.
 */

const SITES = 5_000;
const pad = (n: number) => String(n).padStart(4, '0');
const csv = (lines: string[]) => Buffer.from(lines.join('\n') + '\n');
const sitesCsv = () =>
  csv([
    'code;label;project',
    ...Array.from(
      { length: SITES },
      (_, i) => `s${pad(i + 1)};Site ${pad(i + 1)};${i < SITES / 2 ? 'alps' : 'pyrenees'}`,
    ),
  ]);

const SECTORS = 700;
const zonesCsv = () =>
  csv([
    'code;label;parent',
    ...[1, 2, 3].flatMap((r) => [
      `r${r};Région ${r};`,
      ...Array.from({ length: SECTORS }, (_, c) => `r${r}_${pad(c + 1)};Secteur ${r}-${pad(c + 1)};r${r}`),
    ]),
  ]);

const PDF = Buffer.from('%PDF-1.4\n% a note\n%%EOF\n');
const rightsEntry = (page: Page, entry: string) =>
  page.getByTestId('rights-table').locator(`[data-testid="rights-entry"][data-entry="${entry}"]`);
const scopeNode = (page: Page, naturalKey: string) =>
  page.getByTestId('rights-table').locator(`[data-testid="scope-node"][data-node="${naturalKey}"]`);
const box = (row: Locator, operation: string) => row.locator(`[data-operation="${operation}"]`);

test('large scope trees: granted, requested and attached on one site found by search; offline parts; fr and en', async ({
  page,
  browser,
  request,
  unique,
  lastKey,
  look,
}) => {
  test.setTimeout(240_000);
  const see = async (target: Page, screen: string) => {
    await dismissToasts(target);
    await lookFromTop(target, look, `lazy-${screen}`);
  };
  const name = unique('lazy');
  const { login: asker } = await registerUser(request, lastKey, unique('asker'));
  await signInAsAdmin(page);
  await waitForServiceWorker(page);
  await setUpApi(page).createApplication(name, 'lazy-scopes.yaml');
  await loadReferenceCsv(page, name, 'projects', csv(['code;label', 'alps;Alpes', 'pyrenees;Pyrénées']));
  await loadReferenceCsv(page, name, 'sites', sitesCsv());
  await loadReferenceCsv(page, name, 'institutes', csv(['code;label', 'inrae;INRAE', 'cnrs;CNRS']));
  await loadReferenceCsv(page, name, 'zones', zonesCsv());

  const restrictCounts = async (target: Page, fr: boolean) =>
    rightsEntry(target, 'counts')
      .getByRole('button', {
        name: fr ? 'Limiter Comptages à des parties de son périmètre' : /^Restrict Counts to parts/,
      })
      .click();
  const search = (target: Page | Locator, fr: boolean) =>
    target.getByLabel(fr ? 'Chercher dans Sites par nom ou code' : 'Find in Sites by name or code', { exact: true });

  await test.step('fr: a right granted on one site found among 5,000', async () => {
    await page.goto(`/applications/${name}/authorizations/new`);
    await page.getByLabel('Nom', { exact: true }).fill('Un site');
    await page.getByLabel('Commentaire', { exact: true }).fill('Le comptage d’un site');
    const picker = page.getByLabel('Ajouter un utilisateur', { exact: true });
    await picker.fill(asker.slice(0, 12));
    await page.getByRole('button', { name: new RegExp(`^${asker} `) }).click();
    await restrictCounts(page, true);
    // The first 100 sites, and the others a page at a time.
    await expect(page.getByTestId('rights-table').getByTestId('more-nodes')).toHaveText(
      'Afficher la suite (100 sur 5\u202f000 affichés)',
    );
    await search(page, true).fill('site 4321');
    const found = scopeNode(page, 's4321');
    await expect(found).toContainText('Pyrénées');
    await box(found, 'extraction').click();
    await expect(box(found, 'extraction')).toBeChecked();
    await expect(box(rightsEntry(page, 'counts'), 'extraction')).toHaveAttribute('aria-checked', 'mixed');
    await see(page, 'grant-found-fr');
    // "Show more" reads the next page.
    await page.getByTestId('rights-table').getByTestId('more-nodes').click();
    await expect(scopeNode(page, 's0200')).toBeVisible();
    await expect(page.getByTestId('rights-table').getByTestId('more-nodes')).toHaveText(
      'Afficher la suite (200 sur 5\u202f000 affichés)',
    );
    await page.getByRole('button', { name: 'Enregistrer', exact: true }).last().click();
    await expect(toast(page, 'L’autorisation Un site a été enregistrée.')).toBeVisible();
    const stored = (await (await page.request.get(`/api/v1/applications/${name}/authorization`)).json()) as {
      authorizationResults: Array<{ name: string; authorizationsWithRestriction: Record<string, unknown> }>;
    };
    expect(stored.authorizationResults.find((a) => a.name === 'Un site')!.authorizationsWithRestriction).toEqual({
      counts: [
        {
          operationTypes: ['extraction'],
          requiredAuthorizations: { site: ['projectsKpyrenees.sitesKs4321'] },
          fromDay: null,
          toDay: null,
        },
      ],
    });
  });

  await test.step('fr: a sector unchecked under its checked region, as in a small tree', async () => {
    await page.goto(`/applications/${name}/authorizations/new`);
    await page.getByLabel('Nom', { exact: true }).fill('Une région moins un secteur');
    await page.getByLabel('Commentaire', { exact: true }).fill('Les relevés d’une région');
    const picker = page.getByLabel('Ajouter un utilisateur', { exact: true });
    await picker.fill(asker.slice(0, 12));
    await page.getByRole('button', { name: new RegExp(`^${asker} `) }).click();
    await rightsEntry(page, 'surveys')
      .getByRole('button', { name: 'Limiter Relevés à des parties de son périmètre' })
      .click();
    const region = scopeNode(page, 'r2');
    await box(region, 'extraction').click();
    await expect(box(region, 'extraction')).toBeChecked();
    await region.getByRole('button', { name: 'Afficher les parties de Région 2' }).click();
    // Checked through the region, and free to change as in a small tree.
    const sector = scopeNode(page, 'r2_0017');
    await expect(box(sector, 'extraction')).toBeChecked();
    await expect(box(sector, 'extraction')).toBeEnabled();
    await box(sector, 'extraction').click();
    await expect(box(sector, 'extraction')).not.toBeChecked();
    await expect(box(region, 'extraction')).toHaveAttribute('aria-checked', 'mixed');
    await expect(box(scopeNode(page, 'r2_0018'), 'extraction')).toBeChecked();
    // Checked again, the region holds the right again, its sectors all checked.
    await box(sector, 'extraction').click();
    await expect(box(region, 'extraction')).toBeChecked();
    await box(sector, 'extraction').click();
    await expect(box(region, 'extraction')).toHaveAttribute('aria-checked', 'mixed');
    await see(page, 'grant-under-held-fr');
    await page.getByRole('button', { name: 'Enregistrer', exact: true }).last().click();
    await expect(toast(page, 'L’autorisation Une région moins un secteur a été enregistrée.')).toBeVisible();
    const stored = (await (await page.request.get(`/api/v1/applications/${name}/authorization`)).json()) as {
      authorizationResults: Array<{
        name: string;
        authorizationsWithRestriction: Record<string, Array<{ requiredAuthorizations: Record<string, string[]> }>>;
      }>;
    };
    const zones = stored.authorizationResults.find((a) => a.name === 'Une région moins un secteur')!
      .authorizationsWithRestriction.surveys[0].requiredAuthorizations.zone;
    // The region gave way to its other 699 sectors, read a page at a time.
    expect(zones).toHaveLength(SECTORS - 1);
    expect(zones).not.toContain('zonesKr2.zonesKr2_0017');
    expect(zones).toContain('zonesKr2.zonesKr2_0700');
    expect(zones.every((key) => key.startsWith('zonesKr2.zonesKr2_'))).toBe(true);
  });

  await test.step('fr: a file attached to one site found by search', async () => {
    await page.goto(`/applications/${name}/additionalFiles/notes/new`);
    await page.getByLabel('Titre *').fill('Relevé du site 777');
    await page.getByLabel('Commentaire *').fill('Un relevé');
    await page
      .getByLabel('Fichier à envoyer *')
      .setInputFiles({ name: 'releve.pdf', mimeType: 'application/pdf', buffer: PDF });
    await page.getByText('Données associées').click();
    const panel = page.getByTestId('association-panel');
    await expect(panel.getByTestId('more-nodes')).toHaveText('Afficher la suite (100 sur 5\u202f000 affichés)');
    await search(panel, true).fill('s0777');
    const found = panel.getByRole('checkbox', { name: /^Site 0777/ });
    await expect(found).toHaveCount(1);
    await found.check();
    await see(page, 'file-found-fr');
    await page.getByRole('button', { name: 'Ajouter le fichier' }).click();
    await expect(toast(page, 'Le fichier releve.pdf a été enregistré.')).toBeVisible();
    const files = (await (await page.request.get(`/api/v1/applications/${name}/additionalFiles/notes`)).json()) as {
      additionalBinaryFiles: Array<{ fileName: string; associates: unknown }>;
    };
    expect(JSON.stringify(files.additionalBinaryFiles[0].associates)).toContain('projectsKalps.sitesKs0777');
  });

  const askerContext = await browser.newContext();
  const user = await askerContext.newPage();
  await test.step('fr: rights requested on one site', async () => {
    await signIn(user, asker);
    await user.goto(`/applications/${name}/authorizationsRequest/new`);
    await user.getByLabel('Institut *').selectOption('inrae');
    await restrictCounts(user, true);
    await search(user, true).fill('lac');
    await expect(user.getByText('Rien trouvé.')).toBeVisible();
    await search(user, true).fill('site 1234');
    await box(scopeNode(user, 's1234'), 'extraction').click();
    await see(user, 'request-found-fr');
    await user.getByRole('button', { name: 'Envoyer la demande' }).click();
    const prompt = user.getByRole('dialog');
    await prompt.getByLabel('Commentaire').fill('Pour une thèse sur un site');
    await prompt.getByRole('button', { name: 'Envoyer la demande' }).click();
    await expect(user).toHaveURL(new RegExp(`/applications/${name}/authorizationsRequest$`));
    const asked = (await (await user.request.get(`/api/v1/applications/${name}/rightsRequest`)).json()) as {
      rightsRequests: Array<{ rightsRequest: unknown }>;
    };
    expect(JSON.stringify(asked.rightsRequests[0].rightsRequest)).toContain('projectsKalps.sitesKs1234');
  });

  await test.step('fr: offline, a part never read says so; what was read is still there', async () => {
    await waitForServiceWorker(user);
    await user.goto(`/applications/${name}/authorizationsRequest/new`);
    await restrictCounts(user, true);
    await expect(scopeNode(user, 's0001')).toBeVisible();
    await goOffline(askerContext, user);
    await user.reload();
    await expect(user.getByTestId('offline-badge')).toBeVisible();
    await restrictCounts(user, true);
    await expect(scopeNode(user, 's0001')).toBeVisible();
    // Searched online before: the same answer offline.
    await search(user, true).fill('site 1234');
    await expect(scopeNode(user, 's1234')).toBeVisible();
    await user.getByTestId('rights-table').getByTestId('more-nodes').click();
    await expect(user.getByTestId('scope-part-unread')).toHaveText(
      'Cette partie n’a pas été lue sur cet appareil et ne peut pas l’être hors ligne\u00a0: reconnectez-vous pour la voir.',
    );
    await see(user, 'request-offline-fr');
    await goOnline(askerContext, user);
  });

  await test.step('en: the three screens with a search', async () => {
    await switchLanguage(page, 'English');
    await page.goto(`/applications/${name}/authorizations/new`);
    await restrictCounts(page, false);
    await expect(page.getByTestId('rights-table').getByTestId('more-nodes')).toHaveText(
      'Show more (100 of 5,000 shown)',
    );
    await search(page, false).fill('site 1');
    await expect(page.getByText('The first 20 found: type more to narrow them.')).toBeVisible();
    await see(page, 'grant-found-en');
    await page.goto(`/applications/${name}/authorizations/new`);
    await rightsEntry(page, 'surveys')
      .getByRole('button', { name: /^Restrict Surveys to parts/ })
      .click();
    await box(scopeNode(page, 'r1'), 'extraction').click();
    await scopeNode(page, 'r1').getByRole('button', { name: 'Show the parts of Région 1' }).click();
    await box(scopeNode(page, 'r1_0002'), 'extraction').click();
    await expect(box(scopeNode(page, 'r1'), 'extraction')).toHaveAttribute('aria-checked', 'mixed');
    await see(page, 'grant-under-held-en');
    await page.goto(`/applications/${name}/additionalFiles/notes/new`);
    await page.getByText('Associated data').click();
    const panel = page.getByTestId('association-panel');
    await search(panel, false).fill('site 2500');
    await expect(panel.getByRole('checkbox', { name: /^Site 2500/ })).toHaveCount(1);
    await see(page, 'file-found-en');
    await switchLanguage(user, 'English');
    await user.goto(`/applications/${name}/authorizationsRequest/new`);
    await restrictCounts(user, false);
    await search(user, false).fill('site 4999');
    await expect(scopeNode(user, 's4999')).toBeVisible();
    await see(user, 'request-found-en');
    await switchLanguage(page, 'Français');
  });
  await askerContext.close();
});
