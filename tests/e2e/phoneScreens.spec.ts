import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, test, toast } from './fixtures';
import { dismissToasts, registerUser, signInAsAdmin, switchLanguage } from './applicationSteps';
import { csvFixture, lookFromTop, publishCountsVersion, setUpApi } from './dataSteps';

/**
 * The screens the tablet journeys reach, walked once on a phone (390 × 844, touch, a mobile browser's viewport) on
 * real data, in French then in English: the consultation of a data type with its export menu and its download
 * progress, the CSV upload dialog and its toast of lines added and replaced, the versions of a period, the rights
 * request form, the rights summaries, the additional-file form and the configuration warnings. Each is screenshot
 * into test-results/screens/phone/phone-<screen>-<language>.png, checked by axe, and every control a finger can
 * reach on it is at least 44 px high and wide. Run by the phone project only: the tablet journeys already look at
 * these screens at the tablet size (and resize them to a phone), a second tablet walk would shoot nothing new.
 */

const JUNE = 'alps~lac_blanc~01-06-2024~30-06-2024.csv';
const MONT_JOLY = {
  name: 'pyrenees~mont_joly~01-06-2024~30-06-2024.csv',
  content: 'project;site;species;day;individuals\npyrenees;mont_joly;lagopus;05/06/2024;7\n',
};
/** A configuration that loads with three warnings (see configurationWorker.spec.ts). */
const tolerated = (yaml: string) =>
  yaml
    .replace(
      '      label: null\n',
      '      label:\n        OA_exportHeader:\n          OA_title: {fr: Nom, en: Name}\n          OA_checker: {OA_name: OA_string, OA_params: {OA_pattern: ".+"}}\n',
    )
    .replace(
      '      OA_timeScope: day\n',
      '      OA_timeScope: day\n    OA_validations:\n      idle:\n        OA_checker: {OA_name: OA_groovyExpression, OA_params: {OA_groovy: {OA_expression: "return value != null"}}}\n',
    );

/**
 * The controls of the page (or of its open dialog or menu) that a finger hits in less than 44 × 44 px. A control's
 * touch area is its label when the label holds it, and includes a `::before` laid over it (the switches widen theirs
 * that way); a link inside a sentence is a word of the text, not a target of its own.
 */
async function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const selector = [
      'button',
      'a[href]',
      'input:not([type="hidden"])',
      'select',
      'textarea',
      '[role="switch"]',
      '[role="checkbox"]',
      '[role="menuitem"]',
      '[role="menuitemradio"]',
      '[role="menuitemcheckbox"]',
      '[role="option"]',
      '[role="tab"]',
    ].join(',');
    const layer =
      document.querySelector('[role="menu"]') ??
      document.querySelector('[role="dialog"], [role="alertdialog"]') ??
      document.body;
    const small: string[] = [];
    for (const element of layer.querySelectorAll<HTMLElement>(selector)) {
      // A control inside its label is tapped anywhere on the label.
      const box = (element.closest('label') ?? element).getBoundingClientRect();
      const style = getComputedStyle(element);
      // Not shown, or read by screen readers only (a file input under its styled button, a skip link).
      if (box.width <= 1 || box.height <= 1 || style.visibility === 'hidden' || style.opacity === '0') continue;
      if (element.closest('[aria-hidden="true"], [inert]')) continue;
      if (element.tagName === 'A' && getComputedStyle(element.parentElement!).display === 'block') {
        const text = element.parentElement!.textContent ?? '';
        if (text.trim() !== (element.textContent ?? '').trim()) continue;
      }
      const before = getComputedStyle(element, '::before');
      const grow = (inset: string) =>
        before.content !== 'none' && before.position === 'absolute' ? -parseFloat(inset) || 0 : 0;
      const width = box.width + Math.max(0, grow(before.left)) + Math.max(0, grow(before.right));
      const height = box.height + Math.max(0, grow(before.top)) + Math.max(0, grow(before.bottom));
      if (width < 43.5 || height < 43.5) {
        const name = element.getAttribute('aria-label') ?? element.textContent?.trim().slice(0, 40) ?? '';
        small.push(
          `${element.tagName.toLowerCase()}[${element.getAttribute('role') ?? ''}] "${name}" ${Math.round(width)}×${Math.round(height)}`,
        );
      }
    }
    return small;
  });
}

