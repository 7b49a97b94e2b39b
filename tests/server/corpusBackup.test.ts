/**
 * Backup → restore of every corpus application over HTTP (issue 21): each application of the OpenADOM corpus that
 * loads is created and loaded as its manifest says (corpusApplications.ts), backed up with `GET …/upload-bundle`,
 * restored under another name by another person with `POST …/upload-bundle`, and both are compared through the
 * API: per entry the row count and the rows (natural key, hierarchical key, values as the consultation shows
 * them), the versions with their publication state, people and bytes, the additional files with their bytes, the
 * charter. The CSV exports, written by the same code, are checked on monsore's references.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApplicationModel } from '../../src/domain/configuration/index.ts';
import { cellText } from '../../src/domain/rows/cellText.ts';
import { loadCorpus } from '../corpus/manifest.ts';
import { api } from './apiClient.ts';
import { creatorUser, streamEvents, type SignedInUser } from './applicationFixtures.ts';
import { corpusApplications, loadCorpusApplication } from './corpusApplications.ts';
import { csvForm, fetchBytes, readCsv, startDataServer, tableState, type DataServer } from './dataFixtures.ts';
import type { HttpClient } from './httpClient.ts';

const corpus = loadCorpus();
const planned = corpus ? corpusApplications(corpus) : { applications: [], unread: [] };
/** Loading, backing up, restoring and comparing the largest (monsore) on a busy machine. */
const APPLICATION_MS = 120_000;

let data: DataServer;
let restorer: SignedInUser;
/** What the comparisons met, so that the walk is known to cover every kind of thing a backup holds. */
const compared = { published: 0, unpublished: 0, additionalFiles: 0, charters: 0 };

/** The bytes of a download, as base64 to compare. */
async function bytesOf(path: string) {
  const answer = await fetchBytes(data, path);
  expect(answer.status, path).toBe(200);
  return Buffer.from(answer.bytes).toString('base64');
}

/** What a person sees of an entry's rows: keys, and each value as the consultation writes it. */
function shownRows(
  model: ApplicationModel,
  dataName: string,
  rows: Array<{ naturalKey: string; hierarchicalKey: string; values: Record<string, unknown> }>,
) {
  const checkers = new Map(
    model.data
      .find((entry) => entry.name === dataName)!
      .components.map((component) => [component.key, component.checker]),
  );
  return rows
    .map((row) => ({
      key: `${row.naturalKey} ${row.hierarchicalKey}`,
      values: Object.fromEntries(
        Object.keys(row.values)
          .sort()
          .map((key) => [key, cellText(row.values[key], checkers.get(key) ?? null)]),
      ),
    }))
    .sort((a, b) => (a.key < b.key ? -1 : 1));
}

/** Everything compared between an application and its restored copy. */
async function applicationState(client: HttpClient, app: string, model: ApplicationModel) {
  const view = (await client.get(`/applications/${app}?filter=ALL`)).body;
  const state: Record<string, unknown> = { version: view.version, comment: view.comment };
  for (const entry of model.data) {
    const table = await tableState(client, app, entry.name, entry.kind === 'reference' ? 'reference' : 'data');
    state[entry.name] = {
      count: [table.rows.length, table.totalRows, table.lineCount],
      rows: shownRows(model, entry.name, table.rows),
    };
    if (entry.submission.strategy !== 'OA_VERSIONING') continue;
    const versions = (await client.get(`/applications/${app}/filesOnRepository/${entry.name}`)).body as Array<
      Record<string, any>
    >;
    state[`${entry.name} versions`] = await Promise.all(
      versions
        .sort((a, b) => (a.createdAt < b.createdAt ? -1 : 1))
        .map(async ({ id, job: _job, createdBy, publishedBy, originalDepositor, originalPublisher, ...version }) => ({
          ...version,
          // A restore credits the restorer and keeps who did it as text.
          depositor: originalDepositor ?? createdBy.login,
          publisher: originalPublisher ?? publishedBy.login,
          content: await bytesOf(`/applications/${app}/file/${id}`),
        })),
    );
  }
  for (const type of model.additionalFiles) {
    const files = (await client.get(`/applications/${app}/additionalFiles/${type.name}`)).body
      .additionalBinaryFiles as Array<Record<string, any>>;
    state[`${type.name} files`] = await Promise.all(
      files.map(
        // Who changed a file last is an account of the instance: a restore names none (restoredAdditionalFiles.ts).
        async ({
          id,
          user: _user,
          ownerLogin,
          updatedByLogin: _changer,
          originalOwner,
          mayEdit: _edit,
          mayDelete: _delete,
          ...file
        }) => ({
          ...file,
          owner: originalOwner ?? ownerLogin,
          content: await bytesOf(`/applications/${app}/additionalFiles/${type.name}/${id}/content`),
        }),
      ),
    );
  }
  state.charter = await bytesOf(`/applications/${app}/charter`);
  return state;
}

