/**
 * Any user may send anything (issue 22): every route of the OpenAPI document, called with malformed and hostile
 * parameters, answers 4xx (or a success), never 5xx. The calls are made by the platform administrator on real
 * applications (so they reach the services, not only the first refusal) and by a visitor. Parameters come from a
 * seeded generator: path values among the real names and hostile texts; JSON carried in query strings and form
 * fields (`downloadDatasetQuery`, `params`, `repositoryId`) with every field replaced in turn by values of the wrong
 * type; JSON bodies likewise; multipart bodies without a boundary, cut short, or with hostile fields.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENEROUS_RATE_LIMITS, signedIn } from './accountFixtures.ts';
import { api, type ApiClient } from './apiClient.ts';
import { startTestServer, type TestServer } from './harness.ts';
import { seededRandom } from '../seededRandom.ts';

const fixtures = path.resolve(import.meta.dirname, '../fixtures');
const file = (name: string) => readFileSync(path.join(fixtures, name));
const ROOT = { login: 'root', password: 'root-password', email: 'root@terrain.test' };
/** Calls per route and caller; more for routes that read JSON from a body, a form field or a query string. */
const CALLS = 10;
const CALLS_WITH_JSON = 60;

interface Operation {
  method: string;
  path: string;
  parameters: Array<{ in: 'path' | 'query'; name: string; schema?: { type?: string } }>;
  jsonBody: boolean;
}

let server: TestServer;
let admin: ApiClient;
let operations: Operation[];
const known: Record<string, string[]> = {};

function form(fileName: string, bytes: Uint8Array | string, params?: object) {
  const data = new FormData();
  if (params) data.append('params', JSON.stringify(params));
  data.append('file', new Blob([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)]), fileName);
  return data;
}

beforeAll(async () => {
  server = await startTestServer({ admin: ROOT, ...GENEROUS_RATE_LIMITS });
  admin = await signedIn(server, ROOT);
  expect(
    (
      await admin.post('/applications/surveys', {
        body: form('surveys-requests.yaml', file('configurations/surveys-requests.yaml')),
      })
    ).status,
  ).toBe(200);
  for (const reference of ['institutes', 'projects', 'sites', 'species']) {
    const loaded = await admin.post(`/applications/surveys/references/${reference}`, {
      body: form(`surveys-${reference}.csv`, file(`csv/surveys-${reference}.csv`)),
    });
    expect(loaded.status, loaded.text).toBe(201);
  }
  const deposited = await admin.post('/applications/surveys/data/counts', {
    body: form('a.csv', 'project;site;species;day;individuals\nalps;lac_blanc;lagopus;12/06/2024;5\n', {
      binaryfiledataset: {
        datatype: 'counts',
        requiredAuthorizations: { project: 'alps', site: 'lac_blanc' },
        from: '2024-06-01',
        to: '2024-06-30',
      },
    }),
  });
  expect(deposited.status, deposited.text).toBe(201);
  expect(
    (
      await admin.post('/applications/fieldbook', {
        body: form('fieldbook.yaml', file('configurations/fieldbook.yaml')),
      })
    ).status,
  ).toBe(200);
  const document = (await api(server).get('/openapi.json')).body as {
    paths: Record<
      string,
      Record<string, { parameters?: Operation['parameters']; requestBody?: { content: Record<string, unknown> } }>
    >;
  };
  operations = Object.entries(document.paths).flatMap(([route, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path: route.replace(/^\/api\/v1/, ''),
      parameters: operation.parameters ?? [],
      jsonBody: Boolean(operation.requestBody?.content['application/json']),
    })),
  );
  Object.assign(known, {
    name: ['surveys', 'fieldbook'],
    refType: ['species', 'sites', 'projects'],
    dataType: ['counts'],
    variable: ['individuals'],
    fileId: [deposited.body.fileId],
    fileType: ['protocols'],
    role: ['applicationCreator', 'applicationManager'],
    idOrLogin: ['root'],
    user: ['root'],
    id: [deposited.body.fileId],
  });
}, 120_000);
afterAll(() => server?.close());

/** Values of the wrong type, or hostile ones, put in place of a field or a parameter. */
const HOSTILE_VALUES: unknown[] = [
  'a\u0000b',
  9e18,
  1e20,
  null,
  5,
  -1,
  0.5,
  1e308,
  true,
  '',
  'x',
  '../..',
  '2024-13-45',
  '9999-99-99T99:99',
  '\u202e',
  'ä'.repeat(300),
  [],
  [null],
  [5],
  {},
  { a: {} },
  [[[]]],
];
const HOSTILE_TEXTS = [
  'a\u0000b',
  '',
  ' ',
  'ä',
  '..',
  '%2e%2e',
  'null',
  'undefined',
  '-1',
  '1e309',
  'NaN',
  '{"a":1}',
  '[]',
  "' or 1=1 --",
  'a'.repeat(300),
  '\u202e',
  '00000000-0000-0000-0000-000000000000',
  'ZZZZZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZZZZZZZZZ',
];

