import { unzipSync } from 'fflate';
import Papa from 'papaparse';
import { expect } from 'vitest';
import type { ApplicationModel } from '../../src/domain/configuration/model.ts';
import type { StoredRow } from '../../src/domain/csv/index.ts';
import type { ServerConfig } from '../../server/config.ts';
import { HttpClient, type Answer } from './httpClient.ts';
import { startTestServer, type TestServer } from './harness.ts';

/**
 * Helpers of the reference, data-type and deposit tests (issues 7 and 8): a configuration written for them, forms,
 * queries, stored-row snapshots, job polling, CSV and zip readers.
 */

/**
 * Terrain's own test application for references and data: every checker the consultation filters on (integer,
 * float with bounds, date, reference ONE and MANY), a display pattern per language, an entry with `,` as its
 * separator, a column whose export title is its import header in French only, and a data type without versioning
 * pointing to a reference.
 */
/** Two data types without versioning, the notes pointing to the counts (data types may be pointed to). */
export const TALLIES_YAML = `OA_version: 2.0.1
OA_application: {OA_name: tallies, OA_version: 1.0.0}
OA_data:
  counts:
    OA_tags: [__DATA__]
    OA_naturalKey: [code]
    OA_basicComponents: {code: null, value: {OA_checker: {OA_name: OA_integer}}}
  notes:
    OA_tags: [__DATA__]
    OA_naturalKey: [code]
    OA_basicComponents:
      code: null
      count: {OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: counts}}}}
`;

export const OBSERVATORY_YAML = `OA_version: 2.0.1
OA_application:
  OA_name: observatory
  OA_version: 1.0.0
  OA_defaultLanguage: en
  OA_i18n:
    OA_title: {fr: Observatoire, en: Observatory}
OA_data:
  habitats:
    OA_i18n:
      OA_title: {fr: Habitats, en: Habitats}
    OA_naturalKey: [code]
    OA_separator: ","
    OA_i18nDisplayPattern:
      OA_title: {fr: "{label_fr}", en: "{label_en}"}
    OA_basicComponents:
      code: null
      label_fr: null
      label_en: null
  stations:
    OA_i18n:
      OA_title: {fr: Stations, en: Stations}
    OA_naturalKey: [code]
    OA_i18nDisplayPattern:
      OA_title: {fr: "Station {label}", en: "{label} station"}
    OA_basicComponents:
      code:
        OA_required: true
      label:
        OA_importHeader: Nom
        OA_exportHeader:
          OA_title: {fr: Nom, en: Name}
      altitude:
        OA_checker: {OA_name: OA_integer}
      depth:
        OA_checker: {OA_name: OA_float, OA_params: {OA_min: 0, OA_max: 100}}
      opened:
        OA_checker: {OA_name: OA_date, OA_params: {OA_pattern: dd/MM/yyyy}}
      habitat:
        OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: habitats}}}
      habitats:
        OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: habitats}, OA_multiplicity: MANY}}
  readings:
    OA_tags: [__DATA__]
    OA_i18n:
      OA_title: {fr: Relevés, en: Readings}
    OA_naturalKey: [station, day]
    OA_basicComponents:
      station:
        OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: stations}}}
      day:
        OA_checker: {OA_name: OA_date, OA_params: {OA_pattern: dd/MM/yyyy}}
      value:
        OA_checker: {OA_name: OA_float}
      note: null
    OA_authorizations:
      OA_authorizationScope: [station]
      OA_timeScope: day
`;

export const HABITATS_CSV = `code,label_fr,label_en
forest,Forêt,Forest
lake,Lac,Lake
meadow,Prairie,Meadow
scree,"Éboulis ""actifs""",Scree
`;

