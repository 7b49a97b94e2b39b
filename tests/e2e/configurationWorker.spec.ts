import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { zipSync } from 'fflate';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import {
  CORPUS,
  corpusPresent,
  filesOf,
  fixture,
  signInAsAdmin,
  switchLanguage,
  testConfiguration,
} from './applicationSteps';
import { waitForServiceWorker } from './serviceWorker';

/**
 * Issue 4, "the worker path": the configuration engine running in the real browser Web Worker (the script the
 * built UI ships) gives the same verdict as the server's POST /api/v1/validate-configuration for the same bytes.
 */

interface Verdict {
  valid: boolean;
  /** Every problem as `code @ path (line:column) params`, sorted. */
  problems: string[];
  /** For a valid configuration, what the model says of itself. */
  model?: { name: string; version: string; data: string[] };
}

interface Problem {
  code: string;
  path?: string;
  line?: number;
  column?: number;
  params?: Record<string, unknown>;
}

interface Model {
  name: string;
  version: string;
  data: Record<string, unknown>;
}

function verdict(valid: boolean, problems: Problem[], model?: Model): Verdict {
  return {
    valid,
    problems: problems
      .map((p) => {
        // The server also copies the path into the params, for the message catalogue.
        const { path: _path, ...params } = p.params ?? {};
        return `${p.code} @ ${p.path ?? ''} (${p.line ?? '-'}:${p.column ?? '-'}) ${JSON.stringify(params)}`;
      })
      .sort(),
    model: model ? { name: model.name, version: model.version, data: Object.keys(model.data).sort() } : undefined,
  };
}

/** The worker script of the build, as the UI loads it. */
async function workerUrl() {
  const script = (await readdir(path.resolve('dist/assets'))).find((file) =>
    /^configuration\.worker-.*\.js$/.test(file),
  );
  expect(script, 'the built configuration worker (run `npx vite build` first)').toBeTruthy();
  return `/assets/${script}`;
}

/** Runs validateConfiguration in a fresh Web Worker of the page, speaking Comlink's wire protocol to it. */
async function validateInWorker(page: Page, url: string, bytes: Uint8Array, fileName: string): Promise<Verdict> {
  const result = await page.evaluate(
    async ({ url, data, fileName }) => {
      const worker = new Worker(url, { type: 'module' });
      try {
        const reply = await new Promise<{ type: string; value: unknown }>((resolve, reject) => {
          worker.onerror = (event) => reject(new Error(`worker error: ${event.message}`));
          worker.onmessage = (event) => resolve(event.data);
          worker.postMessage({
            id: 'e2e',
            type: 'APPLY',
            path: ['validateConfiguration'],
            argumentList: [
              { type: 'RAW', value: new Uint8Array(data) },
              { type: 'RAW', value: fileName },
            ],
          });
        });
        // Structured clone keeps Maps and Sets that JSON would lose: turn them into plain data for the comparison.
        return JSON.parse(
          JSON.stringify(reply, (_key, value) =>
            value instanceof Map ? Object.fromEntries(value) : value instanceof Set ? [...value] : value,
          ),
        ) as { type: string; value: { ok: boolean; value?: unknown; errors?: unknown[] } };
      } finally {
        worker.terminate();
      }
    },
    { url, data: Array.from(bytes), fileName },
  );
  expect(result.type, 'the worker answers a value, not a thrown error').toBe('RAW');
  const outcome = result.value;
  return verdict(outcome.ok, (outcome.errors ?? []) as Problem[], outcome.ok ? (outcome.value as Model) : undefined);
}

/** The server's streamed validation of the same bytes (the page's session). */
async function validateOnServer(page: Page, bytes: Uint8Array, fileName: string): Promise<Verdict> {
  const answer = await page.request.post('/api/v1/validate-configuration', {
    multipart: {
      file: {
        name: fileName,
        mimeType: fileName.endsWith('.zip') ? 'application/zip' : 'application/yaml',
        buffer: Buffer.from(bytes),
      },
    },
  });
  expect(answer.status()).toBe(200);
  expect(answer.headers()['content-type']).toContain('application/x-ndjson');
  const events = (await answer.text())
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { type: string; result: unknown });
  const results = events.filter((e) => e.type === 'result');
  expect(results, 'one result event').toHaveLength(1);
  expect(events.at(-1), 'the stream ends on progress 1').toMatchObject({ type: 'progress', result: 1 });
  const model = results[0].result as Model | null;
  const problems = events.filter((e) => e.type === 'error').map((e) => e.result as Problem);
  return verdict(model !== null && problems.length === 0, problems, model ?? undefined);
}

