/**
 * An upload of rows says how many stored rows it added and how many it replaced, natural keys compared folded: a
 * later file whose keys differ only in case or accents replaces rows, and its answer says so. Files large enough to
 * be written in several batches (and, on the embedded database, several journaled transactions), for a reference
 * and for a data type without versioning; a file repeating a key is refused whole and counts nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApplication, csvForm, startDataServer, tableState, type DataServer } from './dataFixtures.ts';

const YAML = `OA_version: 2.0.1
OA_application: {OA_name: counted, OA_version: 1.0.0}
OA_data:
  places:
    OA_naturalKey: [code]
    OA_basicComponents: {code: null, label: null}
  tallies:
    OA_tags: [__DATA__]
    OA_naturalKey: [code]
    OA_basicComponents: {code: null, value: {OA_checker: {OA_name: OA_integer}}}
`;

/** Rows of the first file: several batches, more than one short transaction holds. */
const FIRST = 3_200;
/** Rows of the second file naming stored rows, and rows it adds. */
const AGAIN = 1_000;
const NEW = 2_500;

const pad = (index: number) => String(index).padStart(5, '0');

/**
 * The first file's keys are written `Étang 00042`; the second writes a third of the same keys in capitals without
 * accents, a third with another value, and leaves a third as they were: all fold to stored keys.
 */
function firstFile(): string[] {
  return Array.from({ length: FIRST }, (_, i) => `Étang ${pad(i)};${i}`);
}

function secondFile(): string[] {
  const replacing = Array.from({ length: AGAIN }, (_, i) => {
    if (i % 3 === 0) return `ETANG ${pad(i)};${i}`;
    if (i % 3 === 1) return `Étang ${pad(i)};${i + 1}`;
    return `Étang ${pad(i)};${i}`;
  });
  const adding = Array.from({ length: NEW }, (_, i) => `Mare ${pad(i)};${i}`);
  // Interleaved, so that every batch both adds and replaces.
  const lines: string[] = [];
  for (let i = 0; i < Math.max(replacing.length, adding.length); i += 1) {
    if (i < adding.length) lines.push(adding[i]);
    if (i < replacing.length) lines.push(replacing[i]);
  }
  return lines;
}

let data: DataServer;

beforeAll(async () => {
  data = await startDataServer();
  await createApplication(data.admin, 'counted', YAML);
}, 120_000);
afterAll(() => data?.server.close());

const upload = (path: string, text: string) => data.admin.post(path, { body: csvForm('rows.csv', text) });

describe.each([
  {
    entry: 'places',
    kind: 'reference' as const,
    path: '/applications/counted/references/places',
    name: 'referenceType',
  },
  { entry: 'tallies', kind: 'data' as const, path: '/applications/counted/data/tallies', name: 'dataType' },
])('an upload to $entry', ({ entry, kind, path, name }) => {
  const header = kind === 'reference' ? 'code;label' : 'code;value';
  const file = (lines: string[]) => `${header}\n${lines.join('\n')}\n`;

  it('answers every row added into an empty entry', async () => {
    const answer = await upload(path, file(firstFile()));
    expect(answer.status, answer.text.slice(0, 300)).toBe(201);
    expect(answer.body).toEqual({ [name]: entry, lineCount: FIRST, added: FIRST, replaced: 0, totalRows: FIRST });
  }, 120_000);

  it('answers the rows a later file replaced, their keys written in another case or without accents', async () => {
    const answer = await upload(path, file(secondFile()));
    expect(answer.status, answer.text.slice(0, 300)).toBe(201);
    expect(answer.body).toEqual({
      [name]: entry,
      lineCount: AGAIN + NEW,
      added: NEW,
      replaced: AGAIN,
      totalRows: FIRST + NEW,
    });
    const state = await tableState(data.admin, 'counted', entry, kind);
    expect(state.rows).toHaveLength(FIRST + NEW);
    expect(state.lineCount).toBe(FIRST + NEW);
  }, 120_000);

  it('answers a small file in one transaction alike', async () => {
    const answer = await upload(path, file(['ÉTANG 00001;7', 'Source 1;1']));
    expect(answer.status, answer.text.slice(0, 300)).toBe(201);
    expect(answer.body).toEqual({ [name]: entry, lineCount: 2, added: 1, replaced: 1, totalRows: FIRST + NEW + 1 });
  }, 120_000);

  it('refuses a large file repeating a key, folded, and leaves every row as it was', async () => {
    const before = await tableState(data.admin, 'counted', entry, kind);
    const lines = [
      ...Array.from({ length: FIRST }, (_, i) => `Ruisseau ${pad(i)};${i}`),
      'étang 00002;9',
      'Etang 00002;9',
    ];
    const answer = await upload(path, file(lines));
    expect(answer.status, answer.text.slice(0, 300)).toBe(400);
    expect(answer.body.code).toBe('INVALID_CSV');
    expect(answer.body.errors).toEqual([
      expect.objectContaining({ lineNumber: FIRST + 3, code: 'duplicatedLineInReference' }),
    ]);
    expect(await tableState(data.admin, 'counted', entry, kind)).toEqual(before);
  }, 120_000);
});
