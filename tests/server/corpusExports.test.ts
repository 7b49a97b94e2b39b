/**
 * The two CSV exports of every corpus application (audit fidelity S1–S3). Each application of the corpus that loads
 * is loaded as its manifest says; then, for every reference and data type without versioning, in load order:
 * - the export to load again (`zip?form=upload`: one file per shape of the rows) is loaded into a copy of the
 *   application, file by file, and the copy holds the same rows (keys and values); loaded again into the
 *   application itself, it changes nothing, not even a row's id;
 * - the readable export (`csv`, French and English) gives every column a title of its own, one line per row, and
 *   dynamic and pattern components as JSON documents.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataEntry } from '../../src/domain/configuration/index.ts';
import { loadCorpus } from '../corpus/manifest.ts';
import { corpusApplications, loadCorpusApplication } from './corpusApplications.ts';
import {
  csvForm,
  fetchBytes,
  readCsv,
  startDataServer,
  tableState,
  unzipText,
  withoutIds,
  type DataServer,
} from './dataFixtures.ts';

const corpus = loadCorpus();
const planned = corpus ? corpusApplications(corpus) : { applications: [], unread: [] };
const APPLICATION_MS = 240_000;

let data: DataServer;
/** Entries loaded again, and JSON cells read, so that the walk is known to cover them. */
const covered = { entries: 0, severalFiles: 0, jsonCells: 0 };

const routeOf = (entry: DataEntry) => (entry.kind === 'reference' ? 'references' : 'data');
const kindOf = (entry: DataEntry) => (entry.kind === 'reference' ? 'reference' : 'data');

describe.skipIf(!corpus)('every corpus export', () => {
  beforeAll(async () => {
    data = await startDataServer();
  }, APPLICATION_MS);
  afterAll(() => data?.server.close());

  for (const application of planned.applications) {
    it(
      `${application.label}: loads again into the same rows, and reads under titles of its own`,
      async () => {
        const admin = data.admin;
        await loadCorpusApplication(admin, application);
        const copy = `${application.name}_x`;
        const created = await admin.post(`/applications/${copy}`, {
          body: csvForm(application.configurationFile, application.configuration),
        });
        expect(created.text).toContain('"type":"result"');
        for (const dataName of application.model.loadOrder) {
          const entry = application.model.data.find((item) => item.name === dataName)!;
          const path = `/applications/${application.name}/${routeOf(entry)}/${dataName}`;
          const label = `${application.label} ${dataName}`;

          for (const locale of ['fr', 'en']) {
            const readable = await admin.get(`${path}/csv`, { headers: { 'accept-language': locale } });
            expect(readable.status, label).toBe(200);
            const [titles, ...lines] = readCsv(readable.text, entry.csv.separator);
            expect(new Set(titles).size, `${label} ${locale}: ${titles.join(' | ')}`).toBe(titles.length);
            const json = entry.components
              .filter((component) => component.kind === 'dynamic' || component.kind === 'pattern')
              .map((component) => entry.components.filter((c) => c.kind !== 'computed').indexOf(component));
            for (const line of lines)
              for (const at of json)
                if (line[at] !== '') {
                  expect(() => JSON.parse(line[at]), `${label} ${line[at]}`).not.toThrow();
                  covered.jsonCells += 1;
                }
          }

          if (entry.kind === 'dataType' && entry.submission.strategy === 'OA_VERSIONING') continue;
          const zip = await fetchBytes(data, `${path}/zip?form=upload`);
          expect(zip.status, label).toBe(200);
          const files = Object.entries(unzipText(zip.bytes)).filter(([name]) => !name.startsWith('references/'));
          expect(files.length, label).toBeGreaterThan(0);
          if (files.length === 1) {
            // The CSV alone is the zip's file, in every language.
            const alone = await admin.get(`${path}/csv?form=upload`, { headers: { 'accept-language': 'en' } });
            expect(alone.text, label).toBe(files[0][1]);
          } else covered.severalFiles += 1;

          const before = await tableState(admin, application.name, dataName, kindOf(entry));
          for (const [name, text] of files) {
            for (const target of [copy, application.name]) {
              const loaded = await admin.post(`/applications/${target}/${routeOf(entry)}/${dataName}`, {
                body: csvForm(name, text),
              });
              expect(loaded.status, `${label} into ${target}: ${loaded.text.slice(0, 1000)}`).toBe(201);
            }
          }
          const after = await tableState(admin, application.name, dataName, kindOf(entry));
          expect(after.rows, `${label}: loaded again into itself`).toEqual(before.rows);
          const copied = await tableState(admin, copy, dataName, kindOf(entry));
          expect(withoutIds(copied.rows), `${label}: loaded into a copy`).toEqual(withoutIds(before.rows));
          expect(copied.totalRows, label).toBe(before.totalRows);
          covered.entries += 1;
        }
      },
      APPLICATION_MS,
    );
  }

  it('loaded every reference and data type without versioning again, some from several files, and read JSON cells', () => {
    expect(planned.unread).toEqual([]);
    expect(covered.entries).toBeGreaterThanOrEqual(51);
    expect(covered.jsonCells).toBeGreaterThan(0);
  });
});
