import { copyFile, mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { APIRequestContext, Browser, Locator, Page, TestInfo } from '@playwright/test';
import { E2E_ADMIN, E2E_DATA_DIR } from '../../playwright.config';
import { parseMail } from '../server/harness';
import { expect, test, toast } from './fixtures';
import { dismissToasts, registerUser, signIn, signInAsAdmin, switchLanguage } from './applicationSteps';
import {
  csvFixture,
  goOffline,
  goOnline,
  lookFromTop,
  publishCountsVersion,
  setUpApi,
  waitForServiceWorker,
} from './dataSteps';

/**
 * Rights requests end to end on surveys-requests.yaml (the surveys application with a request form: an institute
 * from a reference, a purpose, an ORCID identifier with a pattern, a date). A user without rights meets the
 * no-rights notice, opens the request form, sees the device refuse what the checkers refuse, then — offline —
 * sends a request that is kept on the device and sent once when the network returns. The manager is mailed,
 * finds the request in the list, opens it as a pre-filled authorization, is asked for a comment, grants it; the
 * user is mailed in French and now reads the Lac Blanc rows. The same screens in English. Screens are saved in
 * scratch/screens-requests/<size>/.
 */

const JUNE = 'alps~lac_blanc~01-06-2024~30-06-2024.csv';
const MONT_JOLY = {
  name: 'pyrenees~mont_joly~01-06-2024~30-06-2024.csv',
  content: 'project;site;species;day;individuals\npyrenees;mont_joly;lagopus;05/06/2024;7\n',
};
const COMMENT = 'Thèse sur le lagopède : comptages du Lac Blanc.';
const ANSWER = 'Accordé pour le Lac Blanc, bonne thèse.';

/** The application with its four references and two published versions (Lac Blanc and Mont Joly in June). */
async function surveysWithRequests(page: Page, name: string) {
  const api = setUpApi(page);
  await api.createApplication(name, 'surveys-requests.yaml');
  for (const reference of ['institutes', 'projects', 'sites', 'species'])
    await api.loadReference(name, reference, `surveys-${reference}.csv`);
  await publishCountsVersion(page.request, name, JUNE, await readFile(csvFixture(JUNE)));
  await publishCountsVersion(page.request, name, MONT_JOLY.name, Buffer.from(MONT_JOLY.content));
}

/** The sites of the counts a caller reads through the API, or the refusal status. */
async function readableSites(request: APIRequestContext, application: string): Promise<string[] | number> {
  const answer = await request.get(
    `/api/v1/applications/${application}/data/counts/json?downloadDatasetQuery=${encodeURIComponent(JSON.stringify({ limit: 100 }))}`,
  );
  if (!answer.ok()) return answer.status();
  const rows = ((await answer.json()) as { rows: Array<{ naturalKey: string }> }).rows;
  return [
    ...new Set(
      rows.map((r) =>
        r.naturalKey.includes('lac_blanc')
          ? 'lac_blanc'
          : r.naturalKey.includes('mont_joly')
            ? 'mont_joly'
            : r.naturalKey,
      ),
    ),
  ].sort();
}

/** The mails the server wrote to an address, oldest first. */
async function mailsTo(email: string) {
  const outbox = path.join(E2E_DATA_DIR, 'outbox');
  const files = (await readdir(outbox).catch(() => [] as string[])).filter((f) => f.endsWith('.eml')).sort();
  const mails = await Promise.all(
    files.map(async (file) => parseMail(await readFile(path.join(outbox, file), 'utf8'))),
  );
  return mails.filter((m) => m.to.toLowerCase() === email.toLowerCase());
}

/** Screenshot and accessibility check (from the top, no wider than the screen), copied to scratch/screens-requests/<size>/. */
function screens(page: Page, look: (page: Page, name: string) => Promise<void>, testInfo: TestInfo) {
  return async (name: string) => {
    await dismissToasts(page);
    await lookFromTop(page, look, `requests-${name}`);
    const folder = path.resolve('scratch/screens-requests', testInfo.project.name);
    await mkdir(folder, { recursive: true });
    await copyFile(
      path.resolve('test-results/screens', testInfo.project.name, `requests-${name}.png`),
      path.join(folder, `${name}.png`),
    );
  };
}

async function person(browser: Browser, login: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, login);
  return { context, page };
}

const requestRow = (page: Page, login: string) =>
  page.locator(`[data-testid="rights-request-row"][data-login="${login}"]`);
const rightsEntry = (page: Page, entry: string) =>
  page.getByTestId('rights-table').locator(`[data-testid="rights-entry"][data-entry="${entry}"]`);
