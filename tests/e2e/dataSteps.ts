import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { unzipSync, strFromU8 } from 'fflate';
import type { APIRequestContext, BrowserContext, Download, Page } from '@playwright/test';
import { expect } from './fixtures';
import { fixture } from './applicationSteps';

/** Terrain's own CSV fixtures. */
export const csvFixture = (name: string) => path.resolve('tests/fixtures/csv', name);

/**
 * Set-up through the API, with the session of the signed-in page (`page.request` shares its cookies): the
 * features under test are driven through the UI, what they need beforehand is not.
 */
export function setUpApi(page: Page) {
  const request = page.request;
  const app = (name: string) => `/api/v1/applications/${encodeURIComponent(name)}`;
  return {
    async createApplication(name: string, configuration: string) {
      const answer = await request.post(app(name), {
        multipart: {
          comment: '',
          file: { name: configuration, mimeType: 'application/yaml', buffer: await readFile(fixture(configuration)) },
        },
      });
      const text = await answer.text();
      expect(answer.status(), text).toBe(200);
      expect(text, 'the creation stream ends with a result').toContain('"type":"result"');
    },
    async loadReference(application: string, reference: string, csv: string) {
      const answer = await request.post(`${app(application)}/references/${reference}`, {
        multipart: { file: { name: csv, mimeType: 'text/csv', buffer: await readFile(csvFixture(csv)) } },
      });
      expect(answer.status(), await answer.text()).toBe(201);
    },
    /** The rows stored in a reference (or, with `data`, in a data type), as the server counts them. */
    async count(application: string, entry: string, kind: 'references' | 'data' = 'references'): Promise<number> {
      const query = encodeURIComponent(JSON.stringify({ offset: 0, limit: 1 }));
      const url =
        kind === 'references'
          ? `${app(application)}/references/${entry}?downloadDatasetQuery=${query}`
          : `${app(application)}/data/${entry}/json?downloadDatasetQuery=${query}`;
      const answer = await request.get(url);
      expect(answer.status(), await answer.text()).toBe(200);
      return ((await answer.json()) as { totalRows: number }).totalRows;
    },
    async naturalKeys(application: string, reference: string): Promise<string[]> {
      const query = encodeURIComponent(JSON.stringify({ offset: 0, limit: 1000 }));
      const answer = await request.get(`${app(application)}/references/${reference}?downloadDatasetQuery=${query}`);
      expect(answer.status()).toBe(200);
      return ((await answer.json()) as { referenceValues: Array<{ naturalKey: string }> }).referenceValues
        .map((r) => r.naturalKey)
        .sort();
    },
    async deleteReferenceRow(application: string, reference: string, naturalKey: string) {
      const answer = await request.delete(
        `${app(application)}/references/${reference}?naturalKey=${encodeURIComponent(naturalKey)}`,
      );
      expect(answer.status(), await answer.text()).toBe(200);
    },
    /** Every version of a data type the server keeps, whatever its dataset. */
    async versions(application: string, dataType: string) {
      const answer = await request.get(`${app(application)}/filesOnRepository/${dataType}`);
      expect(answer.status(), await answer.text()).toBe(200);
      return (await answer.json()) as Array<{
        id: string;
        name: string;
        published: boolean;
        from: string | null;
        to: string | null;
      }>;
    },
  };
}

export { waitForServiceWorker } from './serviceWorker';

export async function goOffline(context: BrowserContext, page: Page) {
  await context.setOffline(true);
  await expect.poll(() => page.evaluate(() => navigator.onLine)).toBe(false);
}

export async function goOnline(context: BrowserContext, page: Page) {
  await context.setOffline(false);
  await expect.poll(() => page.evaluate(() => navigator.onLine)).toBe(true);
}

/** Slows what the page receives to `bytesPerSecond`, so that a download lasts long enough to be seen. */
export async function throttle(page: Page, bytesPerSecond: number) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: bytesPerSecond,
    uploadThroughput: -1,
  });
  return () =>
    cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
}

