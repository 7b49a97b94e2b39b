/**
 * A backup and its restore at real size: a data type whose dynamic component reads a reference of thousands of
 * variables, loaded from files of different columns (one naming every variable), and thousands of additional
 * files, small ones and a few of several parts. What is counted is the work, not its time: the statements sent
 * through the server's database handle and the rows they bring back. The restored application gives the same
 * backup again, and a restore failing at its last file leaves nothing.
 */
import { sql } from 'kysely';
import { unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BundleManifest } from '../../src/domain/bundle/manifest.ts';
import { streamEvents } from './applicationFixtures.ts';
import {
  createApplication,
  csvForm,
  fetchBytes,
  startDataServer,
  tableState,
  uploadReference,
  withoutIds,
  type DataServer,
} from './dataFixtures.ts';
import { statementsOf } from './statementsRead.ts';

const VARIABLES = 5_000;
/** Small additional files (one part each), and large ones of three parts. */
const FILES = 5_000;
const LARGE_FILES = 2;
/** Data files, each with the columns of its own variables: the rows come in as many shapes. */
const GROUPS = 20;
const ROWS_PER_GROUP = 150;
const COLUMNS_PER_GROUP = 40;
/** Rows of one more file, with a column for every variable: its shape's header names the whole reference. */
const WIDE_ROWS = 2;
const ROWS = GROUPS * ROWS_PER_GROUP + WIDE_ROWS;

const YAML = `OA_version: 2.0.1
OA_application:
  OA_name: gauges
  OA_version: 1.0.0
  OA_defaultLanguage: en
  OA_i18n:
    OA_title: {fr: Jauges, en: Gauges}
OA_additionalFiles:
  notes:
    OA_i18n:
      OA_title: {fr: Notes, en: Notes}
    OA_formFields:
      topic:
        OA_i18n:
          OA_title: {fr: Sujet, en: Topic}
OA_data:
  variables:
    OA_i18n:
      OA_title: {fr: Variables, en: Variables}
    OA_naturalKey: [code]
    OA_basicComponents:
      code: null
      name: null
  measures:
    OA_tags: [__DATA__]
    OA_i18n:
      OA_title: {fr: Mesures, en: Measures}
    OA_naturalKey: [code]
    OA_basicComponents:
      code: null
    OA_dynamicComponents:
      measured:
        OA_headerPrefix: "m_"
        OA_reference: variables
        OA_referenceComponentToLookForHeader: name
`;

function variablesCsv(): string {
  const lines = ['code;name'];
  for (let i = 0; i < VARIABLES; i++) lines.push(`v${String(i).padStart(5, '0')};Variable ${i}`);
  return `${lines.join('\n')}\n`;
}

/** Rows of one data file, with the columns of `variables`. */
function measuresCsv(file: number, rows: number, variables: number[]): string {
  const lines = [['code', ...variables.map((v) => `m_Variable ${v}`)].join(';')];
  for (let row = 0; row < rows; row++)
    lines.push([`f${file}r${row}`, ...variables.map((v, index) => String((row + v + index) % 97))].join(';'));
  return `${lines.join('\n')}\n`;
}

let data: DataServer;
const db = () => data.server.server.ctx.db;

/**
 * Additional files stored straight in the database, as uploads store them. Three files share each creation time,
 * to the microsecond: a backup reading them a page at a time starts each page right after the previous one.
 */
