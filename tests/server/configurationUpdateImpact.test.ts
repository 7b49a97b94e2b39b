/**
 * Safe configuration updates over HTTP (issue 25, item 5) on an application holding 3,000 rows: a dry run reports
 * the impact and writes nothing; an update deleting stored values is refused until confirmed, then applied with
 * the deletion in one transaction (a failure after the deletions undoes them); a stricter checker reports the
 * stored rows it would refuse; a natural key change with rows stays forbidden; malformed flags are bad requests;
 * removing a data type deletes its deposited versions; the OpenAPI document shows the flags and the result.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApplication, csvForm, startDataServer, uploadReference, type DataServer } from './dataFixtures.ts';
import { errorEvents, resultEvents, streamEvents } from './applicationFixtures.ts';
import type { HttpClient } from './httpClient.ts';
import { dataLossSummary } from '../../src/domain/applications/updateImpact.ts';

const ROWS = 3000;
const APP = 'impacts';

function configuration(version: string, edit: (text: string) => string = (text) => text) {
  return edit(`OA_version: 2.0.1
OA_application:
  OA_name: ${APP}
  OA_version: ${version}
  OA_defaultLanguage: en
  OA_i18n:
    OA_title: {fr: Impacts, en: Impacts}
OA_data:
  plots:
    OA_naturalKey: [code]
    OA_basicComponents:
      code:
        OA_required: true
      altitude:
        OA_checker: {OA_name: OA_integer}
      note: null
  zones:
    OA_naturalKey: [zone]
    OA_basicComponents:
      zone: null
`);
}

// Notes over two lines: a row is one line of the file however many line breaks its values hold.
const PLOTS_CSV = ['code;altitude;note', ...Array.from({ length: ROWS }, (_, i) => `p${i};${i};"note\n${i}"`)].join(
  '\n',
);
const ZONES_CSV = ['zone', ...Array.from({ length: 10 }, (_, i) => `z${i}`)].join('\n');

let data: DataServer;
let admin: HttpClient;

beforeAll(async () => {
  data = await startDataServer();
  admin = data.admin;
  await createApplication(admin, APP, configuration('1.0.0'));
  const plots = await uploadReference(admin, APP, 'plots', 'plots.csv', PLOTS_CSV);
  expect(plots.status, plots.text.slice(0, 2000)).toBe(201);
  expect((await uploadReference(admin, APP, 'zones', 'zones.csv', ZONES_CSV)).status).toBe(201);
}, 120_000);
afterAll(() => data?.server.close());

async function update(yaml: string, query = '', fields: Record<string, string> = {}) {
  const form = csvForm('impacts.yaml', yaml);
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const answer = await admin.post(`/applications/${APP}/configuration${query}`, { body: form });
  expect(answer.status, answer.text).toBe(200);
  return streamEvents(answer.text);
}

/** The application's version and what its rows hold, read together from the database. */
async function state() {
  const db = data.server.server.ctx.db;
  const application = await db
    .selectFrom('applications')
    .select(['id', 'version'])
    .where('name', '=', APP)
    .executeTakeFirstOrThrow();
  const counts = await sql<{ data_name: string; rows: number; notes: number }>`
    select data_name, count(*)::int as rows, count(*) filter (where values ? 'note')::int as notes
    from data_rows where application_id = ${application.id} group by data_name order by data_name`.execute(db);
  return { version: application.version, rows: counts.rows };
}

const withoutNoteAndZones = (version: string) =>
  configuration(version, (text) => text.replace('      note: null\n', '').replace(/ {2}zones:[\s\S]*$/, ''));

