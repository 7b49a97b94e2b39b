import { expect, PHONE, test } from './fixtures';
import { dismissToasts, registerUser, signIn, signInAsAdmin, switchLanguage } from './applicationSteps';
import { goOffline, goOnline, loadReferenceCsv, lookFromTop, setUpApi, waitForServiceWorker } from './dataSteps';

/**
 * Screens that met a scope or form reference of thousands of rows (docs/decisions.md, "Lists at real size"), on
 * large-scopes.yaml: 2,002 sites under two projects, 1,500 institutes. The deposit form's site is searched instead
 * of listed (by label, code or project; keys, taps, offline), a rights request's institute shows its label on the
 * grant screen, and the rights table's "Show more" lies within a phone's screen. French then English.
 */

const SITES = 2_000;
const INSTITUTES = 1_500;
const pad = (n: number) => String(n).padStart(4, '0');
const csv = (lines: string[]) => Buffer.from(lines.join('\n') + '\n');
const sitesCsv = () =>
  csv([
    'code;label;project',
    ...Array.from(
      { length: SITES },
      (_, i) => `s${pad(i + 1)};Site ${pad(i + 1)};${i < SITES / 2 ? 'alps' : 'pyrenees'}`,
    ),
    // One name in both projects: told apart by the project each lies under.
    'lac_blanc_alps;Lac Blanc;alps',
    'lac_blanc_pyr;Lac Blanc;pyrenees',
  ]);
const institutesCsv = () =>
  csv(['code;label', ...Array.from({ length: INSTITUTES }, (_, i) => `inst_${pad(i + 1)};Institut ${pad(i + 1)}`)]);
/** French numbers group thousands with a narrow no-break space, English ones with a comma. */
const total = (fr: boolean) => (fr ? '2\u202f002' : '2,002');