async function seedFiles(applicationId: string) {
  await sql`
    insert into additional_files (id, application_id, file_type, file_name, name_key, size, content_id, fields, created_at, updated_at)
    select md5('id' || i)::uuid, ${applicationId}, 'notes', 'note ' || lpad(i::text, 6, '0') || '.txt',
           'note ' || lpad(i::text, 6, '0') || '.txt',
           case when i <= ${LARGE_FILES}::int then 2621440 else length('note ' || i) end, md5('content' || i)::uuid,
           jsonb_build_object('topic', 'topic ' || (i % 7)),
           timestamptz '2024-01-01 00:00:00.000001+00' + (i / 3) * interval '1 second',
           timestamptz '2024-02-01 00:00:00+00' + i * interval '1 second'
    from generate_series(1, ${FILES + LARGE_FILES}::int) i`.execute(db());
  await sql`
    insert into file_parts (content_id, part, bytes)
    select md5('content' || i)::uuid, 0, convert_to('note ' || i, 'UTF8')
    from generate_series(${LARGE_FILES + 1}::int, ${FILES + LARGE_FILES}::int) i`.execute(db());
  await sql`
    insert into file_parts (content_id, part, bytes)
    select md5('content' || i)::uuid, part, convert_to(repeat(chr(96 + i + part), case when part < 2 then 1048576 else 524288 end), 'UTF8')
    from generate_series(1, ${LARGE_FILES}::int) i, generate_series(0, 2) part`.execute(db());
}

const backupOf = (app: string) => fetchBytes(data, `/applications/${app}/upload-bundle?withData=true`);

function restoreForm(bytes: Uint8Array) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), 'backup.zip');
  return form;
}

/** What two backups of the same data share: every file but the manifest and README (dated), and the manifest's lists. */
function contentOf(bytes: Uint8Array) {
  const files = unzipSync(bytes);
  const manifest: BundleManifest = JSON.parse(new TextDecoder().decode(files['manifest.json']));
  const written = Object.entries(files).filter(
    ([path]) => path.startsWith('data/') || path.startsWith('templates/') || path.startsWith('configuration/'),
  );
  return {
    written,
    data: manifest.data,
    templates: manifest.templates,
    // In the order of their names: files created at the same time come in the order of their ids, new in a restore.
    additionalFiles: manifest.additionalFiles
      .map(({ path, ...file }) => ({ ...file, path: path.split('/').at(-1) }))
      .sort((a, b) => (a.fileName < b.fileName ? -1 : 1)),
  };
}

let backup: Uint8Array;

beforeAll(async () => {
  data = await startDataServer();
  await createApplication(data.admin, 'gauges', YAML);
  expect((await uploadReference(data.admin, 'gauges', 'variables', 'variables.csv', variablesCsv())).status).toBe(201);
  const all = Array.from({ length: VARIABLES }, (_, i) => i);
  for (let file = 0; file <= GROUPS; file++) {
    const wide = file === GROUPS;
    const variables = wide ? all : all.slice(0, COLUMNS_PER_GROUP).map((i) => (file * 211 + i * 97) % VARIABLES);
    const loaded = await data.admin.post('/applications/gauges/data/measures', {
      body: csvForm(`f${file}.csv`, measuresCsv(file, wide ? WIDE_ROWS : ROWS_PER_GROUP, variables)),
    });
    expect(loaded.status, loaded.text).toBe(201);
  }
  const application = await db()
    .selectFrom('applications')
    .select('id')
    .where('name', '=', 'gauges')
    .executeTakeFirstOrThrow();
  await seedFiles(application.id);
}, 600_000);
afterAll(() => data?.server.close());

describe('a backup at real size', () => {
  it('reads each row once for its shape, the additional files a page at a time, several small ones to a statement', async () => {
    const [saved, statements, rowsRead, largest] = await statementsOf(db(), () => backupOf('gauges'), 'data_rows');
    expect(saved.status).toBe(200);
    backup = saved.bytes;
    const { data: entries, additionalFiles } = contentOf(backup);
    expect(entries.map((entry) => [entry.dataName, entry.files.length])).toEqual([
      ['variables', 1],
      ['measures', GROUPS + 1],
    ]);
    expect(entries[1]!.files.reduce((sum, file) => sum + file.rows, 0)).toBe(ROWS);
    // Each file once, whatever page it fell on (names sort as the numbers they were made from).
    expect(additionalFiles.map((file) => file.fileName).sort()).toEqual(
      Array.from({ length: FILES + LARGE_FILES }, (_, i) => `note ${String(i + 1).padStart(6, '0')}.txt`),
    );
    const files = unzipSync(backup);
    const manifest: BundleManifest = JSON.parse(new TextDecoder().decode(files['manifest.json']));
    const bytesOf = (number: number) =>
      files[
        manifest.additionalFiles.find((file) => file.fileName === `note ${String(number).padStart(6, '0')}.txt`)!.path
      ]!;
    expect(new TextDecoder().decode(bytesOf(FILES + LARGE_FILES))).toBe(`note ${FILES + LARGE_FILES}`);
    const large = bytesOf(1);
    expect([large.byteLength, large[0], large[1_048_576], large.at(-1)]).toEqual([2_621_440, 97, 98, 99]);
    // One statement per file before.
    expect(statements).toBeLessThan(150);
    // The variables as headers and as rows, one for the templates' example; each row of the measures listed under
    // its shape, then read. Before, each of the shapes' files read every row of the measures.
    expect(rowsRead).toBeLessThanOrEqual(2 * VARIABLES + 2 * ROWS + 1);
    expect(largest).toBeLessThanOrEqual(VARIABLES);
  }, 300_000);
});