describe('a configuration update of an application holding rows', () => {
  it('reports a removed column and a removed entry in a dry run, and writes nothing', async () => {
    const before = await state();
    expect(before).toEqual({
      version: '1.0.0',
      rows: [
        { data_name: 'plots', rows: ROWS, notes: ROWS },
        { data_name: 'zones', rows: 10, notes: 0 },
      ],
    });
    const events = await update(withoutNoteAndZones('2.0.0'), '?dryRun=true');
    expect(errorEvents(events)).toEqual([]);
    const [result] = resultEvents(events);
    expect(result.dryRun).toBe(true);
    const plots = result.impact.entries.find((entry: { dataName: string }) => entry.dataName === 'plots');
    expect(plots.items).toEqual([
      {
        change: 'componentRemoved',
        severity: 'dataLoss',
        code: 'REMOVED_COMPONENT_WITH_ROWS',
        component: 'note',
        rows: ROWS,
      },
    ]);
    const zones = result.impact.entries.find((entry: { dataName: string }) => entry.dataName === 'zones');
    expect(zones.items).toEqual([
      { change: 'entryRemoved', severity: 'dataLoss', code: 'REMOVED_DATA_WITH_ROWS', rows: 10 },
    ]);
    expect(await state()).toEqual(before);
  });

  it('takes the dry run from a form field too', async () => {
    const events = await update(withoutNoteAndZones('2.0.0'), '', { dryRun: 'true' });
    expect(resultEvents(events)[0]).toMatchObject({ dryRun: true });
    expect((await state()).version).toBe('1.0.0');
  });

  it('refuses an update deleting stored data without confirmation, and changes nothing', async () => {
    const before = await state();
    const events = await update(withoutNoteAndZones('2.0.0'));
    expect(resultEvents(events)).toEqual([]);
    expect(errorEvents(events).map((e) => [e.result.code, e.result.params])).toEqual([
      ['UPDATE_LOSES_DATA', { entries: ['zones'], rows: 10, components: ['plots.note'], values: ROWS }],
    ]);
    expect(await state()).toEqual(before);
  });

  it('answers 400, not 500, for malformed flags', async () => {
    const query = await admin.post(`/applications/${APP}/configuration?dryRun=maybe`, {
      body: csvForm('impacts.yaml', withoutNoteAndZones('2.0.0')),
    });
    expect(query.status).toBe(400);
    expect(query.body.code).toBe('BAD_REQUEST');
    const form = csvForm('impacts.yaml', withoutNoteAndZones('2.0.0'));
    form.append('confirmDataLoss', 'yes');
    const field = await admin.post(`/applications/${APP}/configuration`, { body: form });
    expect(field.status).toBe(400);
    expect(field.body.code).toBe('BAD_REQUEST');
    expect((await state()).version).toBe('1.0.0');
  });

  it('reports the stored rows a stricter checker would refuse, with examples', async () => {
    const tighter = configuration('1.1.0', (text) =>
      text.replace('OA_checker: {OA_name: OA_integer}', 'OA_checker: {OA_name: OA_integer, OA_params: {OA_max: 1000}}'),
    );
    const events = await update(tighter, '?dryRun=true');
    const plots = resultEvents(events)[0].impact.entries.find(
      (entry: { dataName: string }) => entry.dataName === 'plots',
    );
    expect(plots.items).toEqual([
      {
        change: 'checkerChanged',
        severity: 'info',
        component: 'altitude',
        before: ['integer'],
        after: ['integer'],
        tightened: ['max'],
      },
    ]);
    expect(plots.revalidation).toMatchObject({ checkedRows: ROWS, failingRows: ROWS - 1001, complete: true });
    expect(plots.revalidation.examples.length).toBeGreaterThan(0);
    for (const example of plots.revalidation.examples) {
      expect(Number(example.naturalKey.slice(1))).toBeGreaterThan(1000);
      expect(example.code).toEqual(expect.any(String));
    }
    expect((await state()).version).toBe('1.0.0');
  });

  it('keeps forbidding a natural key change while the entry holds rows, confirmed or not', async () => {
    const rekeyed = configuration('1.2.0', (text) => text.replace('OA_naturalKey: [code]', 'OA_naturalKey: [note]'));
    const dryRun = resultEvents(await update(rekeyed, '?dryRun=true'))[0];
    const plots = dryRun.impact.entries.find((entry: { dataName: string }) => entry.dataName === 'plots');
    expect(plots.items).toContainEqual(
      expect.objectContaining({
        change: 'naturalKeyChanged',
        severity: 'forbidden',
        code: 'CHANGED_NATURAL_KEY_WITH_ROWS',
      }),
    );
    const events = await update(rekeyed, '?confirmDataLoss=true');
    expect(resultEvents(events)).toEqual([]);
    expect(errorEvents(events).map((e) => e.result.code)).toEqual(['CHANGED_NATURAL_KEY_WITH_ROWS']);
    expect((await state()).version).toBe('1.0.0');
  });

  it('undoes the deletions when the update fails after them', async () => {
    const before = await state();
    const db = data.server.server.ctx.db;
    const { id } = await db.selectFrom('applications').select('id').where('name', '=', APP).executeTakeFirstOrThrow();
    // A configuration row already holding the version makes the update's last statement fail.
    await db
      .insertInto('configurations')
      .values({
        id: '00000000-0000-4000-8000-000000000001',
        application_id: id,
        version: '2.5.0',
        file_name: 'taken.yaml',
        content: new Uint8Array([1]),
        model: '{}',
        comment: '',
      })
      .execute();
    try {
      const events = await update(withoutNoteAndZones('2.5.0'), '?confirmDataLoss=true');
      expect(resultEvents(events)).toEqual([]);
      expect(errorEvents(events).map((e) => e.result.code)).toEqual(['APPLICATION_VERSION_EXISTS']);
      expect(await state()).toEqual(before);
    } finally {
      await db.deleteFrom('configurations').where('id', '=', '00000000-0000-4000-8000-000000000001').execute();
    }
  });

  it('refuses a confirmation given for another loss than the update’s (rows loaded since), and deletes nothing', async () => {
    const before = await state();
    const [dryRun] = resultEvents(await update(withoutNoteAndZones('2.0.0'), '?dryRun=true'));
    const loss = dataLossSummary(dryRun.impact);
    const events = await update(withoutNoteAndZones('2.0.0'), '', {
      confirmDataLoss: 'true',
      confirmedLoss: JSON.stringify({ ...loss, values: loss.values - 1 }),
      fromVersion: '1.0.0',
    });
    expect(resultEvents(events)).toEqual([]);
    expect(errorEvents(events).map((e) => [e.result.code, e.result.params])).toEqual([['UPDATE_LOSES_DATA', loss]]);
    expect(await state()).toEqual(before);
  });

  it('refuses an update prepared from a version that is no longer current (sent long after), and changes nothing', async () => {
    const before = await state();
    const events = await update(withoutNoteAndZones('2.0.0'), '', { confirmDataLoss: 'true', fromVersion: '0.9.0' });
    expect(resultEvents(events)).toEqual([]);
    expect(errorEvents(events).map((e) => [e.result.code, e.result.params])).toEqual([
      ['APPLICATION_CHANGED_MEANWHILE', { name: APP, version: '1.0.0', fromVersion: '0.9.0' }],
    ]);
    expect(await state()).toEqual(before);
  });

  it('answers 400, not 500, for a malformed confirmed loss', async () => {
    for (const confirmedLoss of ['nope', 'null', '{"entries":"zones","rows":1,"components":[],"values":0}', '{}']) {
      const form = csvForm('impacts.yaml', withoutNoteAndZones('2.0.0'));
      form.append('confirmDataLoss', 'true');
      form.append('confirmedLoss', confirmedLoss);
      const answer = await admin.post(`/applications/${APP}/configuration`, { body: form });
      expect([answer.status, answer.body.code], confirmedLoss).toEqual([400, 'BAD_REQUEST']);
    }
    expect((await state()).version).toBe('1.0.0');
  });

  it('applies a confirmed update with its deletions in one transaction', async () => {
    const [dryRun] = resultEvents(await update(withoutNoteAndZones('2.0.0'), '?dryRun=true'));
    const events = await update(withoutNoteAndZones('2.0.0'), '', {
      confirmDataLoss: 'true',
      confirmedLoss: JSON.stringify(dataLossSummary(dryRun.impact)),
      fromVersion: '1.0.0',
    });
    expect(errorEvents(events)).toEqual([]);
    const [result] = resultEvents(events);
    expect(result).toMatchObject({ name: APP, version: '2.0.0' });
    expect(result.impact.entries.map((entry: { dataName: string }) => entry.dataName)).toEqual(['plots', 'zones']);
    expect(await state()).toEqual({ version: '2.0.0', rows: [{ data_name: 'plots', rows: ROWS, notes: 0 }] });
    const view = await admin.get(`/applications/${APP}?filter=ALL`);
    expect(view.status, view.text).toBe(200);
    expect(view.body.lineCounts).toEqual({ plots: ROWS });
    const page = await admin.get(`/applications/${APP}/references/plots/rows`);
    expect(page.status).toBe(200);
    const first = JSON.parse(page.text.split('\n')[0]) as { values: Record<string, unknown> };
    expect(first.values).not.toHaveProperty('note');
  });
});