/** Six stations: altitudes 400…2900, depths with decimals, dates over three years, single and multiple habitats. */
export const STATIONS_CSV = `code;Nom;altitude;depth;opened;habitat;habitats
anterne;Lac d'Anterne;2063;12.5;15/06/2019;lake;lake,meadow
brevent;"Le Brévent, sommet";2525;0;01/07/2020;scree;scree
chamonix;Chamonix;1035;3.25;01/01/2018;meadow;meadow,forest
gers;"Lac de ""Gers""";1544;7;20/08/2021;lake;lake
leman;Léman;372;99.5;03/03/2018;lake;lake,forest,meadow
vallot;Vallot;4362;;10/10/2020;scree;
`;

export const READINGS_CSV = `station;day;value;note
anterne;01/06/2024;4.5;calm
anterne;02/06/2024;5;
chamonix;01/06/2024;-1.25;frost
gers;03/06/2024;12;windy
`;

export const ROOT = { login: 'root', password: 'root-password', email: 'root@terrain.test' };

export interface DataServer {
  server: TestServer;
  admin: HttpClient;
  /** The administrator's session token (Authorization: Bearer), for raw downloads. */
  token: string;
}

/** A server (PGlite, or a scratch PostgreSQL database with DATABASE_URL) and its signed-in administrator. */
export async function startDataServer(
  overrides: Partial<ServerConfig> = {},
  options: Parameters<typeof startTestServer>[2] = {},
): Promise<DataServer> {
  const server = await startTestServer({ admin: ROOT, ...overrides }, {}, options);
  const admin = new HttpClient(server.url + '/api/v1');
  const login = await admin.post('/login', { form: { login: ROOT.login, password: ROOT.password } });
  expect(login.status, login.text).toBe(200);
  return { server, admin, token: login.headers.get('authorization')!.replace(/^Bearer /, '') };
}

/** A multipart form: `params` (JSON) first when given, then `file`. */
export function csvForm(fileName: string, content: string | Uint8Array, params?: object): FormData {
  const data = new FormData();
  if (params) data.append('params', JSON.stringify(params));
  const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content;
  data.append('file', new Blob([new Uint8Array(bytes)]), fileName);
  return data;
}

/** `?downloadDatasetQuery=…` */
export const q = (query: object) => `?downloadDatasetQuery=${encodeURIComponent(JSON.stringify(query))}`;

/** Creates an application from configuration bytes; fails the test unless the stream ends with a result. */
export async function createApplication(
  admin: HttpClient,
  name: string,
  yaml: string | Uint8Array,
  fileName = `${name}.yaml`,
) {
  const answer = await admin.post(`/applications/${name}`, { body: csvForm(fileName, yaml) });
  expect(answer.status, answer.text).toBe(200);
  expect(answer.text, answer.text).toContain('"type":"result"');
  expect(answer.text).not.toContain('"type":"error"');
}

export async function uploadReference(
  admin: HttpClient,
  app: string,
  reference: string,
  fileName: string,
  content: string | Uint8Array,
): Promise<Answer> {
  return admin.post(`/applications/${app}/references/${reference}`, { body: csvForm(fileName, content) });
}

/** The observatory application with its habitats and its six stations loaded. */
export async function createObservatory(admin: HttpClient): Promise<void> {
  await createApplication(admin, 'observatory', OBSERVATORY_YAML);
  for (const [name, csv] of [
    ['habitats', HABITATS_CSV],
    ['stations', STATIONS_CSV],
  ])
    expect((await uploadReference(admin, 'observatory', name, `${name}.csv`, csv)).status).toBe(201);
}

/** The model as the browser gets it (`?filter=CONFIGURATION`). */
export async function modelOf(admin: HttpClient, app: string): Promise<ApplicationModel> {
  const answer = await admin.get(`/applications/${app}?filter=CONFIGURATION`);
  expect(answer.status, answer.text).toBe(200);
  const configuration = answer.body.configuration;
  return (typeof configuration === 'string' ? JSON.parse(configuration) : configuration) as ApplicationModel;
}