interface Case {
  name: string;
  fileName: string;
  bytes(): Promise<Uint8Array>;
  valid: boolean;
}

const read = (file: string) => async () => new Uint8Array(await readFile(file));

/** The monsore multi-file configuration, zipped in memory as its manifest says (never written to disk). */
const monsoreZip = async (change?: (files: Record<string, Uint8Array>) => void) => {
  const files = await filesOf(path.join(CORPUS, 'monsore/multiyaml'));
  change?.(files);
  return zipSync(files);
};

const cases: Case[] = [
  { name: 'our broken.yaml', fileName: 'broken.yaml', bytes: read(fixture('broken.yaml')), valid: false },
  {
    name: 'our fieldnotes-v1.yaml',
    fileName: 'fieldnotes-v1.yaml',
    bytes: read(fixture('fieldnotes-v1.yaml')),
    valid: true,
  },
  ...(corpusPresent
    ? [
        {
          name: 'the corpus monsore multi-file zip',
          fileName: 'multiyaml.zip',
          bytes: () => monsoreZip(),
          valid: true,
        },
        {
          name: 'the corpus monsore zip with a broken part',
          fileName: 'multiyaml-broken.zip',
          bytes: () =>
            monsoreZip((files) => {
              const part = 'OA_data/sites.yaml';
              expect(files[part], `${part} in the corpus`).toBeTruthy();
              const text = new TextDecoder().decode(files[part]).replace(/OA_checker:/, 'OA_checker_typo:');
              files[part] = new TextEncoder().encode(text);
            }),
          valid: false,
        },
        {
          name: 'the corpus acbb configuration',
          fileName: 'acbb.yaml',
          bytes: async () => read(await firstYaml('acbb'))(),
          valid: true,
        },
      ]
    : []),
];

async function firstYaml(folder: string) {
  const file = (await readdir(path.join(CORPUS, folder))).filter((f) => f.endsWith('.yaml')).sort()[0];
  return path.join(CORPUS, folder, file);
}

test('the browser worker and the server give the same verdict on the same bytes', async ({ page }) => {
  test.skip(test.info().project.name !== 'tablet', 'the verdicts do not depend on the screen size');
  if (!corpusPresent)
    test
      .info()
      .annotations.push({ type: 'corpus', description: 'absent: only Terrain’s own configurations were compared' });
  await signInAsAdmin(page);
  const url = await workerUrl();
  for (const c of cases) {
    await test.step(c.name, async () => {
      const bytes = await c.bytes();
      const inWorker = await validateInWorker(page, url, bytes, c.fileName);
      const onServer = await validateOnServer(page, bytes, c.fileName);
      expect(inWorker.valid, `${c.name}: expected validity`).toBe(c.valid);
      expect(inWorker).toEqual(onServer);
      if (!c.valid) expect(inWorker.problems.length).toBeGreaterThan(0);
    });
  }
});

test('offline, the Test button shows what the worker finds, the same problems as the server', async ({
  page,
  context,
}) => {
  await signInAsAdmin(page);
  const bytes = new Uint8Array(await readFile(fixture('broken.yaml')));
  const onServer = await validateOnServer(page, bytes, 'broken.yaml');
  await waitForServiceWorker(page);
  await page.goto('/applicationCreation');
  await expect(page.getByRole('heading', { name: 'Créer une application' })).toBeVisible();

  await context.setOffline(true);
  try {
    await testConfiguration(page, fixture('broken.yaml'));
    const problems = page.getByTestId('configuration-problems');
    await expect(problems.locator('[data-code]')).toHaveCount(onServer.problems.length);
    const shown = await problems
      .locator('[data-code]')
      .evaluateAll((items) => items.map((item) => item.getAttribute('data-code')));
    expect(shown.sort()).toEqual(onServer.problems.map((p) => p.split(' ')[0]).sort());

    // A valid file, offline: checked on this device only.
    await testConfiguration(page, fixture('fieldnotes-v1.yaml'));
    await expect(page.getByText('Vérifié sur cet appareil seulement', { exact: false })).toBeVisible();
    await expect(page.getByTestId('version-tag')).toHaveText('1.0.0');
  } finally {
    await context.setOffline(false);
  }
});

