import { readFile } from 'node:fs/promises';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { dismissToasts, fixture, signInAsAdmin, switchLanguage, testConfiguration } from './applicationSteps';
import { csvFixture, lookFromTop, setUpApi } from './dataSteps';

/**
 * Hostile content stays text on every screen: an application whose configuration (titles, description, comment,
 * tags, column headers), reference cells, deposited file name and comment carry markup, script and event
 * handlers is created, filled and published, then every screen showing it is opened in French and English.
 * Nothing may run (no dialog, no mark left by the payloads), no element may be injected, the hostile text must
 * show literally, and the Content-Security-Policy must never have had to block anything: the application works
 * under it without violations.
 */

/** What the payloads would leave behind if one of them ran or became markup. */
async function leftovers(page: Page) {
  return page.evaluate(() => {
    const marks = window as unknown as { __pwned?: string; __violations?: string[] };
    return {
      ran: marks.__pwned ?? null,
      violations: marks.__violations ?? [],
      injected: document.querySelectorAll(
        'img[src="x"], [onerror], [onload], iframe[src^="javascript"], a[href^="javascript"]',
      ).length,
      inlineScripts: [...document.scripts].filter((script) => !script.src).length,
    };
  });
}

test('hostile text in configurations, cells, file names and comments is shown as text and never runs, on every screen, under the security policy', async ({
  page,
  unique,
  look,
}) => {
  test.setTimeout(240_000);
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.addInitScript(() => {
    const marks = window as unknown as { __violations: string[] };
    marks.__violations = [];
    document.addEventListener('securitypolicyviolation', (event) =>
      marks.__violations.push(`${event.violatedDirective} ${event.blockedURI}`),
    );
  });

  /** The screen is settled, shows `text` literally, and nothing ran, was injected or was blocked. */
  async function expectInert(screen: string, text: string | Locator) {
    await expect(
      typeof text === 'string' ? page.getByText(text, { exact: false }).first() : text,
      `${screen} shows the text as typed`,
    ).toBeVisible();
    // An injected image fires its error handler in the same task that marks it broken: once every image of the page
    // is complete, any handler has run.
    await page.waitForFunction(() => [...document.images].every((image) => image.complete));
    expect(await leftovers(page), screen).toEqual({ ran: null, violations: [], injected: 0, inlineScripts: 0 });
    expect(dialogs, screen).toEqual([]);
  }
  const see = (screen: string) => lookFromTop(page, look, screen);

  const name = unique('hostile');
  await signInAsAdmin(page);
  const api = setUpApi(page);
  await api.createApplication(name, 'hostile.yaml');
  await api.loadReference(name, 'projects', 'hostile-projects.csv');
  const depositName = `<img src=x onerror="window.__pwned='file'">counts.csv`;
  const deposited = await page.request.post(`/api/v1/applications/${name}/data/counts`, {
    multipart: {
      params: JSON.stringify({
        binaryfiledataset: {
          datatype: 'counts',
          requiredAuthorizations: { project: 'trap' },
          from: '2024-06-01',
          to: '2024-06-30 23:59:59',
          comment: `<script>window.__pwned='comment'</script>Relevés`,
        },
        topublish: true,
      }),
      file: { name: depositName, mimeType: 'text/csv', buffer: await readFile(csvFixture('hostile-counts.csv')) },
    },
  });
  expect(deposited.status(), await deposited.text()).toBe(202);
  const fileId = ((await deposited.json()) as { fileId: string }).fileId;
  await expect
    .poll(
      async () =>
        (
          (await (await page.request.get(`/api/v1/applications/${name}/file/${fileId}/publication-state`)).json()) as {
            published: boolean;
          }
        ).published,
      { timeout: 30_000 },
    )
    .toBe(true);

  await test.step('the application list and the application page', async () => {
    await page.goto('/applications');
    await expectInert('applications', 'Piège <b>gras</b>');
    await page.goto(`/applications/${name}`);
    await expectInert('application', 'Piège <b>gras</b>');
    await see('hostile-application-fr');
  });

  await test.step('references: the tree and the table of hostile cells', async () => {
    await page.goto(`/applications/${name}/references`);
    await expectInert('references', `onerror="window.__pwned='entry';alert('entry')">Projets`);
    await page.goto(`/applications/${name}/references/projects`);
    await expect(page.getByTestId('reference-row')).toHaveCount(4);
    await expectInert('reference table', "<script>window.__pwned='cell'</script>Script");
    await expectInert('reference table', '=HYPERLINK("http://attacker.invalid","click")');
    await see('hostile-reference-fr');
  });

  await test.step('a refused file with a hostile name: its error report quotes the hostile values', async () => {
    await page.goto(`/applications/${name}/references`);
    await page
      .getByRole('button', { name: /^Charger un fichier CSV dans / })
      .first()
      .click();
    const dialog = page.getByTestId('csv-upload');
    await dialog.getByLabel('Fichier CSV').setInputFiles({
      name: `<img src=x onerror="window.__pwned='report'">.csv`,
      mimeType: 'text/csv',
      buffer: Buffer.from(`code;label;note\nbad;"<img src=x onerror=""window.__pwned='report'"">;x";n\n`),
    });
    await dialog.getByRole('button', { name: 'Vérifier', exact: true }).click();
    await expect(dialog.getByTestId('csv-report')).toBeVisible();
    await expectInert('error report', `<img src=x onerror="window.__pwned='report'">.csv`);
    await dismissToasts(page);
    await see('hostile-report-fr');
    await page.keyboard.press('Escape');
  });

  await test.step('data: the list, the published rows, the versions with their file name and comment', async () => {
    await page.goto(`/applications/${name}/dataTypes`);
    await expectInert('data types', `onerror="window.__pwned='data';alert('data')">Comptages`);
    await page.goto(`/applications/${name}/dataTypes/counts`);
    await expect(page.getByTestId('reference-row')).toHaveCount(2);
    await expectInert('data table', `onerror="window.__pwned='data-cell',alert('data-cell')">Note`);
    await page.goto(`/applications/${name}/dataVersioning/counts`);
    // The scope is chosen by its display name, the hostile label of the project.
    const scope = page.getByLabel(`<img src=x onerror="window.__pwned='entry';alert('entry')">Projets`, {
      exact: true,
    });
    await expect(scope.getByRole('option', { name: `<script>window.__pwned='cell'</script>Script` })).toBeAttached();
    await scope.selectOption({ label: `<img src=x onerror="window.__pwned='cell',alert('cell')">Piège` });
    await page
      .getByTestId('periods')
      .getByRole('row')
      .filter({ hasText: '1 juin 2024 – 30 juin 2024' })
      .getByRole('button')
      .click();
    const version = page.getByTestId('version-row');
    await expect(version).toHaveCount(1);
    await expect(version).toHaveAttribute('title', `<script>window.__pwned='comment'</script>Relevés`);
    await expectInert('versions', '1 juin 2024 – 30 juin 2024');
    await see('hostile-versions-fr');
  });

  await test.step('the configuration checked on the device, on the creation page', async () => {
    await page.goto('/applicationCreation');
    await testConfiguration(page, fixture('hostile.yaml'));
    const comment = page.getByRole('textbox', { name: 'Commentaire' });
    await expect(comment).toHaveValue(`<img src=x onerror="window.__pwned='comment';alert('comment')">Commentaire`);
    await expectInert('creation', comment);
  });

  await test.step('in English: the list, the application, its references', async () => {
    await page.goto('/applications');
    await switchLanguage(page, 'English');
    await expectInert('applications (en)', `<script>window.__pwned='title';alert('title')</script>Trap <b>bold</b>`);
    await page.goto(`/applications/${name}/references`);
    await expectInert('references (en)', `<script>alert('entry')</script>Projects`);
    await see('hostile-references-en');
    await switchLanguage(page, 'Français');
  });
});