/** Every stored row of a reference as the browser caches it (NDJSON `…/rows`). */
export async function storedRows(admin: HttpClient, app: string, reference: string): Promise<StoredRow[]> {
  const answer = await admin.get(`/applications/${app}/references/${reference}/rows`);
  expect(answer.status, answer.text).toBe(200);
  return answer.text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const row = JSON.parse(line) as StoredRow & { id: string };
      return { naturalKey: row.naturalKey, hierarchicalKey: row.hierarchicalKey, values: row.values };
    });
}

/** A stored row as compared between two states: everything but its id. */
export interface RowState {
  naturalKey: string;
  hierarchicalKey: string;
  values: Record<string, unknown>;
}

/**
 * What an entry holds, compared whole: its rows (with their ids, in natural-key order), the consultation's total
 * and the stored line count. References are read from their NDJSON copy, data types from their JSON pages.
 */
export async function tableState(
  admin: HttpClient,
  app: string,
  entry: string,
  kind: 'reference' | 'data' = 'reference',
) {
  let rows: Array<RowState & { id: string }>;
  let totalRows: number;
  if (kind === 'reference') {
    const answer = await admin.get(`/applications/${app}/references/${entry}/rows`);
    expect(answer.status, answer.text).toBe(200);
    rows = answer.text
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line));
    totalRows = (await admin.get(`/applications/${app}/references/${entry}`)).body.totalRows;
  } else {
    rows = [];
    for (let offset = 0; ; offset += 1000) {
      const page = await admin.get(`/applications/${app}/data/${entry}/json${q({ offset, limit: 1000 })}`);
      expect(page.status, page.text).toBe(200);
      rows.push(
        ...page.body.rows.map((r: RowState & { id: string }) => ({
          id: r.id,
          naturalKey: r.naturalKey,
          hierarchicalKey: r.hierarchicalKey,
          values: r.values,
        })),
      );
      totalRows = page.body.totalRows;
      if (page.body.rows.length < 1000) break;
    }
  }
  const listed = await admin.get(`/applications/${app}?filter=ALL`);
  return { rows, totalRows: totalRows!, lineCount: (listed.body.lineCounts ?? {})[entry] ?? 0 };
}

/** Rows without their ids, sorted by natural key then hierarchical key: what two applications can share. */
export const withoutIds = (rows: Array<RowState & { id?: string }>): RowState[] =>
  rows
    .map(({ naturalKey, hierarchicalKey, values }) => ({ naturalKey, hierarchicalKey, values }))
    .sort((a, b) =>
      a.naturalKey === b.naturalKey
        ? a.hierarchicalKey < b.hierarchicalKey
          ? -1
          : 1
        : a.naturalKey < b.naturalKey
          ? -1
          : 1,
    );

/** Waits for the latest publication job of a version to end; answers the version's state. */
export async function waitForJob(admin: HttpClient, app: string, fileId: string, timeoutMs = 120_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const state = await admin.get(`/applications/${app}/file/${fileId}/publication-state`);
    expect(state.status, state.text).toBe(200);
    if (state.body.job && ['done', 'failed'].includes(state.body.job.status)) return state.body;
    if (Date.now() > until) throw new Error(`job of ${fileId} did not end: ${state.text}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A CSV answer read back: header and records, with its separator. */
export function readCsv(text: string, separator: string): string[][] {
  const parsed = Papa.parse<string[]>(text.replace(/\n$/, ''), { delimiter: separator, quoteChar: '"' });
  expect(parsed.errors).toEqual([]);
  return parsed.data;
}

/** A GET answered as bytes (zip exports), authenticated by the session token. */
export async function fetchBytes(
  data: DataServer,
  path: string,
): Promise<{ status: number; headers: Headers; bytes: Uint8Array }> {
  const response = await fetch(`${data.server.url}/api/v1${path}`, {
    headers: { authorization: `Bearer ${data.token}` },
  });
  return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) };
}

/** The files of a zip, as text. */
export function unzipText(bytes: Uint8Array): Record<string, string> {
  const files = unzipSync(bytes);
  return Object.fromEntries(Object.entries(files).map(([name, content]) => [name, new TextDecoder().decode(content)]));
}