/** Clicks, waits for the download it starts, and reads it. */
export async function download(page: Page, click: () => Promise<unknown>) {
  const [file] = await Promise.all([page.waitForEvent('download'), click()]);
  return { fileName: file.suggestedFilename(), bytes: await readDownload(file) };
}

async function readDownload(file: Download) {
  const saved = await file.path();
  return readFile(saved);
}

/** A CSV text without its byte order mark, as lines of cells (no quoted separators in what we check). */
export function csvLines(bytes: Uint8Array, separator: string): string[][] {
  const text = strFromU8(bytes).replace(/^\uFEFF/, '');
  return text
    .split(/\r?\n/)
    .filter((line) => line !== '')
    .map((line) => splitCsvLine(line, separator));
}

/** One CSV line into cells, honouring double quotes. */
export function splitCsvLine(line: string, separator: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === separator) {
      cells.push(cell);
      cell = '';
    } else cell += c;
  }
  cells.push(cell);
  return cells;
}

/** The files of a zip, as texts. */
export function zipTexts(bytes: Uint8Array): Record<string, string> {
  return Object.fromEntries(
    Object.entries(unzipSync(new Uint8Array(bytes))).map(([name, content]) => [
      name,
      strFromU8(content).replace(/^\uFEFF/, ''),
    ]),
  );
}

/**
 * The `look` of the fixtures from the top of the page (full-page screenshots of a page that a click has scrolled
 * would show the sticky menu bar halfway down), after checking that the page is no wider than the screen: wide
 * tables scroll inside their box, a phone never zooms out.
 */
export async function lookFromTop(page: Page, look: (page: Page, name: string) => Promise<void>, name: string) {
  const width = page.viewportSize()!.width;
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth),
    `${name}: the page is no wider than the screen`,
  ).toBeLessThanOrEqual(width);
  await page.evaluate(() => window.scrollTo(0, 0));
  await look(page, name);
}

/** The natural keys of the rows shown in the consultation table, in their order. */
export async function shownKeys(page: Page) {
  return page.getByTestId('reference-row').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-key')));
}

/** Loads generated CSV bytes into a reference, as its page's upload does. */
export async function loadReferenceCsv(page: Page, app: string, reference: string, body: Buffer) {
  const answer = await page.request.post(`/api/v1/applications/${app}/references/${reference}`, {
    multipart: { file: { name: `${reference}.csv`, mimeType: 'text/csv', buffer: body } },
  });
  expect(answer.status(), await answer.text()).toBe(201);
}

/**
 * Deposits a version of the surveys' counts through the API (as the signed-in manager) and waits for its
 * publication. The file is named as the deposit form reads it: `project~site~dd-MM-yyyy~dd-MM-yyyy.csv`.
 */
export async function publishCountsVersion(
  request: APIRequestContext,
  application: string,
  fileName: string,
  content: Buffer,
) {
  const [project, site, from, to] = fileName.replace(/\.csv$/, '').split('~');
  const day = (text: string) => text.split('-').reverse().join('-');
  const answer = await request.post(`/api/v1/applications/${application}/data/counts`, {
    multipart: {
      params: JSON.stringify({
        binaryfiledataset: {
          datatype: 'counts',
          requiredAuthorizations: { project, site },
          from: day(from),
          to: day(to),
        },
        topublish: true,
      }),
      file: { name: fileName, mimeType: 'text/csv', buffer: content },
    },
  });
  expect(answer.status(), await answer.text()).toBe(202);
  const { fileId } = (await answer.json()) as { fileId: string };
  await expect
    .poll(
      async () => {
        const state = (await (
          await request.get(`/api/v1/applications/${application}/file/${fileId}/publication-state`)
        ).json()) as { published: boolean; job: { status: string; error: unknown } | null };
        if (state.job?.status === 'failed')
          throw new Error(`publication of ${fileName} failed: ${JSON.stringify(state.job.error)}`);
        return state.published;
      },
      { message: `${fileName} is published`, timeout: 30_000 },
    )
    .toBe(true);
}