test('large scopes: the deposit site searched, the grant screen’s labels, the rights table on a phone; fr and en', async ({
  page,
  browser,
  context,
  request,
  unique,
  lastKey,
  look,
}) => {
  test.setTimeout(240_000);
  const see = async (screen: string) => {
    await dismissToasts(page);
    await lookFromTop(page, look, `large-${screen}`);
  };
  const name = unique('large');
  const { login: asker } = await registerUser(request, lastKey, unique('asker'));
  await signInAsAdmin(page);
  await waitForServiceWorker(page);
  await setUpApi(page).createApplication(name, 'large-scopes.yaml');
  await loadReferenceCsv(page, name, 'projects', csv(['code;label', 'alps;Alpes', 'pyrenees;Pyrénées']));
  await loadReferenceCsv(page, name, 'sites', sitesCsv());
  await loadReferenceCsv(page, name, 'institutes', institutesCsv());

  // The asker's request names an institute among 1,500, typed as its code (the form offers no list beyond 1,000).
  const askerContext = await browser.newContext();
  const askerPage = await askerContext.newPage();
  await signIn(askerPage, asker);
  const asked = await askerPage.request.post(`/api/v1/applications/${name}/rightsRequest`, {
    data: {
      fields: { institute: 'inst_1234' },
      rightsRequest: { authorizationForAll: { counts: ['extraction'] } },
      comment: 'Pour une thèse',
    },
  });
  expect(asked.status(), await asked.text()).toBe(201);
  const requestId = ((await asked.json()) as { id: string }).id;
  await askerContext.close();

  const depositSite = async (language: 'fr' | 'en') => {
    const fr = language === 'fr';
    await page.goto(`/applications/${name}/dataVersioning/counts`);
    // Two projects: still the native list.
    await page.getByLabel(fr ? 'Projets' : 'Projects', { exact: true }).selectOption({ label: 'Alpes' });
    const site = page.getByRole('combobox', { name: 'Sites', exact: true });
    await expect(page.locator('select')).toHaveCount(1);
    const options = page.getByRole('listbox', { name: 'Sites' }).getByRole('option');
    const note = page.getByRole('listbox', { name: 'Sites' }).locator('xpath=following-sibling::p');

    // A tap opens the first rows of the tree, and says how many there are.
    await site.tap();
    await expect(site).toHaveAttribute('aria-expanded', 'true');
    await expect(options).toHaveCount(8);
    await expect(note).toHaveText(
      fr
        ? `8 sur ${total(fr)} affichés\u00a0: saisissez une partie d’un nom ou d’un code.`
        : `8 of ${total(fr)} shown: type part of a name or code.`,
    );
    await see(`deposit-site-open-${language}`);

    // By label, accents and case ignored: both lakes, told apart by their project.
    await site.fill('lac BL');
    await expect(options).toHaveCount(2);
    await expect(options.nth(0)).toHaveText(/^Lac BlancAlpes · lac_blanc_alps$/);
    await expect(options.nth(1)).toHaveText(/^Lac BlancPyrénées · lac_blanc_pyr$/);
    for (const option of await options.all()) expect((await option.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    await see(`deposit-site-lakes-${language}`);

    // Keys: the second one, by the arrows and Enter.
    await site.press('ArrowDown');
    await site.press('ArrowDown');
    await expect(options.nth(1)).toHaveAttribute('aria-selected', 'true');
    await site.press('Enter');
    await expect(site).toHaveValue('Lac Blanc');
    await expect(site).toHaveAttribute('aria-expanded', 'false');
    // Told apart from its namesake under the field.
    await expect(site).toHaveAccessibleDescription('Pyrénées · lac_blanc_pyr');
    await expect(
      page.getByText(fr ? 'Pas encore de version pour ce jeu de données.' : /^No version yet/),
    ).toBeVisible();

    // By code, among many: bounded, with how many match.
    await site.fill('s1');
    await expect(options).toHaveCount(8);
    await expect(note).toHaveText(
      fr
        ? '8 sur 1\u202f000 correspondants affichés\u00a0: saisissez davantage du nom ou du code.'
        : '8 of 1,000 matching shown: type more of the name or code.',
    );
    // By project and label: one; a tap picks it.
    await site.fill('pyr 1999');
    await expect(options).toHaveCount(1);
    await options.first().tap();
    await expect(site).toHaveValue('Site 1999');
    await site.fill('zzz');
    await expect(note).toHaveText(fr ? 'Aucune ligne de Sites ne correspond.' : 'No row of Sites matches.');
    // Escape leaves the site chosen as it was.
    await site.press('Escape');
    await expect(site).toHaveValue('Site 1999');
    await see(`deposit-site-chosen-${language}`);
  };

  const offlineSite = async () => {
    // The rows searched are the device's copy of the reference: offline, the search is the same.
    await goOffline(context, page);
    await page.reload();
    await expect(page.getByTestId('offline-badge')).toBeVisible();
    const site = page.getByRole('combobox', { name: 'Sites', exact: true });
    await site.fill('alpes lac');
    const options = page.getByRole('listbox', { name: 'Sites' }).getByRole('option');
    await expect(options).toHaveCount(1);
    await site.press('Enter');
    await expect(site).toHaveValue('Lac Blanc');
    await see('deposit-site-offline-fr');
    await goOnline(context, page);
  };

  const grantLabels = async (language: 'fr' | 'en') => {
    const fr = language === 'fr';
    await page.goto(`/applications/${name}/authorizationsRequest/${requestId}`);
    const institute = page.getByTestId('request-details').locator('[data-field="institute"]');
    await expect(institute).toHaveText('Institut 1234');
    await expect(page.getByRole('button', { name: fr ? /^Accorder/ : /^Grant/ }).first()).toBeVisible();
    await see(`grant-labels-${language}`);
  };

  const phoneShowMore = async (language: 'fr' | 'en') => {
    const fr = language === 'fr';
    await page.goto(`/applications/${name}/authorizations/new`);
    await page
      .getByRole('button', {
        name: fr ? 'Limiter Comptages à des parties de son périmètre' : /^Restrict Counts to parts/,
      })
      .click();
    const table = page.getByTestId('rights-table');
    // The sites under "By Sites": 2,002 of them, 100 shown.
    const more = table.getByTestId('more-nodes');
    await expect(more).toHaveCount(1);
    await see(`rights-more-${language}`);
    // At 390 px the table fills its box to 4 px: a larger default text (a phone's own setting: 18 px, not 16) widens
    // it past the box, and the button then sat past the right edge until the table was scrolled sideways.
    const size = page.viewportSize()!;
    await page.setViewportSize(PHONE);
    const style = await page.addStyleTag({ content: 'html { font-size: 112.5%; }' });
    try {
      const reach = () =>
        more.evaluate((element) => {
          const box = element.closest('.overflow-x-auto')!;
          const { left, right } = box.getBoundingClientRect();
          const button = element.getBoundingClientRect();
          return {
            wider: box.scrollWidth > box.clientWidth,
            scrolled: box.scrollLeft,
            within: button.left >= left && button.right <= right,
            height: button.height,
          };
        });
      // The page scrolled down to it, the table not sideways.
      await more.evaluate((element) => window.scrollBy(0, element.getBoundingClientRect().top - 400));
      expect(await reach()).toEqual({ wider: true, scrolled: 0, within: true, height: expect.any(Number) });
      expect((await reach()).height).toBeGreaterThanOrEqual(44);
      const { y } = (await more.boundingBox())!;
      await page.screenshot({
        path: `test-results/screens/phone/large-rights-more-large-text-${language}.png`,
        clip: { x: 0, y: y - 300, width: PHONE.width, height: 420 },
      });
      // Scrolled sideways to the last column, it is still in sight.
      await more.evaluate((element) => element.closest('.overflow-x-auto')!.scrollBy({ left: 1000 }));
      expect(await reach()).toMatchObject({ within: true });
      expect((await reach()).scrolled).toBeGreaterThan(0);
    } finally {
      await style.evaluate((element) => (element as HTMLElement).remove());
      await page.setViewportSize(size);
    }
  };

  for (const language of ['fr', 'en'] as const) {
    if (language === 'en') await switchLanguage(page, 'English');
    await test.step(`${language}: the deposit form searches 2,002 sites`, () => depositSite(language));
    if (language === 'fr') await test.step('fr: offline, the kept sites are searched', offlineSite);
    await test.step(`${language}: the grant screen shows the institute’s label`, () => grantLabels(language));
    await test.step(`${language}: "Show more" within a phone's screen`, () => phoneShowMore(language));
  }
  await switchLanguage(page, 'Français');
});