// Without the corpus on this machine (a fresh clone) there is nothing to walk: the suite says so by skipping.
describe.skipIf(!corpus)('every corpus application, backed up and restored', () => {
  beforeAll(async () => {
    data = await startDataServer();
    restorer = await creatorUser(
      data.server,
      api(data.server, { authorization: `Bearer ${data.token}` }),
      ['.*_r'],
      'restorer',
    );
  }, APPLICATION_MS);
  afterAll(() => data?.server.close());

  it('loads every file of the manifest with one configuration or another', () => {
    expect(planned.unread).toEqual([]);
    expect(planned.applications.map((application) => application.name)).toContain('monsore');
  });

  for (const application of planned.applications) {
    it(
      `${application.label}: the same rows, versions, additional files and charter`,
      async () => {
        await loadCorpusApplication(data.admin, application);
        const backup = await fetchBytes(data, `/applications/${application.name}/upload-bundle?withData=true`);
        expect(backup.status).toBe(200);
        const copy = `${application.name}_r`;
        const restored = await restorer.client.post(`/applications/${copy}/upload-bundle`, {
          body: csvForm('backup.zip', backup.bytes),
        });
        expect(restored.status, restored.text).toBe(200);
        const events = streamEvents(restored.text);
        expect(events.filter((event) => event.type === 'error')).toEqual([]);
        expect(events.find((event) => event.type === 'result')?.result).toMatchObject({ name: copy });
        const original = await applicationState(data.admin, application.name, application.model);
        expect(await applicationState(data.admin, copy, application.model)).toEqual(original);
        for (const [part, value] of Object.entries(original)) {
          if (part.endsWith(' versions'))
            for (const version of value as Array<{ published: boolean }>)
              compared[version.published ? 'published' : 'unpublished'] += 1;
          if (part.endsWith(' files')) compared.additionalFiles += (value as unknown[]).length;
        }
        compared.charters += 1;
      },
      APPLICATION_MS,
    );
  }

  it("monsore's CSV exports write references as its files do: recursive parents, references checked by a rule of OA_validations", async () => {
    const monsore = planned.applications.find((application) => application.name === 'monsore')!;
    const copy = { ...monsore, name: 'monsore_exports', deposits: [] };
    await loadCorpusApplication(data.admin, copy);
    // [entry, the file's header, the component (the export's header: it has no export title)]
    for (const [dataName, header, component] of [
      ['sites', 'zet_chemin_parent', 'zet_chemin_parent'],
      ['site_theme_datatype', 'nom du projet', 'projet'],
      ['site_theme_datatype', 'nom du site', 'site'],
      ['site_theme_datatype', 'nom du thème', 'theme'],
    ]) {
      const entry = copy.model.data.find((item) => item.name === dataName)!;
      const file = readCsv(
        copy.uploads.find((upload) => upload.dataName === dataName)!.text.trim(),
        entry.csv.separator,
      );
      const exported = readCsv(
        (await data.admin.get(`/applications/${copy.name}/references/${dataName}/csv`)).text,
        entry.csv.separator,
      );
      const column = (lines: string[][], name: string) =>
        lines
          .slice(1)
          .map((line) => line[lines[0].indexOf(name)])
          .sort();
      expect(exported[0], dataName).toContain(component);
      expect(column(exported, component), `${dataName}.${component}`).toEqual(column(file, header));
    }
  });

  it('compared published and unpublished versions, additional files and charters', () => {
    expect(compared).toMatchObject({
      published: expect.any(Number),
      unpublished: expect.any(Number),
      additionalFiles: 2,
      charters: planned.applications.length,
    });
    expect(Math.min(compared.published, compared.unpublished)).toBeGreaterThan(0);
  });
});