const scopeNode = (page: Page, naturalKey: string) =>
  page.getByTestId('rights-table').locator(`[data-testid="scope-node"][data-node="${naturalKey}"]`);
const box = (row: Locator, operation: string) => row.locator(`[data-operation="${operation}"]`);

test('rights requests: asked offline and sent once, granted in one step by a manager, the user then reads the data; French and English', async ({
  page,
  browser,
  request,
  unique,
  lastKey,
  look,
}, testInfo) => {
  test.setTimeout(240_000);
  const name = unique('requests');
  const { login: asker, email: askerEmail } = await registerUser(request, lastKey, unique('asker'));
  await signInAsAdmin(page);
  await surveysWithRequests(page, name);
  const see = screens(page, look, testInfo);
  const { context, page: user } = await person(browser, asker);
  const seeUser = screens(user, look, testInfo);
  const requests = `/applications/${name}/authorizationsRequest`;
  const storedRequests = async () =>
    (
      (await (await page.request.get(`/api/v1/applications/${name}/rightsRequest`)).json()) as {
        total: number;
        rightsRequests: Array<{
          id: string;
          userLogin: string;
          status: string;
          rightsRequestForm: Record<string, string>;
          comment: string;
        }>;
      }
    ).rightsRequests.filter((r) => r.userLogin === asker);

  await test.step('without rights, the data page says so and offers to request them', async () => {
    expect(await readableSites(user.request, name)).toBe(403);
    await user.goto(`/applications/${name}/dataTypes/counts`);
    const notice = user.getByTestId('no-rights');
    await expect(notice).toBeVisible();
    await expect(notice.getByRole('link', { name: 'Demander des droits' })).toHaveAttribute('href', `${requests}/new`);
    await seeUser('no-rights-fr');
  });

  await test.step('the home page leads to the user’s (empty) list of requests', async () => {
    await user.goto(`/applications/${name}`);
    await expect(user.getByRole('link', { name: 'Demander des droits' })).toBeVisible();
    await user.getByRole('link', { name: 'Mes demandes de droits' }).click();
    await expect(user).toHaveURL(new RegExp(`${requests}$`));
    await expect(user.getByRole('heading', { name: 'Mes demandes de droits sur Suivis de sites' })).toBeVisible();
    await expect(user.getByText('Aucune demande à afficher.')).toBeVisible();
    // No requester column: these are the user's own.
    await expect(user.getByRole('columnheader', { name: 'Demandeur' })).toHaveCount(0);
    await seeUser('my-list-empty-fr');
  });

  await test.step('the form checks itself on the device with the configuration’s checkers', async () => {
    await user.getByRole('link', { name: 'Nouvelle demande' }).click();
    await expect(user).toHaveURL(new RegExp(`${requests}/new$`));
    await expect(user.getByRole('heading', { name: 'Nouvelle demande de droits' })).toBeVisible();
    await expect(user.getByRole('heading', { name: "Demande d'accès aux comptages" })).toBeVisible();
    await expect(user.getByText('Dites-nous qui vous êtes et ce que vous ferez des données.')).toBeVisible();
    // A request asks for reading only.
    await expect(user.getByTestId('rights-table').getByRole('columnheader')).toHaveText(['Données', 'Lire']);
    await user.getByRole('button', { name: 'Envoyer la demande' }).click();
    for (const field of ['Institut', 'Usage prévu', 'Identifiant ORCID', "Jusqu'au"]) {
      await expect(user.getByLabel(`${field} *`)).toHaveAttribute('aria-invalid', 'true');
      await expect(
        user.getByRole('alert').filter({ hasText: `Une valeur est obligatoire pour ${field}.` }),
      ).toBeVisible();
    }
    await expect(user.getByRole('alert').filter({ hasText: 'Cochez au moins un droit à demander.' })).toBeVisible();
    await expect(
      user.getByRole('alert').filter({ hasText: 'Des champs manquent ou ne sont pas valides.' }),
    ).toBeVisible();

    await user.getByLabel('Institut *').selectOption('inrae');
    await user.getByLabel('Usage prévu *').fill('Thèse de doctorat');
    const orcid = user.getByLabel('Identifiant ORCID *');
    await orcid.fill('0000-0002');
    await expect(orcid).toHaveAttribute('aria-invalid', 'true');
    await expect(user.getByRole('alert').filter({ hasText: '« 0000-0002 » ne respecte pas le motif' })).toBeVisible();
    await orcid.fill('0000-0002-1825-0097');
    await expect(orcid).not.toHaveAttribute('aria-invalid', 'true');
    const until = user.getByLabel("Jusqu'au *");
    await until.fill('2025-12-31');
    await expect(until).toHaveAttribute('aria-invalid', 'true');
    await expect(
      user.getByRole('alert').filter({ hasText: "« 2025-12-31 » n’est pas une date au format dd/MM/yyyy (Jusqu'au)." }),
    ).toBeVisible();
    await until.fill('31/12/2025');
    await expect(until).not.toHaveAttribute('aria-invalid', 'true');
    await seeUser('form-checked-fr');
  });

  await test.step('offline, the request is kept on the device, and sent once when the network returns', async () => {
    await waitForServiceWorker(user);
    // The list seen online once is what the device shows offline.
    await goOffline(context, user);
    await rightsEntry(user, 'counts')
      .getByRole('button', { name: 'Limiter Comptages à des parties de son périmètre' })
      .click();
    // The scopes are named by their references' titles, not by their names (`projects`).
    await expect(user.getByTestId('rights-table')).toContainText('Par Projets');
    await box(scopeNode(user, 'lac_blanc'), 'extraction').click();
    await expect(box(rightsEntry(user, 'counts'), 'extraction')).toHaveAttribute('aria-checked', 'mixed');
    // An empty comment is asked for in a prompt.
    await user.getByRole('button', { name: 'Envoyer la demande' }).click();
    const prompt = user.getByRole('dialog');
    await expect(prompt.getByRole('heading', { name: 'Un commentaire pour les gestionnaires' })).toBeVisible();
    const send = prompt.getByRole('button', { name: 'Envoyer la demande' });
    await prompt.getByLabel('Commentaire').fill('ab');
    await expect(send).toBeDisabled();
    await prompt.getByLabel('Commentaire').fill(COMMENT);
    await seeUser('comment-prompt-fr');
    await send.click();
    await expect(toast(user, 'Enregistré sur cet appareil.')).toBeVisible();
    await expect(user).toHaveURL(new RegExp(`${requests}$`));
    const waiting = user.getByTestId('waiting-requests');
    await expect(waiting).toContainText(COMMENT);
    await expect(user.getByTestId('offline-notice')).toBeVisible();
    await seeUser('my-list-waiting-fr');
    expect(await storedRequests()).toEqual([]);

    await goOnline(context, user);
    await expect(waiting).toBeHidden({ timeout: 20_000 });
    const row = requestRow(user, asker);
    await expect(row).toHaveCount(1);
    await expect(row.getByTestId('request-status')).toHaveText('Ouverte');
    const stored = await storedRequests();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      status: 'open',
      comment: COMMENT,
      rightsRequestForm: {
        institute: 'inrae',
        purpose: 'Thèse de doctorat',
        orcid: '0000-0002-1825-0097',
        until: '31/12/2025',
      },
    });
    await user.reload();
    await expect(requestRow(user, asker)).toHaveCount(1);
    await seeUser('my-list-fr');
  });

  await test.step('the manager is mailed, finds the request, reads its comment', async () => {
    const mails = (await mailsTo(E2E_ADMIN.email)).filter(
      (m) => m.subject === `Terrain\u00a0: demande de droits de ${asker} sur Suivis de sites`,
    );
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toContain(COMMENT);
    await page.goto(`/applications/${name}`);
    await page.getByRole('link', { name: 'Demandes de droits' }).click();
    await expect(page.getByRole('heading', { name: 'Demandes de droits de Suivis de sites' })).toBeVisible();
    await page.getByLabel('État').selectOption('open');
    await page.getByLabel('Demandeur ou commentaire').fill(asker);
    const row = requestRow(page, asker);
    await expect(row).toHaveCount(1);
    await expect(page.getByTestId('rights-request-row')).toHaveCount(1);
    await page.getByLabel('Champ du formulaire').selectOption('institute');
    await page.getByLabel('Le champ contient').fill('cnrs');
    await expect(page.getByText('Aucune demande à afficher.')).toBeVisible();
    await page.getByLabel('Le champ contient').fill('inrae');
    await expect(row).toHaveCount(1);
    await see('manager-list-fr');
    await row.getByRole('button', { name: `Lire le commentaire de ${asker}` }).click();
    await expect(page.getByRole('dialog')).toContainText(COMMENT);
    await see('manager-comment-fr');
    await page.getByRole('dialog').getByRole('button', { name: 'Fermer' }).click();
  });

  await test.step('the request opens as a pre-filled authorization; granting needs a comment, then gives the rights in one step', async () => {
    await requestRow(page, asker)
      .getByRole('link', { name: `Traiter la demande de ${asker}` })
      .click();
    await expect(page.getByRole('heading', { name: `Demande de droits de ${asker}` })).toBeVisible();
    const details = page.getByTestId('request-details');
    await expect(details).toContainText(COMMENT);
    await expect(details.locator('[data-field="institute"]')).toHaveText('INRAE');
    await expect(details.getByTestId('privilege-summary')).toHaveText(/^Comptages — Lire \((Lac Blanc|lac_blanc)\)$/);
    await expect(page.getByLabel('Nom de l’autorisation')).toHaveValue(
      new RegExp(`^Demande de droits de ${asker} \\(`),
    );
    // Every operation may be given when granting; what was asked is checked.
    await expect(page.getByTestId('rights-table').getByRole('columnheader')).toHaveText([
      'Données',
      'Déposer',
      'Publier',
      'Supprimer',
      'Lire',
      'Déléguer',
    ]);
    await rightsEntry(page, 'counts')
      .getByRole('button', { name: 'Limiter Comptages à des parties de son périmètre' })
      .click();
    await expect(box(scopeNode(page, 'lac_blanc'), 'extraction')).toBeChecked();
    await expect(box(scopeNode(page, 'mont_joly'), 'extraction')).not.toBeChecked();
    await see('grant-fr');
    await page.getByRole('button', { name: 'Accorder la demande' }).click();
    await expect(toast(page, 'Écrivez un commentaire pour accorder la demande.')).toBeVisible();
    await page.getByLabel(`Réponse à ${asker}`).fill(ANSWER);
    await page.getByRole('button', { name: 'Accorder la demande' }).click();
    await expect(toast(page, `La demande de ${asker} a été accordée.`)).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`${requests}$`));
    await page.getByLabel('État').selectOption('all');
    await page.getByLabel('Demandeur ou commentaire').fill(asker);
    await expect(requestRow(page, asker).getByTestId('request-status')).toHaveText('Accordée');
  });

  await test.step('the user is told in French and reads the Lac Blanc rows only', async () => {
    const told = (await mailsTo(askerEmail)).filter(
      (m) => m.subject === 'Terrain\u00a0: vos droits sur Suivis de sites sont accordés',
    );
    expect(told).toHaveLength(1);
    expect(told[0].text).toContain(ANSWER);
    expect(await readableSites(user.request, name)).toEqual(['lac_blanc']);
    await user.goto(`/applications/${name}/dataTypes/counts`);
    await expect(user.getByTestId('reference-row')).toHaveCount(3);
    await expect(user.getByTestId('no-rights')).toHaveCount(0);
    await user.goto(requests);
    const row = requestRow(user, asker);
    await expect(row.getByTestId('request-status')).toHaveText('Accordée');
    await row.getByRole('link', { name: `Ouvrir la demande de ${asker}` }).click();
    await expect(user.getByTestId('treatment-comment')).toHaveText(ANSWER);
    await expect(user.getByRole('button', { name: 'Modifier la demande' })).toHaveCount(0);
    await seeUser('my-request-granted-fr');
  });

  await test.step('in English: the user’s list, their granted request and a new form; the manager’s list', async () => {
    await switchLanguage(user, 'English');
    await user.goto(requests);
    await expect(user.getByRole('heading', { name: 'My rights requests on Site surveys' })).toBeVisible();
    await expect(requestRow(user, asker).getByTestId('request-status')).toHaveText('Granted');
    await seeUser('my-list-en');
    await requestRow(user, asker)
      .getByRole('link', { name: `Open the request of ${asker}` })
      .click();
    await expect(user.getByText('Answer', { exact: true })).toBeVisible();
    await seeUser('my-request-granted-en');
    await user.goto(`${requests}/new`);
    await expect(user.getByRole('heading', { name: 'Access to the counts' })).toBeVisible();
    await user.getByRole('button', { name: 'Send the request' }).click();
    await expect(user.getByRole('alert').filter({ hasText: 'Check at least one right to ask for.' })).toBeVisible();
    await expect(user.getByRole('alert').filter({ hasText: 'A value is required for Institute.' })).toBeVisible();
    await rightsEntry(user, 'counts').getByRole('button', { name: 'Restrict Counts to parts of its scope' }).click();
    await expect(user.getByTestId('rights-table')).toContainText('By Projects');
    await seeUser('form-en');

    await dismissToasts(page);
    await switchLanguage(page, 'English');
    await page.goto(requests);
    await expect(page.getByRole('heading', { name: 'Rights requests of Site surveys' })).toBeVisible();
    await expect(requestRow(page, asker).getByTestId('request-status')).toHaveText('Granted');
    await see('manager-list-en');
    await switchLanguage(page, 'Français');
  });
  await context.close();
});