/** The shape of the JSON some parameters carry, to break one field at a time. */
const JSON_SHAPES: Record<string, object> = {
  downloadDatasetQuery: {
    offset: 0,
    limit: 10,
    naturalKeys: ['a'],
    rowIds: ['00000000-0000-0000-0000-000000000000'],
    componentFilters: [{ componentKey: 'individuals', filters: ['1'], intervalValues: { from: '1', to: '2' } }],
    componentOrderBy: [{ componentKey: 'individuals', order: 'DESC' }],
    outPut: { locale: 'fr' },
  },
  repositoryId: {
    requiredAuthorizations: { project: 'alps', site: ['lac_blanc'] },
    from: '2024-06-01',
    to: '2024-06-30',
  },
  params: {
    offset: 0,
    limit: 10,
    setted: false,
    search: 'a',
    fieldFilters: [{ field: 'purpose', filter: 'a', isRegExp: false }],
    additionalFilesInfos: { protocols: { fieldFilters: [{ field: 'title', filter: 'a' }] } },
    uuids: ['00000000-0000-0000-0000-000000000000'],
  },
  deposit: {
    fileid: '00000000-0000-0000-0000-000000000000',
    topublish: false,
    binaryfiledataset: {
      datatype: 'counts',
      requiredAuthorizations: { project: 'alps', site: 'lac_blanc' },
      from: '2024-06-01',
      to: '2024-06-30',
      comment: 'c',
    },
  },
};

type Random = () => number;
const pick = <T>(random: Random, values: readonly T[]): T => values[Math.floor(random() * values.length)];

/** Every place in a shape (a field or an item, at any depth), as the path of keys that leads there. */
function placesOf(shape: unknown, at: Array<string | number> = []): Array<Array<string | number>> {
  const inside = Array.isArray(shape)
    ? shape.map((item, index) => placesOf(item, [...at, index]))
    : shape && typeof shape === 'object'
      ? Object.entries(shape).map(([key, value]) => placesOf(value, [...at, key]))
      : [];
  return [at, ...inside.flat()];
}

function replacedAt(shape: unknown, place: ReadonlyArray<string | number>, value: unknown): unknown {
  if (place.length === 0) return value;
  const [first, ...rest] = place;
  const copy = (Array.isArray(shape) ? [...shape] : { ...(shape as object) }) as Record<string | number, unknown>;
  copy[first] = replacedAt(copy[first], rest, value);
  return copy;
}

/**
 * The shape with one or two of its places (a field, an item, a whole object) replaced by a hostile value: the rest
 * stays valid, so the call gets as deep as it can before it meets the broken part.
 */
function broken(shape: unknown, random: Random): unknown {
  let result = shape;
  const places = placesOf(shape);
  for (let count = random() < 0.7 ? 1 : 2; count > 0; count -= 1)
    result = replacedAt(result, pick(random, places), pick(random, HOSTILE_VALUES));
  return result;
}

function queryValue(name: string, type: string | undefined, random: Random): string {
  const shape = JSON_SHAPES[name];
  if (shape)
    return pick(random, [
      JSON.stringify(broken(shape, random)),
      JSON.stringify(pick(random, HOSTILE_VALUES)),
      pick(random, HOSTILE_TEXTS),
      '{',
      JSON.stringify(shape),
    ]);
  if (type === 'boolean') return pick(random, ['true', 'false', 'maybe', '']);
  return pick(random, [...HOSTILE_TEXTS, ...(known[name] ?? [])]);
}

function pathValue(name: string, random: Random): string {
  return random() < 0.85 && known[name] ? pick(random, known[name]) : pick(random, HOSTILE_TEXTS);
}

const encoder = new TextEncoder();

