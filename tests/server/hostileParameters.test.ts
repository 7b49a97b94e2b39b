import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeAccount, newIdentity, signedIn } from './accountFixtures.ts';
import type { ApiClient } from './apiClient.ts';
import { q } from './dataFixtures.ts';
import type { TestServer } from './harness.ts';
import { startMassifsServer } from './massifsFixtures.ts';

/**
 * Hostile parameters (adversarial review), beyond the seeded sweep of malformedRequests.test.ts: extreme paging,
 * sorts and filters on components that do not exist or carry SQL, locales that are names of every object's
 * properties, odd dates in periods, odd path segments and headers. Every such request answers 4xx or a correct
 * success, never 5xx, and answers at once.
 */

const SIGHTINGS = ['mont_blanc;05/06/2024;1', 'aiguilles;20/06/2024;2', 'vanoise;05/06/2024;4'];

let server: TestServer;
let owner: ApiClient;
let montBlanc: string;

beforeAll(async () => {
  let placeKey: (code: string) => string;
  ({ server, owner, placeKey } = await startMassifsServer(SIGHTINGS));
  montBlanc = placeKey('mont_blanc');
}, 120_000);

afterAll(async () => {
  await server?.close();
});

/** A raw GET or other call, timed: its status, and whether it answered within 10 s. */
async function raw(pathAndQuery: string, init: RequestInit = {}) {
  const started = Date.now();
  const response = await fetch(`${server.url}/api/v1${pathAndQuery}`, {
    ...init,
    headers: { cookie: owner.cookieHeader, ...(init.headers as Record<string, string>) },
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  return { status: response.status, text, ms: Date.now() - started };
}

/** Sends every request, then expects none answered 5xx. */
async function expectNo5xx(requests: Array<[string, string, RequestInit?]>) {
  const failures: string[] = [];
  for (const [label, url, init] of requests) {
    const answer = await raw(url, init);
    if (answer.status >= 500) failures.push(`${label}: ${answer.status} ${answer.text.slice(0, 200)}`);
  }
  expect(failures).toEqual([]);
}

const DATA = '/applications/massifs/data/sightings';
const enc = encodeURIComponent;

describe('downloadDatasetQuery', () => {
  it('refuses or honours extreme paging, never 5xx', async () => {
    const bodies = [
      '{"offset":-1}',
      '{"limit":-1}',
      '{"limit":1e309}',
      '{"offset":1e309}',
      '{"limit":"0x10"}',
      '{"limit":0}',
      '{"offset":9007199254740991,"limit":1000}',
      '{"offset":9007199254740992}',
      '{"limit":1.5}',
      '{"limit":[1,2]}',
      '{"limit":true}',
      '[1,2]',
      'null',
      '"text"',
      '{"__proto__":{"limit":5}}',
      `${'['.repeat(5000)}${']'.repeat(5000)}`,
      `{"componentFilters":${'['.repeat(3000)}${']'.repeat(3000)}}`,
    ];
    const requests: Array<[string, string]> = [];
    for (const body of bodies)
      for (const suffix of ['json', 'csv', 'zip'])
        requests.push([`${suffix} ${body.slice(0, 40)}`, `${DATA}/${suffix}?downloadDatasetQuery=${enc(body)}`]);
    requests.push([
      'two queries',
      `${DATA}/json?downloadDatasetQuery=${enc('{"limit":1}')}&downloadDatasetQuery=${enc('{"limit":2}')}`,
    ]);
    await expectNo5xx(requests);
    const farOffset = await raw(`${DATA}/json${q({ offset: Number.MAX_SAFE_INTEGER, limit: 1000 })}`);
    expect(farOffset.status).toBe(200);
    expect(JSON.parse(farOffset.text).rows).toEqual([]);
  });

  it('refuses sorts and filters on components that do not exist or carry SQL', async () => {
    const keys = ['nope', "birds'); drop table data_rows; --", 'birds"', '', '\u202e', 'a'.repeat(5000), '__proto__'];
    const requests: Array<[string, string]> = [];
    for (const key of keys) {
      requests.push([`order ${key.slice(0, 20)}`, `${DATA}/json${q({ componentOrderBy: [{ componentKey: key }] })}`]);
      requests.push([
        `filter ${key.slice(0, 20)}`,
        `${DATA}/csv${q({ componentFilters: [{ componentKey: key, filters: ['x'] }] })}`,
      ]);
    }
    // Known components with hostile values.
    for (const [from, to] of [
      ['2024-02-30', '99999-01-01'],
      ['0000-00-00', '2024-13-45'],
      ["' or 1=1 --", 'zzzz'],
      ['1e309', '-1e309'],
      ['NaN', 'Infinity'],
    ]) {
      for (const key of ['day', 'birds', 'place'])
        requests.push([
          `interval ${key} ${from}`,
          `${DATA}/json${q({ limit: 5, componentFilters: [{ componentKey: key, intervalValues: { from, to } }] })}`,
        ]);
    }
    requests.push([
      '10,000 filter values',
      `${DATA}/json${q({ limit: 5, componentFilters: [{ componentKey: 'place', filters: Array.from({ length: 10_000 }, (_, i) => `p${i}`) }] })}`,
    ]);
    // As many sorts and filters as the 100,000 characters of the parameter hold.
    const manySorts = Array.from({ length: 2500 }, (_, i) => ({
      componentKey: i % 2 ? 'birds' : 'day',
      order: 'DESC',
    }));
    requests.push(['2,500 sorts', `${DATA}/json${q({ limit: 5, componentOrderBy: manySorts })}`]);
    requests.push(['2,500 sorts csv', `${DATA}/csv${q({ componentOrderBy: manySorts })}`]);
    const manyFilters = Array.from({ length: 1500 }, (_, i) => ({
      componentKey: 'birds',
      intervalValues: { from: '0', to: String(i + 1) },
    }));
    requests.push(['1,500 filters', `${DATA}/json${q({ limit: 5, componentFilters: manyFilters })}`]);
    requests.push(['row ids not uuids', `${DATA}/json${q({ rowIds: ['x', "'; drop"], limit: 5 })}`]);
    await expectNo5xx(requests);
    const table = await owner.get(`${DATA}/json${q({ limit: 10 })}`);
    expect(table.body.totalRows).toBe(SIGHTINGS.length);
  });

  // outPut.locale is any text: a name every object inherits (constructor, toString…) must not be taken for a
  // translation.
  it('takes a locale named like an inherited property for an unknown language', async () => {
    const requests: Array<[string, string]> = [];
    for (const locale of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'x'.repeat(10_000)])
      for (const suffix of ['json', 'csv', 'zip'])
        for (const query of [{ outPut: { locale } }, { limit: 5, outPut: { locale } }])
          requests.push([`${suffix} ${JSON.stringify(query).slice(0, 60)}`, `${DATA}/${suffix}${q(query)}`]);
    for (const language of ['constructor', '__proto__', '*;q=abc, ;;;', 'x'.repeat(8000), 'zz-ZZZZZZZZZZZZZZ'])
      for (const url of [`${DATA}/csv`, `${DATA}/json`, '/applications/massifs/references/places/suggestions?q=mont'])
        requests.push([
          `accept-language ${language.slice(0, 20)} ${url}`,
          url,
          { headers: { 'accept-language': language } },
        ] as never);
    await expectNo5xx(requests);
  });
});

describe('suggestions and other query strings', () => {
  it('answers hostile suggestion searches and paging with 4xx or a correct success', async () => {
    const SUGGEST = '/applications/massifs/references/places/suggestions';
    const texts = [
      'a:* & !b | (',
      "'",
      '\\',
      '<->',
      '%_',
      '.*',
      '\u0000',
      ' ',
      '',
      'é'.repeat(200),
      '🐦'.repeat(100),
      'mont & blanc',
      '!!!',
      ':*',
    ];
    const requests: Array<[string, string]> = texts.map((text) => [
      `q ${JSON.stringify(text)}`,
      `${SUGGEST}?q=${enc(text)}`,
    ]);
    for (const limit of ['-1', '0', '1e309', '0x10', '1.5', '99999999999999999999', 'NaN'])
      requests.push([`limit ${limit}`, `${SUGGEST}?q=mont&limit=${limit}`]);
    // Also the counts of the rights requests' list (offset and limit as query integers).
    for (const count of ['1e309', '-1e309'])
      for (const key of ['offset', 'limit'])
        requests.push([`requests ${key} ${count}`, `/applications/massifs/rightsRequest?${key}=${count}`]);
    requests.push(['two limits', `${SUGGEST}?q=mont&limit=1&limit=2`]);
    requests.push(['two q', `${SUGGEST}?q=mont&q=alps`]);
    requests.push(['lang garbage', `${SUGGEST}?q=mont&lang=constructor`]);
    requests.push(['q too long', `${SUGGEST}?q=${'a'.repeat(10_000)}`]);
    requests.push(['no q', SUGGEST]);
    for (const params of ['{"offset":-1}', '{"offset":1e20}', '{"limit":1e309}', '{"offset":"0x10"}', '[', 'null'])
      requests.push([`additional files ${params}`, `/applications/massifs/additionalFiles?params=${enc(params)}`]);
    await expectNo5xx(requests);
    const hit = await owner.get(`${SUGGEST}?q=${enc('mont blanc')}`);
    expect(hit.status).toBe(200);
  });
});

describe('paths, headers and periods', () => {
  it('answers odd path segments with 4xx', async () => {
    await expectNo5xx([
      ['NUL in application', '/applications/mas%00sifs/data/sightings/json'],
      ['NUL in data type', '/applications/massifs/data/sigh%00tings/json'],
      ['bad utf-8', '/applications/massifs/data/%C3%28/json'],
      ['lone surrogate', '/applications/massifs/data/%ED%A0%80/json'],
      ['very long name', `/applications/${'a'.repeat(10_000)}/data/sightings/json`],
      ['unicode', '/applications/m%C3%A4ssifs/data/%F0%9F%90%A6/csv'],
      ['NUL variable', '/applications/massifs/synthesis/sightings/bi%00rds'],
      ['unknown variable', '/applications/massifs/synthesis/sightings/%E2%80%AE'],
      ['NUL file id', '/applications/massifs/file/%00'],
      ['file id not a uuid', "/applications/massifs/file/'%20or%201=1"],
      ['publication state of garbage', '/applications/massifs/file/..%2F..%2Fetc%2Fpasswd/publication-state'],
      // Ids of the length of a UUID but none: they never reach a statement.
      ['authorization id of dashes', `/applications/massifs/authorization/${'-'.repeat(36)}`],
      ['authorization id of letters', `/applications/massifs/authorization/${'a'.repeat(36)}`],
      [
        'authorization of dashes deleted',
        `/applications/massifs/authorization/${'-'.repeat(36)}`,
        { method: 'DELETE' },
      ],
      ['file id of dashes', `/applications/massifs/file/${'-'.repeat(36)}`],
      ['rights request of dashes', `/applications/massifs/rightsRequest/${'-'.repeat(36)}`],
    ]);
  });

  it('answers garbage conditional, range and idempotency headers without 5xx', async () => {
    const headers: Array<Record<string, string>> = [
      { range: 'bytes=999999999999999999999-' },
      { range: 'bytes=-0' },
      { range: 'bytes=5-1' },
      { range: 'garbage' },
      { 'if-none-match': '"'.repeat(5000) },
      { 'if-none-match': '*' },
      { 'if-modified-since': 'Sun, 99 Foo 99999 99:99:99 GMT' },
      { 'if-modified-since': '0' },
      { 'if-range': 'nonsense' },
    ];
    const requests: Array<[string, string, RequestInit]> = [];
    for (const header of headers)
      for (const url of [
        `${DATA}/csv`,
        `${DATA}/zip`,
        `${DATA}/json`,
        '/applications/massifs/references/places/ndjson',
      ])
        requests.push([`${JSON.stringify(header).slice(0, 40)} ${url}`, url, { headers: header }]);
    for (const key of ['k'.repeat(10_000), '\u00e9t\u00e9', ' ', 'a b'])
      requests.push([
        `idempotency-key ${key.slice(0, 10)}`,
        '/applications/massifs/authorization',
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'idempotency-key': key },
          body: JSON.stringify({ name: 'x', description: 'x', usersId: [], authorizationsWithRestriction: {} }),
        },
      ]);
    await expectNo5xx(requests);
  });

  it('answers dates that do not exist in version filters with 4xx', async () => {
    const requests: Array<[string, string]> = [];
    for (const [from, to] of [
      ['2024-02-30', '2024-03-01'],
      ['99999-01-01', '99999-12-31'],
      ['2024-01-01 25:61:61', 'x'],
      ['+002024-01-01', '-1-01-01'],
    ])
      requests.push([
        `repositoryId ${from}`,
        `${DATA.replace('/data/', '/filesOnRepository/')}?repositoryId=${enc(JSON.stringify({ from, to, requiredAuthorizations: { place: montBlanc } }))}`,
      ]);
    requests.push([
      'nested repositoryId',
      `${DATA.replace('/data/', '/filesOnRepository/')}?repositoryId=${enc('{"a":'.repeat(2000) + '1' + '}'.repeat(2000))}`,
    ]);
    await expectNo5xx(requests);
  });

  it('refuses a grant whose period is not made of real days, or reads well with it', async () => {
    const grantee = await activeAccount(server, newIdentity('hostilegrant'));
    const client = await signedIn(server, grantee);
    const failures: string[] = [];
    const statuses: number[] = [];
    for (const timeScope of [
      { fromDay: '2024-02-30', toDay: '2024-03-01' },
      { fromDay: '2024-01-01', toDay: '2024-02-30' },
      { fromDay: '99999-01-01', toDay: '99999-12-31' },
      { fromDay: '2024-06-30', toDay: '2024-06-01' },
      { fromDay: '0000-01-01', toDay: '0001-01-01' },
      { fromDay: '2024-01-01T00:00:00', toDay: '2024-12-31 23:59' },
      { fromDay: "2024-01-01'; --", toDay: '' },
    ]) {
      const answer = await owner.post('/applications/massifs/authorization', {
        json: {
          name: `odd period ${JSON.stringify(timeScope)}`.slice(0, 90),
          description: 'hostile',
          usersId: [grantee.login],
          authorizationsWithRestriction: {
            sightings: { operationTypes: ['extraction'], requiredAuthorizations: { place: [montBlanc] }, timeScope },
          },
        },
      });
      if (answer.status >= 500) failures.push(`grant ${JSON.stringify(timeScope)}: ${answer.status}`);
      statuses.push(answer.status);
      for (const url of [
        `${DATA}/json${q({ limit: 5 })}`,
        `${DATA}/csv`,
        '/applications/massifs/synthesis/sightings',
      ]) {
        const read = await client.get(url);
        if (read.status >= 500)
          failures.push(`${JSON.stringify(timeScope)} then ${url}: ${read.status} ${read.text.slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
    // Days that do not exist, a reversed period, years the database has no timestamp for: refused. A time after
    // the day, or text after it, is ignored (readDay).
    expect(statuses).toEqual([400, 400, 400, 400, 400, 201, 201]);
  });
});

describe('lists at their contract caps (maxItems)', () => {
  const APP = '/applications/massifs';
  const names = (n: number, prefix = 'u') => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
  const grant = (restriction: object, usersId = ['nobody']) =>
    owner.post(`${APP}/authorization`, {
      json: { name: 'at the cap', usersId, authorizationsWithRestriction: { sightings: restriction } },
    });
  const restriction = (places: string[]) => ({
    operationTypes: ['extraction'],
    requiredAuthorizations: { place: places },
  });
  /** The cap's list passes the contract (whatever the route then answers, never a 5xx); one item more is a 400. */
  async function expectCap(label: string, send: (n: number) => Promise<{ status: number; text: string }>, cap: number) {
    const at = await send(cap);
    expect(at.status, `${label} at ${cap}: ${at.text.slice(0, 300)}`).toBeLessThan(500);
    const past = await send(cap + 1);
    expect(past.status, `${label} at ${cap + 1}: ${past.text.slice(0, 300)}`).toBe(400);
    // At the cap the route's own rules answer (an unknown user, a missing row…), past it the contract's shape.
    expect(JSON.parse(at.text).code, label).not.toBe('BAD_REQUEST');
    expect(['BAD_REQUEST', 'BAD_FILES_QUERY'], label).toContain(JSON.parse(past.text).code);
    return { at, past };
  }

  it('usersId of a grant: 10,000 names read, 10,001 refused', async () => {
    const { at } = await expectCap('usersId', (n) => grant(restriction([montBlanc]), names(n)), 10_000);
    expect(JSON.parse(at.text)).toMatchObject({ code: 'UNKNOWN_USERS', params: { count: 10_000 } });
  });

  it('usersId and file types of a grant on additional files: 10,000 and 1,000 read, one more refused', async () => {
    const save = (usersId: string[], types: string[]) =>
      owner.post(`${APP}/additionalFiles/authorization`, {
        json: { uuid: null, name: 'at the cap', usersId, additionalFiles: { extraction: types } },
      });
    await expectCap('usersId', (n) => save(names(n), ['notes']), 10_000);
    await expectCap('file types', (n) => save(['nobody'], names(n, 't')), 1_000);
  });

  it('requiredAuthorizations: 5,000 keys of a component read, 5,001 refused', async () => {
    await expectCap('keys', (n) => grant(restriction([montBlanc, ...names(n - 1, 'placesKnone')])), 5_000);
  });

  it('restrictions of a data type: 1,000 read, 1,001 refused', async () => {
    await expectCap('restrictions', (n) => grant(Array.from({ length: n }, () => restriction([montBlanc]))), 1_000);
  });

  it('uuids of the rights requests’ list: 1,000 read, 1,001 refused', async () => {
    // Short ids: 1,000 real uuids make a query string of about 45 KB, which Node refuses as a whole (431, its
    // 16 KB limit on a request's head) before the route reads it; behind nginx the request line stops at 8 KB.
    const list = (ids: string[]) => owner.get(`${APP}/rightsRequest?params=${enc(JSON.stringify({ uuids: ids }))}`);
    const { at } = await expectCap('uuids', (n) => list(names(n, 'r')), 1_000);
    expect(at.status, at.text).toBe(200);
    const uuids = await list(Array.from({ length: 1_000 }, () => '00000000-0000-4000-8000-000000000000'));
    expect(uuids.status).toBe(431);
  });

  it('natural keys of a deletion: 1,000 read, 1,001 refused, nothing deleted', async () => {
    const before = await owner.get(`${APP}/references/places${q({ offset: 0, limit: 1 })}`);
    const remove = (n: number) =>
      owner.delete(`${APP}/references/places?${Array.from({ length: n }, () => 'naturalKey=zz').join('&')}`);
    const { at } = await expectCap('naturalKey', remove, 1_000);
    expect(at.status, at.text.slice(0, 300)).toBe(404);
    expect(JSON.parse(at.text).code).toBe('NO_SUCH_ROWS');
    const after = await owner.get(`${APP}/references/places${q({ offset: 0, limit: 1 })}`);
    expect(after.body.totalRows).toBe(before.body.totalRows);
  });

  it('a page of additional files: 500 read, 501 refused', async () => {
    await expectCap(
      'files page',
      (limit) => owner.get(`${APP}/additionalFiles/notes?params=${enc(JSON.stringify({ offset: 0, limit }))}`),
      500,
    );
  });
});

// The export's form names one of two writers: any other text is refused by the schema, and the form to load again
// goes through the same query checks as the readable one.
describe('form', () => {
  it('refuses what is not a form with 400, and takes hostile queries in the form to load again without a 5xx', async () => {
    for (const value of ['UPLOAD', '__proto__', 'constructor', 'a'.repeat(5000), 'upload\u0000', 'upload ', '[]']) {
      for (const suffix of ['csv', 'zip']) {
        const answer = await raw(`${DATA}/${suffix}?form=${enc(value)}`);
        expect(answer.status, `${suffix} ${value.slice(0, 20)}`).toBe(400);
      }
    }
    const safe = await raw(`${DATA}/csv?form=upload&spreadsheetSafe=true`);
    expect([safe.status, JSON.parse(safe.text).code]).toEqual([400, 'UPLOAD_FORM_NOT_SPREADSHEET_SAFE']);
    const requests: Array<[string, string]> = [];
    for (const body of ['{"offset":-1}', '{"limit":1e309}', 'null', `${'['.repeat(5000)}${']'.repeat(5000)}`])
      for (const suffix of ['csv', 'zip'])
        requests.push([
          `${suffix} ${body.slice(0, 20)}`,
          `${DATA}/${suffix}?form=upload&downloadDatasetQuery=${enc(body)}`,
        ]);
    for (const key of ['nope', "birds'); drop table data_rows; --", '__proto__'])
      requests.push([
        `filter ${key}`,
        `${DATA}/csv${q({ componentFilters: [{ componentKey: key, filters: ['x'] }] })}&form=upload`,
      ]);
    await expectNo5xx(requests);
    expect((await raw(`${DATA}/csv?form=upload`)).status).toBe(200);
  });
});