test('a configuration in a layout the original tolerates is valid, its warnings listed under the Test (a name nothing defines among them), fr and en', async ({
  page,
  look,
}) => {
  await signInAsAdmin(page);
  const tolerated = (await readFile(fixture('fieldnotes-v1.yaml'), 'utf8'))
    .replace(
      '      label: null\n',
      '      label:\n        OA_exportHeader:\n          OA_title: {fr: Nom, en: Name}\n          OA_checker: {OA_name: OA_string, OA_params: {OA_pattern: ".+"}}\n',
    )
    .replace(
      '      OA_timeScope: day\n',
      '      OA_timeScope: day\n    OA_validations:\n      idle:\n        OA_checker: {OA_name: OA_groovyExpression, OA_params: {OA_groovy: {OA_expression: "return value != null"}}}\n',
    );
  await page.goto('/applicationCreation');
  await page
    .getByLabel('Fichier de configuration', { exact: true })
    .setInputFiles({ name: 'fieldnotes.yaml', mimeType: 'application/yaml', buffer: Buffer.from(tolerated) });
  await page.getByRole('button', { name: 'Tester', exact: true }).click();
  await expect(page.getByTestId('version-tag')).toHaveText('1.0.0');
  const warnings = page.getByTestId('configuration-warnings');
  await expect(warnings.locator('[data-code]')).toHaveCount(3);
  expect(
    (
      await warnings.locator('[data-code]').evaluateAll((items) => items.map((item) => item.getAttribute('data-code')))
    ).sort(),
  ).toEqual(['CHECKER_IGNORED_UNDER_EXPORT_HEADER', 'EXPRESSION_NAME_UNKNOWN', 'VALIDATION_WITHOUT_COMPONENTS']);
  await expect(warnings).toContainText('idle');
  // A name the original's Groovy compiles too: accepted, and said.
  await expect(warnings.locator('[data-code="EXPRESSION_NAME_UNKNOWN"]')).toContainText('L’expression lit value');
  await expect(page.getByTestId('configuration-problems')).toHaveCount(0);
  await look(page, 'configuration-warnings-fr');
  await switchLanguage(page, 'English');
  await expect(page.getByTestId('configuration-warnings')).toContainText('it checks nothing');
  await expect(page.getByTestId('configuration-warnings')).toContainText('The expression reads value');
  await look(page, 'configuration-warnings-en');
  await switchLanguage(page, 'Français');
});

test('YAML syntax errors said in the interface language, counted in the singular and the plural, fr and en', async ({
  page,
  look,
}) => {
  await signInAsAdmin(page);
  await page.goto('/applicationCreation');
  const upload = async (text: string, labels = { file: 'Fichier de configuration', test: 'Tester' }) => {
    await page
      .getByLabel(labels.file, { exact: true })
      .setInputFiles({ name: 'broken.yaml', mimeType: 'application/yaml', buffer: Buffer.from(text) });
    await page.getByRole('button', { name: labels.test, exact: true }).click();
  };
  const oneTab = 'OA_version: 2.0.1\nOA_application:\n\tOA_name: x\n';
  const twoAts = 'OA_version: 2.0.1\na: @x\nb: @y\n';
  const problems = page.getByTestId('configuration-problems');

  await upload(oneTab);
  await expect(problems.getByRole('heading', { name: '1 problème dans cette configuration' })).toBeVisible();
  await expect(problems.locator('[data-code="UNEXPECTED_CHARACTER"]')).toContainText(
    'Une tabulation sert à indenter : YAML n’indente qu’avec des espaces.',
  );
  await expect(problems).not.toContainText('Tabs are not allowed');
  await look(page, 'configuration-yaml-error-fr');
  await upload(twoAts);
  await expect(problems.getByRole('heading', { name: '2 problèmes dans cette configuration' })).toBeVisible();
  await expect(problems).not.toContainText('reserved character');

  await switchLanguage(page, 'English');
  await expect(problems.getByRole('heading', { name: '2 problems in this configuration' })).toBeVisible();
  const english = { file: 'Configuration file', test: 'Test' };
  await upload(oneTab, english);
  await expect(problems.getByRole('heading', { name: '1 problem in this configuration' })).toBeVisible();
  await expect(problems).toContainText('A tab is used to indent: YAML indents with spaces only.');
  await look(page, 'configuration-yaml-error-en');
  await switchLanguage(page, 'Français');
});
