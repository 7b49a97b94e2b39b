/**
 * A configuration update removing a component while a file carrying it is being stored (race audit M5): the rows
 * must not keep the removed component's values. A file checked against the configuration an update replaced
 * meanwhile is refused (409 APPLICATION_CHANGED_MEANWHILE); an update sent while rows are being written waits for
 * them, then finds them and is refused as changed meanwhile. On PostgreSQL the update goes through a second instance
 * in its own process; on the embedded database through the one instance, the upload held by its client.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpClient } from './httpClient.ts';
import {
  READINGS_PER_STATION,
  STATIONS,
  entryWriteUnderWay,
  heldUpload,
  readingsCsv,
  referencesRead,
  startRacingInstances,
  observatoryWithStations,
} from './raceFixtures.ts';
import { createApplication, csvForm, OBSERVATORY_YAML, uploadReference, type DataServer } from './dataFixtures.ts';

const fixtures = path.resolve(import.meta.dirname, '../fixtures');
const fixture = (name: string) => readFileSync(path.join(fixtures, name), 'utf8');

let data: DataServer;
let elsewhere: HttpClient;
let close: () => Promise<void>;
let applications = 0;

beforeAll(async () => {
  ({ data, elsewhere, close } = await startRacingInstances());
}, 120_000);

afterAll(() => close?.());

const NOTE = '      note: null\n';
const configuration = (name: string, version: string, withNote: boolean) => {
  const yaml = OBSERVATORY_YAML.replace('OA_name: observatory', `OA_name: ${name}`).replace(
    'OA_version: 1.0.0',
    `OA_version: ${version}`,
  );
  return withNote ? yaml : yaml.replace(NOTE, '');
};

async function observatory(): Promise<string> {
  const name = `configrace${++applications}`;
  const yaml = configuration(name, '1.0.0', true);
  expect(yaml).toContain(NOTE);
  return observatoryWithStations(data, name, yaml);
}

const withoutNote = (name: string) =>
  elsewhere.post(`/applications/${name}/configuration?confirmDataLoss=true`, {
    body: csvForm('o2.yaml', configuration(name, '2.0.0', false)),
  });

/** Readings rows, and those holding `note`, straight from the database. */
async function readings(name: string) {
  const found = await sql<{ rows: number; noted: number }>`
    select count(*)::int as rows, (count(*) filter (where values ? 'note'))::int as noted
    from data_rows join applications on applications.id = data_rows.application_id
    where applications.name = ${name} and data_name = 'readings'`.execute(data.server.server.ctx.db);
  return found.rows[0];
}

async function componentsOf(name: string): Promise<string[]> {
  const model = (await data.admin.get(`/applications/${name}?filter=CONFIGURATION`)).body;
  const configurationOf =
    typeof model.configuration === 'string' ? JSON.parse(model.configuration) : model.configuration;
  return configurationOf.data
    .find((entry: { name: string }) => entry.name === 'readings')
    .components.map((component: { key: string }) => component.key);
}

describe('a component removed while a file carrying it is stored', () => {
  it('refuses the file checked against the configuration replaced meanwhile', async () => {
    const name = await observatory();
    const read = referencesRead(data, 'readings');
    const upload = heldUpload(data, `/applications/${name}/data/readings`, readingsCsv());
    await read;
    const updated = await withoutNote(name);
    expect(updated.text).toContain('"type":"result"');
    upload.release();
    const answer = await upload.answer;
    expect(answer.status, answer.text).toBe(409);
    expect(JSON.parse(answer.text).code).toBe('APPLICATION_CHANGED_MEANWHILE');
    expect(await componentsOf(name)).not.toContain('note');
    expect(await readings(name)).toEqual({ rows: 0, noted: 0 });
  }, 300_000);

  it.runIf(process.env.DATABASE_URL)(
    'makes an update sent while the rows are written wait for them, then refuses it',
    async () => {
      const name = await observatory();
      const upload = data.admin.post(`/applications/${name}/data/readings`, { body: csvForm('r.csv', readingsCsv()) });
      await entryWriteUnderWay(data);
      const updated = await withoutNote(name);
      const stored = await upload;
      expect(stored.status, stored.text).toBe(201);
      expect(updated.text).toContain('APPLICATION_CHANGED_MEANWHILE');
      expect(await componentsOf(name)).toContain('note');
      expect(await readings(name)).toEqual({
        rows: STATIONS * READINGS_PER_STATION,
        noted: STATIONS * READINGS_PER_STATION,
      });
    },
    300_000,
  );

  it('removes with a data type the unpublished versions it holds', async () => {
    const surveys = fixture('configurations/surveys.yaml').replace('OA_name: surveys', 'OA_name: surveysremoved');
    await createApplication(data.admin, 'surveysremoved', surveys);
    for (const reference of ['projects', 'sites', 'species'])
      expect(
        (
          await uploadReference(
            data.admin,
            'surveysremoved',
            reference,
            'r.csv',
            fixture(`csv/surveys-${reference}.csv`),
          )
        ).status,
      ).toBe(201);
    const deposited = await data.admin.post('/applications/surveysremoved/data/counts', {
      body: csvForm('june.csv', 'project;site;species;day;individuals\nalps;lac_blanc;lagopus;02/06/2024;3\n', {
        binaryfiledataset: {
          datatype: 'counts',
          requiredAuthorizations: { project: 'alps', site: 'lac_blanc' },
          from: '2024-06-01',
          to: '2024-06-30',
        },
      }),
    });
    expect(deposited.status, deposited.text).toBe(201);
    const withoutCounts = surveys
      .slice(0, surveys.indexOf('  counts:'))
      .replace('OA_version: 1.0.0', 'OA_version: 2.0.0');
    const updated = await data.admin.post('/applications/surveysremoved/configuration?confirmDataLoss=true', {
      body: csvForm('s2.yaml', withoutCounts),
    });
    expect(updated.text).toContain('"type":"result"');
    const left = await sql<{ count: number }>`
      select count(*)::int as count from deposit_files join applications on applications.id = deposit_files.application_id
      where applications.name = 'surveysremoved'`.execute(data.server.server.ctx.db);
    expect(left.rows[0].count).toBe(0);
  }, 120_000);
});