test('phone screens: consultation, export and download, CSV upload, versions, rights request and summaries, additional file, configuration warnings; fr and en', async ({
  page,
  request,
  unique,
  lastKey,
  look,
}) => {
  test.setTimeout(180_000);
  const name = unique('phone');
  const files = unique('phonefiles');
  const { login: reader } = await registerUser(request, lastKey, unique('reader'));
  await signInAsAdmin(page);
  const api = setUpApi(page);
  await api.createApplication(name, 'surveys-requests.yaml');
  for (const reference of ['institutes', 'projects', 'sites', 'species'])
    await api.loadReference(name, reference, `surveys-${reference}.csv`);
  // Two versions of June at Lac Blanc (the second published), one at Mont Joly.
  await publishCountsVersion(page.request, name, JUNE, await readFile(csvFixture(JUNE)));
  await publishCountsVersion(page.request, name, JUNE, await readFile(csvFixture(JUNE)));
  await publishCountsVersion(page.request, name, MONT_JOLY.name, Buffer.from(MONT_JOLY.content));
  const granted = await page.request.post(`/api/v1/applications/${name}/authorization`, {
    data: {
      uuid: null,
      name: 'Lecture des Alpes',
      description: 'Comptages des Alpes en juin, références partout',
      usersId: [reader],
      authorizationForAll: { projects: ['extraction'], sites: ['extraction'], species: ['extraction'] },
      authorizationsWithRestriction: {
        counts: {
          operationTypes: ['extraction'],
          requiredAuthorizations: { project: ['projectsKalps'] },
          timeScope: { fromDay: '2024-06-01', toDay: '2024-06-30' },
        },
      },
    },
  });
  expect(granted.status(), await granted.text()).toBe(201);
  await api.createApplication(files, 'fieldbook.yaml');
  await api.loadReference(files, 'sites', 'fieldbook-sites.csv');

  /** Screenshot and axe from the top of the page, then the touch targets of what is on screen. */
  const see = async (screen: string) => {
    await lookFromTop(page, look, `phone-${screen}`);
    expect(await smallTargets(page), `${screen}: touch targets of 44 px at least`).toEqual([]);
  };

  const walk = async (language: 'fr' | 'en') => {
    const fr = language === 'fr';
    const l = (french: string, english: string) => (fr ? french : english);

    await test.step(`${language}: the consultation of the counts, its export menu, a download in progress and done`, async () => {
      await page.goto(`/applications/${name}/dataTypes/counts`);
      await expect(page.getByRole('heading', { name: l('Comptages', 'Counts'), exact: true })).toBeVisible();
      await expect(page.getByTestId('reference-card').first()).toBeVisible();
      await dismissToasts(page);
      await see(`consultation-${language}`);
      await page.getByTestId('export-menu').click();
      await expect(page.getByRole('menu')).toBeVisible();
      // Within the screen, its last entries too (the page under an open menu does not scroll).
      const menu = (await page.getByRole('menu').boundingBox())!;
      expect(menu.x).toBeGreaterThanOrEqual(8);
      expect(menu.y + menu.height).toBeLessThanOrEqual(page.viewportSize()!.height);
      await see(`export-menu-${language}`);
      // The CSV is held until the running download has been looked at.
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      const csv = (url: URL) => url.pathname.endsWith('/data/counts/csv');
      await page.context().route(csv, async (route) => {
        await held;
        await route.continue();
      });
      const saved = page.waitForEvent('download');
      await page.getByRole('menuitem', { name: l('Fichier CSV', 'CSV file'), exact: true }).click();
      const progress = page.getByTestId('download-progress');
      await expect(progress).toHaveAttribute('data-status', 'running');
      await see(`download-running-${language}`);
      release();
      await saved;
      await expect(progress).toHaveAttribute('data-status', 'done');
      await page.context().unroute(csv);
      await see(`download-done-${language}`);
    });

    await test.step(`${language}: the CSV upload dialog, then its toast of lines added and replaced`, async () => {
      await page.goto(`/applications/${name}/references`);
      await page
        .getByRole('button', { name: l('Charger un fichier CSV dans Sites', 'Load a CSV file into Sites') })
        .click();
      const dialog = page.getByTestId('csv-upload');
      await expect(dialog).toBeVisible();
      const added = fr ? 'col_de_voza;Col de Voza' : 'mont_blanc;Mont Blanc';
      await dialog.getByLabel(l('Fichier CSV', 'CSV file')).setInputFiles({
        name: `sites-${language}.csv`,
        mimeType: 'text/csv',
        buffer: Buffer.from(`code;label\nlac_blanc;Lac Blanc\nmont_joly;Mont Joly\n${added}\n`),
      });
      await dialog.getByRole('button', { name: l('Vérifier', 'Check'), exact: true }).click();
      await expect(
        dialog.getByText(l('3 lignes vérifiées : le fichier est valide.', '3 lines checked: the file is valid.')),
      ).toBeVisible();
      await dismissToasts(page);
      await see(`csv-upload-${language}`);
      await dialog.getByRole('button', { name: l('Envoyer', 'Send'), exact: true }).click();
      await expect(toast(page, l('1 ligne ajoutée, 2 remplacées.', '1 line added, 2 replaced.'))).toBeVisible();
      await expect(dialog).toBeHidden();
      await see(`csv-upload-toast-${language}`);
    });

    await test.step(`${language}: the versions of a period`, async () => {
      await page.goto(`/applications/${name}/dataVersioning/counts`);
      await page.getByLabel(l('Projets', 'Projects'), { exact: true }).selectOption({ label: 'alps' });
      await page.getByLabel('Sites', { exact: true }).selectOption({ label: 'Lac Blanc' });
      await page.getByTestId('periods').getByRole('row').nth(1).getByRole('button').click();
      await expect(page.getByTestId('version-row')).toHaveCount(2);
      await dismissToasts(page);
      await see(`versions-${language}`);
    });

    await test.step(`${language}: the rights request form, with what it asks for still missing`, async () => {
      await page.goto(`/applications/${name}/authorizationsRequest/new`);
      await expect(page.getByTestId('rights-table')).toBeVisible();
      await page.getByRole('button', { name: l('Envoyer la demande', 'Send the request') }).click();
      await expect(page.getByRole('alert').first()).toBeVisible();
      await dismissToasts(page);
      await see(`rights-request-form-${language}`);
    });

    await test.step(`${language}: the rights summaries, in the list and in the details`, async () => {
      await page.goto(`/applications/${name}/authorizations`);
      await page
        .getByRole('button', {
          name: l(
            'Afficher les utilisateurs et les droits de Lecture des Alpes',
            'Show the users and rights of Lecture des Alpes',
          ),
        })
        .click();
      await expect(page.getByTestId('privilege-summary')).toBeVisible();
      await see(`rights-summary-${language}`);
      await page
        .getByRole('button', { name: l('Détails de Lecture des Alpes', 'Details of Lecture des Alpes') })
        .click();
      await expect(page.getByRole('dialog').getByTestId('privilege-summary')).toBeVisible();
      await see(`rights-details-${language}`);
      await page.keyboard.press('Escape');
    });

    await test.step(`${language}: the additional-file form`, async () => {
      await page.goto(`/applications/${files}/additionalFiles/protocols/new`);
      await expect(
        page.getByRole('heading', { name: l('Nouveau fichier : Protocoles', 'New file: Protocols') }),
      ).toBeVisible();
      await see(`additional-form-${language}`);
    });

    await test.step(`${language}: the warnings of a configuration tested before its creation`, async () => {
      await page.goto('/applicationCreation');
      await page.getByLabel(l('Fichier de configuration', 'Configuration file'), { exact: true }).setInputFiles({
        name: 'fieldnotes.yaml',
        mimeType: 'application/yaml',
        buffer: Buffer.from(tolerated(await readFile('tests/fixtures/configurations/fieldnotes-v1.yaml', 'utf8'))),
      });
      await page.getByRole('button', { name: l('Tester', 'Test'), exact: true }).click();
      await expect(page.getByTestId('configuration-warnings').locator('[data-code]')).toHaveCount(3);
      await dismissToasts(page);
      await see(`configuration-warnings-${language}`);
    });
  };

  await walk('fr');
  await switchLanguage(page, 'English');
  await walk('en');
  await switchLanguage(page, 'Français');
});