describe('a restore at real size', () => {
  it('writes the small additional files in batches and gives the same backup again', async () => {
    const [answer, statements] = await statementsOf(db(), () =>
      data.admin.post('/applications/gauges_restored/upload-bundle', { body: restoreForm(backup) }),
    );
    expect(answer.status, answer.text).toBe(200);
    const events = streamEvents(answer.text);
    expect(events.filter((event) => event.type === 'error')).toEqual([]);
    expect(events.find((event) => event.type === 'result')?.result).toMatchObject({
      rows: VARIABLES + ROWS,
      additionalFiles: FILES + LARGE_FILES,
    });
    // Two statements per file before: its part, its row.
    expect(statements).toBeLessThan(300);

    for (const [entry, kind] of [
      ['variables', 'reference'],
      ['measures', 'data'],
    ] as const) {
      expect(withoutIds((await tableState(data.admin, 'gauges_restored', entry, kind)).rows)).toEqual(
        withoutIds((await tableState(data.admin, 'gauges', entry, kind)).rows),
      );
    }
    const again = await backupOf('gauges_restored');
    expect(again.status).toBe(200);
    const restored = contentOf(again.bytes);
    const original = contentOf(backup);
    expect(restored.written.map(([path]) => path)).toEqual(original.written.map(([path]) => path));
    for (const [index, [path, bytes]] of restored.written.entries())
      expect(Buffer.from(bytes).equals(Buffer.from(original.written[index]![1])), path).toBe(true);
    expect(restored.data).toEqual(original.data);
    expect(restored.templates).toEqual(original.templates);
    expect(restored.additionalFiles).toEqual(original.additionalFiles.map((file) => ({ ...file, owner: 'root' })));
  }, 300_000);

  it('failing at its last file, leaves nothing', async () => {
    const files = unzipSync(backup);
    const manifest: BundleManifest = JSON.parse(new TextDecoder().decode(files['manifest.json']));
    const last = manifest.additionalFiles.at(-1)!;
    // Same size, other bytes: refused at its checksum, once every batch before it is written.
    files[last.path] = new TextEncoder().encode(`NOTE ${FILES + LARGE_FILES}`);
    const before = await sql<{ parts: number; rows: number }>`
      select (select count(*)::int from file_parts) as parts, (select count(*)::int from data_rows) as rows`.execute(
      db(),
    );
    const answer = await data.admin.post('/applications/gauges_refused/upload-bundle', {
      body: restoreForm(zipSync(files)),
    });
    expect(answer.status, answer.text).toBe(200);
    expect(streamEvents(answer.text).find((event) => event.type === 'error')?.result).toMatchObject({
      code: 'INVALID_BUNDLE',
      params: { reason: 'checksumMismatch', entry: last.path },
    });
    expect((await data.admin.get('/applications/gauges_refused')).status).toBe(404);
    const after = await sql<{ parts: number; rows: number; applications: number }>`
      select (select count(*)::int from file_parts) as parts, (select count(*)::int from data_rows) as rows,
             (select count(*)::int from applications where name = 'gauges_refused') as applications`.execute(db());
    expect(after.rows[0]).toEqual({ ...before.rows[0], applications: 0 });
  }, 300_000);
});