/** A multipart body: well formed with hostile fields, without a boundary, or cut short. */
function multipart(random: Random): { headers: Record<string, string>; body: BodyInit } {
  const boundary = 'terrainFuzzBoundary';
  const field = (name: string, value: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const fileText = (name: string, content: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/csv\r\n\r\n${content}\r\n`;
  const params = JSON.stringify(broken(JSON_SHAPES.deposit, random));
  const whole = `${field('params', params)}${field('comment', pick(random, HOSTILE_TEXTS))}${fileText(pick(random, ['a.csv', '', '../x.csv', 'ä.pdf']), 'project;site;species;day;individuals\nalps;lac_blanc;lagopus;12/06/2024;5\n')}--${boundary}--\r\n`;
  switch (Math.floor(random() * 8)) {
    case 0:
      return { headers: { 'content-type': 'multipart/form-data' }, body: whole };
    case 1:
      return {
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        body: whole.slice(0, Math.floor(random() * whole.length)),
      };
    case 2:
      return {
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        body: 'not a multipart body at all',
      };
    case 3:
      return {
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        body: `${field('params', params)}--${boundary}--\r\n`,
      };
    default:
      return { headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, body: encoder.encode(whole) };
  }
}

function jsonBody(random: Random): string {
  const shape = {
    login: 'root',
    password: 'x',
    email: 'a@b.fr',
    name: 'n',
    usersId: ['root'],
    uuid: null,
    id: null,
    fields: { purpose: 'p', institute: 'inrae' },
    comment: 'c',
    setted: false,
    authorizationForAll: { counts: ['extraction'] },
    authorizationsWithRestriction: {
      counts: [
        {
          operationTypes: ['extraction'],
          requiredAuthorizations: { site: ['sitesKlac_blanc'] },
          fromDay: '2024-06-01',
          toDay: '2024-06-30',
        },
      ],
    },
    additionalFiles: { protocols: ['download'] },
    rightsRequest: { authorizationForAll: { counts: ['extraction'] } },
  };
  return pick(random, [
    JSON.stringify(broken(shape, random)),
    JSON.stringify(pick(random, HOSTILE_VALUES)),
    '{"a":',
    '',
  ]);
}

async function call(client: ApiClient, operation: Operation, random: Random) {
  const route = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(pathValue(name, random)));
  const query = new URLSearchParams();
  for (const parameter of operation.parameters.filter((p) => p.in === 'query')) {
    if (random() < 0.8) query.append(parameter.name, queryValue(parameter.name, parameter.schema?.type, random));
  }
  const target = `${route}${query.size ? `?${query}` : ''}`;
  let headers: Record<string, string> = {};
  let body: BodyInit | undefined;
  if (operation.method === 'POST' || operation.method === 'PUT') {
    if (operation.jsonBody) {
      headers = { 'content-type': 'application/json' };
      body = jsonBody(random);
    } else ({ headers, body } = multipart(random));
  }
  try {
    const answer = await client.request(operation.method, target, { headers, body });
    return { target, status: answer.status, text: answer.text };
  } catch (error) {
    // The client refuses answers that let a secret or an internal detail out: as bad as a server error.
    return { target, status: 599, text: (error as Error).message };
  }
}

describe('every route of the API, given malformed and hostile parameters', () => {
  it('answers 4xx or a success, never a server error, whoever calls', async () => {
    const failures: string[] = [];
    const random = seededRandom(22);
    // Deletions and sign-out last: the other routes meet the applications and the session whole.
    const order = (operation: Operation) => (operation.path === '/logout' ? 2 : operation.method === 'DELETE' ? 1 : 0);
    const sorted = [...operations].sort((a, b) => order(a) - order(b));
    expect(sorted.length).toBeGreaterThan(50);
    for (const [caller, client] of [
      ['visitor', api(server)],
      ['administrator', admin],
    ] as const) {
      for (const operation of sorted) {
        const readsJson =
          operation.method === 'POST' ||
          operation.method === 'PUT' ||
          operation.parameters.some((p) => JSON_SHAPES[p.name]);
        for (let index = 0; index < (readsJson ? CALLS_WITH_JSON : CALLS); index += 1) {
          const answer = await call(client, operation, random);
          if (answer.status >= 500)
            failures.push(
              `${caller} ${operation.method} ${answer.target} → ${answer.status} ${answer.text.slice(0, 200)}`,
            );
        }
      }
    }
    expect(failures).toEqual([]);
  }, 600_000);
});

describe('the malformed requests met before', () => {
  it('answer 400 with a code: a form without boundary or cut short, deposit parameters of the wrong type', async () => {
    // The fuzz above may have signed the administrator out (DELETE /logout is among the routes).
    const admin = await signedIn(server, ROOT);
    const csv = 'project;site;species;day;individuals\nalps;lac_blanc;lagopus;12/06/2024;5\n';
    const noBoundary = await admin.request('POST', '/applications/surveys/references/species', {
      headers: { 'content-type': 'multipart/form-data' },
      body: 'x',
    });
    expect([noBoundary.status, noBoundary.body.code]).toEqual([400, 'MALFORMED_MULTIPART']);
    const whole = `--b\r\nContent-Disposition: form-data; name="file"; filename="s.csv"\r\n\r\n${csv}\r\n--b--\r\n`;
    const cut = await admin.request('POST', '/applications/surveys/data/counts', {
      headers: { 'content-type': 'multipart/form-data; boundary=b' },
      body: whole.slice(0, 60),
    });
    expect([cut.status, cut.body.code]).toEqual([400, 'MALFORMED_MULTIPART']);
    const dataset = {
      datatype: 'counts',
      requiredAuthorizations: { project: 'alps', site: 'lac_blanc' },
      from: '2024-06-01',
      to: '2024-06-30',
    };
    for (const wrong of [{ from: 5 }, { to: [1] }, { requiredAuthorizations: { project: 5 } }, { comment: {} }]) {
      const answer = await admin.post('/applications/surveys/data/counts', {
        body: form('a.csv', csv, { binaryfiledataset: { ...dataset, ...wrong } }),
      });
      expect([answer.status, answer.body.code], JSON.stringify(wrong)).toEqual([400, 'BAD_DEPOSIT_PARAMS']);
    }
    const published = await admin.post('/applications/surveys/data/counts', { json: { fileid: 5, topublish: 'yes' } });
    expect([published.status, published.body.code]).toEqual([400, 'BAD_DEPOSIT_PARAMS']);
    const listed = await admin.get(
      `/applications/surveys/filesOnRepository/counts?repositoryId=${encodeURIComponent(JSON.stringify({ from: 5 }))}`,
    );
    expect([listed.status, listed.body.code]).toEqual([400, 'BAD_DEPOSIT_PARAMS']);
  });
});

describe('query parameters outside the schemas of src/contract', () => {
  it('answer 400 BAD_REQUEST, before any service reads them', async () => {
    const admin = await signedIn(server, ROOT);
    const params = (value: object) => encodeURIComponent(JSON.stringify(value));
    for (const [method, target] of [
      ['GET', '/applications?filter=NOPE'],
      ['GET', '/applications/surveys?filter=ALL&filter=NOPE'],
      ['GET', `/applications/surveys/configuration?version=${'9'.repeat(101)}`],
      ['DELETE', '/applications/surveys/references/species'],
      ['GET', '/applications/surveys/references/species/csv?spreadsheetSafe=maybe'],
      ['GET', '/applications/surveys/data/counts/zip?spreadsheetSafe=maybe'],
      ['GET', '/applications/surveys/references/species/csv?form=raw'],
      ['GET', '/applications/surveys/data/counts/zip?form='],
      ['GET', '/applications/surveys/data/counts/csv?form=upload&form=titles'],
      ['GET', `/applications/surveys/rightsRequest?params=${params({ offset: 'x' })}`],
      ['GET', `/applications/surveys/rightsRequest?params=${params({ fieldFilters: [{ field: 'a', isRegExp: 1 }] })}`],
      ['GET', '/applications/surveys/upload-bundle?withData=maybe'],
    ] as const) {
      const answer = await admin.request(method, target);
      expect([answer.status, answer.body.code], `${method} ${target}`).toEqual([400, 'BAD_REQUEST']);
    }
  });
});

describe('a NUL character, which no column can store', () => {
  it('is refused with 400 in a path, a query, a JSON body, a form field or a file name, and a CSV holding one is refused without a server error', async () => {
    const admin = await signedIn(server, ROOT);
    const query = (value: object) => `downloadDatasetQuery=${encodeURIComponent(JSON.stringify(value))}`;
    for (const path of [
      '/applications/surveys/references/species',
      '/applications/surveys/references/species/csv',
      '/applications/surveys/references/species/json',
      '/applications/surveys/data/counts/csv',
    ]) {
      for (const value of [
        { naturalKeys: ['\u0000'] },
        { componentFilters: [{ componentKey: 'label', filters: ['a\u0000'] }] },
        { offset: 1e20, limit: 5 },
      ]) {
        const answer = await admin.get(`${path}?${query(value)}`);
        expect([answer.status, answer.body.code], `${path} ${JSON.stringify(value)}`).toEqual([400, 'BAD_ROW_QUERY']);
      }
    }
    expect((await admin.get('/applications/surveys%00/references/species')).status).toBe(400);
    expect((await admin.get(`/applications/surveys/references/species?x=${encodeURIComponent('\u0000')}`)).status).toBe(
      400,
    );
    const body = await admin.post('/applications/surveys/authorization', {
      json: { name: 'a\u0000', usersId: ['root'], authorizationForAll: {} },
    });
    expect([body.status, body.body.code]).toEqual([400, 'BAD_REQUEST']);
    const csv = 'project;site;species;day;individuals\nalps;lac_blanc;lagopus;12/06/2024;5\n';
    const named = await admin.post('/applications/surveys/references/species', { body: form('a\u0000.csv', csv) });
    expect(named.status).toBe(400);
    const cell = await admin.post('/applications/surveys/references/species', {
      body: form('species.csv', 'code;name\nnul;bad\u0000name\n'),
    });
    expect([cell.status, cell.body.errors?.[0]?.params?.reason], cell.text).toEqual([400, 'nulCharacter']);
  });
});