describe('the OpenAPI document of the update', () => {
  it('shows the dry run and confirmation flags, and the impact the result carries', async () => {
    const answer = await fetch(`${data.server.url}/api/v1/openapi.json`);
    const document = (await answer.json()) as {
      paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string }>; responses: object }>>;
    };
    const operation = document.paths['/api/v1/applications/{name}/configuration'].post;
    expect(operation.parameters?.filter((p) => p.in === 'query').map((p) => p.name)).toEqual(
      expect.arrayContaining(['dryRun', 'confirmDataLoss']),
    );
    const described = JSON.stringify(operation.responses);
    for (const word of ['x-result', 'dryRun', 'impact', 'failingRows', 'dataLoss', 'REMOVED_COMPONENT_WITH_ROWS'])
      expect(described).toContain(word);
  });
});

describe('removing a data type holding deposited versions', () => {
  const fixtures = path.resolve(import.meta.dirname, '../fixtures');
  const file = (name: string) => readFileSync(path.join(fixtures, name));
  const SURVEYS = 'surveys_removed';

  async function waitForPublication(fileId: string) {
    for (let i = 0; i < 200; i++) {
      const state = await admin.get(`/applications/${SURVEYS}/file/${fileId}/publication-state`);
      if (state.body.job && ['done', 'failed'].includes(state.body.job.status)) return state.body;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('publication did not end');
  }

  it('deletes its rows, its versions and its count with the confirmed update', async () => {
    const yaml = file('configurations/surveys.yaml').toString('utf8');
    await createApplication(admin, SURVEYS, yaml);
    for (const [reference, csv] of [
      ['projects', 'surveys-projects.csv'],
      ['sites', 'surveys-sites.csv'],
      ['species', 'surveys-species.csv'],
    ])
      expect((await uploadReference(admin, SURVEYS, reference, csv, file(`csv/${csv}`))).status).toBe(201);
    const deposited = await admin.post(`/applications/${SURVEYS}/data/counts`, {
      body: csvForm('alps~lac_blanc~01-06-2024~30-06-2024.csv', file('csv/alps~lac_blanc~01-06-2024~30-06-2024.csv'), {
        binaryfiledataset: {
          datatype: 'counts',
          requiredAuthorizations: { project: 'alps', site: 'lac_blanc' },
          from: '2024-06-01 00:00:00',
          to: '2024-06-30 23:59:59',
          comment: 'field day',
        },
      }),
    });
    expect(deposited.status, deposited.text).toBe(201);
    const fileId = deposited.body.fileId as string;
    await admin.post(`/applications/${SURVEYS}/data/counts`, { json: { fileid: fileId, topublish: true } });
    expect((await waitForPublication(fileId)).published).toBe(true);

    const withoutCounts = yaml.replace('OA_version: 1.0.0', 'OA_version: 2.0.0').replace(/ {2}counts:[\s\S]*$/, '');
    const form = csvForm('surveys.yaml', withoutCounts);
    form.append('confirmDataLoss', 'true');
    const answer = await admin.post(`/applications/${SURVEYS}/configuration`, { body: form });
    const events = streamEvents(answer.text);
    expect(errorEvents(events)).toEqual([]);
    const counts = resultEvents(events)[0].impact.entries.find(
      (entry: { dataName: string }) => entry.dataName === 'counts',
    );
    expect(counts.items).toEqual([
      { change: 'entryRemoved', severity: 'dataLoss', code: 'REMOVED_DATA_WITH_ROWS', rows: 3 },
    ]);

    const db = data.server.server.ctx.db;
    const application = await db
      .selectFrom('applications')
      .select(['id', 'version'])
      .where('name', '=', SURVEYS)
      .executeTakeFirstOrThrow();
    expect(application.version).toBe('2.0.0');
    const left = async (table: 'data_rows' | 'deposit_files' | 'entry_counts') =>
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('application_id', '=', application.id)
          .where('data_name', '=', 'counts')
          .executeTakeFirstOrThrow()
      ).n;
    expect([await left('data_rows'), await left('deposit_files'), await left('entry_counts')].map(Number)).toEqual([
      0, 0, 0,
    ]);
  });
});
