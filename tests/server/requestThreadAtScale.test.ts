import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Session } from 'node:inspector/promises';
import { sql } from 'kysely';
import { refreshCount } from '../../server/services/dataRows.ts';
import { findApplication } from '../../server/services/applications.ts';
import { indexSuggestions } from '../../server/services/referenceSuggestions.ts';
import { createApplication, csvForm, q, startDataServer, uploadReference, type DataServer } from './dataFixtures.ts';
import { statementsOf } from './statementsRead.ts';

/**
 * One request must not freeze the server (adversarial review): an application with a large reference (200,000
 * sites), 50,000 additional files naming them and, for the survey, a large data type pointing to them (200,000
 * readings), seeded straight in the database as uploads store them. Each route is asked once while the test counts the statements it sends through
 * the server's database handle and the rows they bring back, the bytes of its answer, and the longest the event loop
 * went without turning (the server runs in this process; on the embedded database the statements run on that
 * thread too). The assertions are on rows read and answers, not on time; `FREEZE_SURVEY=1` measures every route and
 * prints the table (with `FREEZE_ONLY` and `FREEZE_PROFILE` to look at some), `FREEZE_SITES`, `FREEZE_READINGS` and
 * `FREEZE_FILES` change the sizes.
 */
const YAML = `OA_version: 2.0.1
OA_application:
  OA_name: freeze
  OA_version: 1.0.0
  OA_defaultLanguage: en
  OA_i18n:
    OA_title: {fr: Gel, en: Freeze}
OA_rightsRequest:
  OA_i18n:
    OA_title: {fr: Demande, en: Request}
  OA_formFields:
    site:
      OA_i18n:
        OA_title: {fr: Site, en: Site}
      OA_required: true
      OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: sites}}}
OA_additionalFiles:
  notes:
    OA_i18n:
      OA_title: {fr: Notes, en: Notes}
    OA_formFields:
      site:
        OA_i18n:
          OA_title: {fr: Site, en: Site}
        OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: sites}}}
OA_data:
  sites:
    OA_i18n:
      OA_title: {fr: Sites, en: Sites}
    OA_i18nDisplayPattern:
      OA_title: {fr: "{label}", en: "{label}"}
    OA_naturalKey: [code]
    OA_basicComponents:
      code: null
      label: null
  readings:
    OA_tags: [__DATA__]
    OA_i18n:
      OA_title: {fr: Relevés, en: Readings}
    OA_naturalKey: [site, day]
    OA_basicComponents:
      site:
        OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: sites}}}
      day:
        OA_checker: {OA_name: OA_date, OA_params: {OA_pattern: dd/MM/yyyy}}
      value:
        OA_checker: {OA_name: OA_float}
    OA_authorizations:
      OA_authorizationScope: [site]
      OA_timeScope: day
  counts:
    OA_tags: [__DATA__]
    OA_i18n:
      OA_title: {fr: Comptages, en: Counts}
    OA_naturalKey: [site, day]
    OA_basicComponents:
      site:
        OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: sites}}}
      day:
        OA_checker: {OA_name: OA_date, OA_params: {OA_pattern: dd/MM/yyyy}}
      individuals:
        OA_checker: {OA_name: OA_integer}
    OA_authorizations:
      OA_authorizationScope: [site]
      OA_timeScope: day
    OA_submission:
      OA_strategy: OA_VERSIONING
      OA_submissionScope:
        OA_referenceScopes:
          - OA_reference: sites
            OA_component: site
        OA_timeScope:
          OA_component: day
`;

/** Rows of the large reference, and of the large data type pointing to it. */
const SITES = Number(process.env.FREEZE_SITES ?? 200_000);
/** Every route measured and its table printed (FREEZE_SURVEY=1), besides the assertions. */
const SURVEY = process.env.FREEZE_SURVEY === '1';
/** The readings are read by the survey only: the assertions' routes need the sites and the files. */
const READINGS = Number(process.env.FREEZE_READINGS ?? (SURVEY ? 200_000 : 0));
/** Additional files of one type, each naming a site. */
const FILES = Number(process.env.FREEZE_FILES ?? 50_000);
/** Rights requests of the application, each with a long form value. */
const REQUESTS = Number(process.env.FREEZE_REQUESTS ?? 3_000);
const APP = '/applications/freeze';

let data: DataServer;
let applicationId: string;
let versionId: string;
const db = () => data.server.server.ctx.db;

/** Rows stored straight in the database, as an upload stores them (same keys, values and periods). */
async function seed() {
  const app = applicationId;
  await sql`
    insert into data_rows (id, application_id, data_name, natural_key, hierarchical_key, values, refs, line_number)
    select gen_random_uuid(), ${app}, 'sites', 's' || lpad(i::text, 6, '0'), 'sitesKs' || lpad(i::text, 6, '0'),
           jsonb_build_object('code', 's' || lpad(i::text, 6, '0'), 'label', 'Site ' || i), '{}', i + 1
    from generate_series(3, ${SITES}) i`.execute(db());
  await sql`
    insert into data_rows (id, application_id, data_name, natural_key, hierarchical_key, values, refs, line_number, period_start, period_end)
    select gen_random_uuid(), ${app}, 'readings', site || '__' || to_char(day, 'DD_MM_YYYY'), 'readingsK' || site || '__' || to_char(day, 'DD_MM_YYYY'),
           jsonb_build_object('site', 'sitesK' || site, 'day', 'date:' || to_char(day, 'YYYY-MM-DD') || 'T00:00:00:dd/MM/yyyy', 'value', i % 97),
           array['sitesK' || site], i + 1, day, day + interval '1 day'
    from (select i, 's' || lpad((3 + i % ${SITES - 2})::text, 6, '0') as site,
                 date '2000-01-01' + (i / ${SITES - 2}) as day
          from generate_series(1, ${READINGS}) i) g`.execute(db());
  await sql`
    insert into additional_files (id, application_id, file_type, file_name, name_key, size, content_id, fields)
    select gen_random_uuid(), ${app}, 'notes', 'note ' || lpad(i::text, 6, '0') || '.pdf',
           'note ' || lpad(i::text, 6, '0') || '.pdf', 100, gen_random_uuid(),
           jsonb_build_object('site', 's' || lpad((3 + i % ${SITES - 2})::text, 6, '0'))
    from generate_series(1, ${FILES}) i`.execute(db());
  await sql`
    insert into file_parts (content_id, part, bytes)
    select content_id, 0, decode(repeat('25', 100), 'hex') from additional_files where application_id = ${app}`.execute(
    db(),
  );
  const admin = await db().selectFrom('users').select('id').executeTakeFirstOrThrow();
  await sql`
    insert into rights_requests (id, application_id, user_id, comment, fields, rules, created_at)
    select gen_random_uuid(), ${app}, ${admin.id}, 'c',
           jsonb_build_object('site', repeat('x', 200) || ' s' || lpad(i::text, 6, '0')),
           '{"forAll": {"sites": ["extraction"]}, "restricted": {}}',
           timestamptz '2025-01-01' + i * interval '1.5 second'
    from generate_series(1, ${REQUESTS}) i`.execute(db());
  for (const name of ['sites', 'readings']) await refreshCount(db(), app, name);
  const ctx = data.server.server.ctx;
  const application = await findApplication(ctx, 'freeze');
  // The search indexes a load of this size builds, for the survey's suggestions.
  if (SURVEY)
    await indexSuggestions(
      ctx,
      app,
      application.model,
      application.model.data.find((d) => d.name === 'sites')!,
    );
}

beforeAll(async () => {
  // The survey measures what production pays: without the tests' check of every answer against its schema.
  data = await startDataServer({}, { checkAnswers: !SURVEY });
  await createApplication(data.admin, 'freeze', YAML);
  applicationId = (
    await db().selectFrom('applications').select('id').where('name', '=', 'freeze').executeTakeFirstOrThrow()
  ).id;
  const sites = await uploadReference(
    data.admin,
    'freeze',
    'sites',
    'sites.csv',
    'code;label\ns000001;Site 1\ns000002;Site 2\n',
  );
  expect(sites.status, sites.text).toBe(201);
  const deposit = await data.admin.post(`${APP}/data/counts`, {
    body: csvForm('c.csv', 'site;day;individuals\ns000001;01/06/2024;4\n', {
      binaryfiledataset: {
        datatype: 'counts',
        requiredAuthorizations: { site: 's000001' },
        from: '2024-01-01',
        to: '2024-12-31',
      },
    }),
  });
  expect(deposit.status, deposit.text).toBe(201);
  versionId = (deposit.body as { fileId: string }).fileId;
  await seed();
}, 300_000);
afterAll(() => data?.server.close());

interface Measure {
  route: string;
  status: number;
  bytes: number;
  rows: number;
  statements: number;
  stallMs: number;
  heapMb: number;
  ms: number;
  /** The refusal's code, or the first 300 characters of the answer. */
  code: string;
  /** The answer parsed, when it is a small JSON document. */
  body: any;
}
const measures: Measure[] = [];

/**
 * The statements a request sends through the server's database handle and the rows they bring back, the longest
 * the test process's event loop (the server's: it runs in this process) went without turning, and the answer's
 * bytes, read as they come (never parsed here, so that reading them stalls nothing).
 */
async function measure(route: string, path: string, init: RequestInit = {}): Promise<Measure> {
  global.gc?.();
  const heapStart = process.memoryUsage().heapUsed;
  let heapPeak = heapStart;
  let last = performance.now();
  let stall = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    stall = Math.max(stall, now - last);
    last = now;
    heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
  }, 2);
  const started = performance.now();
  // FREEZE_PROFILE=<text> prints where the request thread spent its time during the routes whose name holds it.
  const profiling = Boolean(process.env.FREEZE_PROFILE && route.includes(process.env.FREEZE_PROFILE));
  const session = new Session();
  if (profiling) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  }
  try {
    const [{ response, bytes, head }, statements, rows] = await statementsOf(db(), async () => {
      const response = await fetch(`${data.server.url}/api/v1${path}`, {
        ...init,
        headers: { authorization: `Bearer ${data.token}`, ...(init.headers as Record<string, string>) },
      });
      let bytes = 0;
      let head = '';
      const reader = response.body?.getReader();
      for (let read = await reader?.read(); read && !read.done; read = await reader!.read()) {
        if (head.length < 4000) head += Buffer.from(read.value).toString('utf8', 0, 4000);
        bytes += read.value.byteLength;
      }
      return { response, bytes, head };
    });
    const ms = performance.now() - started;
    let parsed: any;
    try {
      parsed = bytes <= head.length ? JSON.parse(head) : undefined;
    } catch {
      parsed = undefined;
    }
    const found = {
      route,
      status: response.status,
      bytes,
      rows,
      statements,
      stallMs: Math.round(stall),
      heapMb: Math.round((heapPeak - heapStart) / 1e5) / 10,
      ms: Math.round(ms),
      code: typeof parsed?.code === 'string' ? parsed.code : head,
      body: parsed,
    };
    if (profiling) {
      const { profile } = (await session.post('Profiler.stop')) as { profile: any };
      const self = new Map<string, number>();
      const dt = profile.timeDeltas as number[];
      const byId = new Map((profile.nodes as any[]).map((n) => [n.id, n]));
      (profile.samples as number[]).forEach((id, i) => {
        const n = byId.get(id);
        const key = `${n.callFrame.functionName} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber}`;
        self.set(key, (self.get(key) ?? 0) + (dt[i] ?? 0));
      });
      console.log(
        [...self]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 25)
          .map(([k, v]) => `${Math.round(v / 1000)} ms ${k}`)
          .join('\n'),
      );
      session.disconnect();
    }
    if (response.status >= 500) throw new Error(`${route}: ${response.status} ${head}`);
    measures.push(found);
    return found;
  } finally {
    clearInterval(ticker);
  }
}

afterAll(() => {
  const line = (m: Measure) =>
    `| ${m.route} | ${m.status} | ${m.bytes} | ${m.rows} | ${m.statements} | ${m.stallMs} | ${m.heapMb} | ${m.ms} |`;
  console.log(
    [
      `engine ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, ${SITES} sites, ${READINGS} readings`,
      '| route | status | bytes | rows read | statements | stall ms | heap MB | ms |',
      ...measures.map(line),
    ].join('\n'),
  );
});

const json = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});
const form = (fileName: string, text: string, params?: object): RequestInit => ({
  method: 'POST',
  body: csvForm(fileName, text, params),
});

const deposit = (site: string, day = '01/06/2024') =>
  form('c.csv', `site;day;individuals\ns000005;${day};4\n`, {
    binaryfiledataset: { datatype: 'counts', requiredAuthorizations: { site }, from: '2024-01-01', to: '2024-12-31' },
  });

describe('a deposit finds its scope row among the rows its text names, not among every site', () => {
  it('refuses an unknown scope value after reading a few rows', async () => {
    for (const site of ['nowhere', 'sitesKnowhere', 'a.b.nowhere']) {
      const refused = await measure(`POST deposit, unknown scope ${site}`, `${APP}/data/counts`, deposit(site));
      expect(refused.status).toBe(400);
      expect(refused.code).toBe('UNKNOWN_SCOPE_VALUE');
      expect(refused.rows).toBeLessThan(10);
    }
  });
  it('names the row by natural key, hierarchical key or path, reading the sites once (for the file’s check)', async () => {
    for (const site of ['s000005', 'sitesKs000005', 'anywhere.s000005']) {
      const stored = await measure(`POST deposit, scope ${site}`, `${APP}/data/counts`, deposit(site));
      expect(stored.status, stored.code).toBe(201);
      // The check of the file reads every site it may name (referenceRowsFor, a known limit); naming the scope no longer adds another read of them all.
      expect(stored.rows).toBeLessThan(SITES + 50);
      const version = await data.admin.get(`${APP}/file/${stored.body.fileId}/publication-state`);
      expect(version.text).toContain('sitesKs000005');
    }
  });
});

const filesPage = (filter: object) =>
  `${APP}/additionalFiles/notes?params=${encodeURIComponent(
    JSON.stringify({ limit: 30, additionalFilesInfos: { notes: { fieldFilters: [{ field: 'site', ...filter }] } } }),
  )}`;

describe('field filters over every additional file of a type', () => {
  it('refuse a regular expression that would spend the selection’s budget, instead of running it on each file', async () => {
    const refused = await measure('GET files list, costly regexp', filesPage({ filter: '(.?){200}x', isRegExp: true }));
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'BAD_FILES_QUERY', params: { reason: 'regexpBudget', field: 'site' } });
    // Each file's value cost about 6,000 steps: the budget ran out within the first pages, not after every file.
    expect(refused.rows).toBeLessThan(FILES / 2);
  });
  it('refuse a deletion selected by such a regular expression before deleting anything', async () => {
    const params = {
      filetype: 'notes',
      additionalFilesInfos: { notes: { fieldFilters: [{ field: 'site', filter: '(.?){200}x', isRegExp: true }] } },
    };
    const refused = await measure(
      'DELETE files, costly regexp',
      `${APP}/additionalFiles?params=${encodeURIComponent(JSON.stringify(params))}`,
      { method: 'DELETE' },
    );
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'BAD_FILES_QUERY', params: { reason: 'regexpBudget' } });
    const left = await db()
      .selectFrom('additional_files')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('application_id', '=', applicationId)
      .executeTakeFirstOrThrow();
    expect(Number(left.count)).toBe(FILES);
  });
  it('give the page asked for and the count of every matching file, read a page at a time', async () => {
    for (const filter of [{ filter: 'S0001' }, { filter: '^s0001', isRegExp: true }]) {
      const found = await measure(`GET files list, filter ${JSON.stringify(filter)}`, filesPage(filter));
      expect(found.status, found.code).toBe(200);
      const answer = JSON.parse(
        await (
          await fetch(`${data.server.url}/api/v1${filesPage(filter)}`, {
            headers: { authorization: `Bearer ${data.token}` },
          })
        ).text(),
      ) as { totalCount: number; additionalBinaryFiles: Array<{ fileName: string; additionalBinaryFileForm: object }> };
      // Files 97 to 196 name the sites s000100 to s000199.
      expect(answer.totalCount).toBe(100);
      expect(answer.additionalBinaryFiles.map((f) => f.fileName)).toEqual(
        Array.from({ length: 30 }, (_, i) => `note ${String(97 + i).padStart(6, '0')}.pdf`),
      );
      expect(found.statements).toBeGreaterThan(FILES / 1_000);
    }
  });
});

const requestsPage = (params: object) =>
  `${APP}/rightsRequest?params=${encodeURIComponent(JSON.stringify({ limit: 30, ...params }))}`;

describe('regular expressions over every rights request', () => {
  it('refuse a pattern that would spend the request’s budget, instead of running it on each request', async () => {
    const filters = [{ field: 'site', filter: '(.?){200}x', isRegExp: true }];
    const refused = await measure('GET rights requests, costly regexp', requestsPage({ fieldFilters: filters }));
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'BAD_REQUEST', params: { reason: 'regexpBudget', field: 'site' } });
    expect(refused.rows).toBeLessThan(REQUESTS / 2);
  });
  it('give the page asked for, newest first, and the count of every match, ignoring case', async () => {
    const filters = [{ field: 'site', filter: 'S0001\\d\\d$', isRegExp: true }];
    const found = await measure('GET rights requests, regexp', requestsPage({ fieldFilters: filters, offset: 30 }));
    expect(found.status, found.code).toBe(200);
    const answer = (await data.admin.get(requestsPage({ fieldFilters: filters, offset: 30 }))).body as {
      total: number;
      rightsRequests: Array<{ rightsRequestForm: { site: string } }>;
    };
    // Requests 100 to 199 match; the newest is 199, the page begins at the 31st.
    expect(answer.total).toBe(100);
    expect(answer.rightsRequests.map((r) => r.rightsRequestForm.site.slice(-7))).toEqual(
      Array.from({ length: 30 }, (_, i) => `s000${169 - i}`),
    );
    expect(found.statements).toBeGreaterThan(REQUESTS / 1_000);
    const all = await data.admin.get(requestsPage({ fieldFilters: filters, limit: 0 }));
    expect([all.body.total, all.body.rightsRequests]).toEqual([100, []]);
  });
});

/** A deposit of one count of `site` into the dataset of `scope`, in 2024. */
const depositOf = (site: string, scope: string) =>
  form('c.csv', `site;day;individuals\n${site};01/06/2024;4\n`, {
    binaryfiledataset: {
      datatype: 'counts',
      requiredAuthorizations: { site: scope },
      from: '2024-01-01',
      to: '2024-12-31',
    },
  });

describe.runIf(SURVEY)('the survey', () => {
  const routes: Array<[string, () => string, () => RequestInit]> = [
    ['GET applications', () => '/applications', () => ({})],
    ['GET application ALL', () => `${APP}?filter=ALL`, () => ({})],
    ['GET reference page', () => `${APP}/references/sites${q({ limit: 100 })}`, () => ({})],
    [
      'GET reference page sorted, far',
      () =>
        `${APP}/references/sites${q({ limit: 100, offset: 150_000, componentOrderBy: [{ componentKey: 'label', order: 'DESC' }] })}`,
      () => ({}),
    ],
    ['GET reference suggestions', () => `${APP}/references/sites/suggestions?q=site%201`, () => ({})],
    ['GET reference rows (NDJSON)', () => `${APP}/references/sites/rows`, () => ({})],
    ['GET reference csv', () => `${APP}/references/sites/csv`, () => ({})],
    ['GET reference json', () => `${APP}/references/sites/json`, () => ({})],
    [
      'GET data page filtered',
      () =>
        `${APP}/data/readings/json${q({ limit: 100, componentFilters: [{ componentKey: 'site', filters: ['s000010'] }] })}`,
      () => ({}),
    ],
    [
      'GET data page sorted',
      () =>
        `${APP}/data/readings/json${q({ limit: 100, componentOrderBy: [{ componentKey: 'value', order: 'DESC' }] })}`,
      () => ({}),
    ],
    ['GET data csv', () => `${APP}/data/readings/csv`, () => ({})],
    ['GET data zip', () => `${APP}/data/readings/zip`, () => ({})],
    ['GET synthesis', () => `${APP}/synthesis/readings`, () => ({})],
    ['GET synthesis variable', () => `${APP}/synthesis/readings/value`, () => ({})],
    ['GET versions', () => `${APP}/filesOnRepository/counts`, () => ({})],
    ['GET publication state', () => `${APP}/file/${versionId}/publication-state`, () => ({})],
    ['POST deposit, unknown scope', () => `${APP}/data/counts`, () => depositOf('s000001', 'nowhere')],
    ['POST deposit (1 row)', () => `${APP}/data/counts`, () => depositOf('s000005', 's000005')],
    [
      'POST readings (1 row)',
      () => `${APP}/data/readings`,
      () => form('r.csv', 'site;day;value\ns000005;01/06/2024;4\n'),
    ],
    ['DELETE referenced site', () => `${APP}/references/sites?naturalKey=s000010`, () => ({ method: 'DELETE' })],
    ['GET grantable', () => `${APP}/grantable`, () => ({})],
    ['GET rights-request options', () => `${APP}/rightsRequest/options`, () => ({})],
    [
      'POST rights request',
      () => `${APP}/rightsRequest`,
      () =>
        json({
          fields: { site: 's000007' },
          comment: 'c',
          rightsRequest: {
            authorizationsWithRestriction: {
              readings: { operationTypes: ['extraction'], requiredAuthorizations: { site: ['sitesKs000007'] } },
            },
          },
        }),
    ],
    ['GET files overview', () => `${APP}/additionalFiles`, () => ({})],
    ['GET files list, whole (no limit)', () => `${APP}/additionalFiles/notes`, () => ({})],
    ['GET files overview, grantable', () => `${APP}/additionalFiles?grantable=true`, () => ({})],
    [
      'GET files list, page of 30',
      () => `${APP}/additionalFiles/notes?params=${encodeURIComponent(JSON.stringify({ limit: 30 }))}`,
      () => ({}),
    ],
    ['GET application ALL, again', () => `${APP}?filter=ALL`, () => ({})],
    ['GET data json (whole)', () => `${APP}/data/readings/json`, () => ({})],
    [
      'GET files list, field filter',
      () =>
        `${APP}/additionalFiles/notes?params=${encodeURIComponent(JSON.stringify({ limit: 30, additionalFilesInfos: { notes: { fieldFilters: [{ field: 'site', filter: 's0001' }] } } }))}`,
      () => ({}),
    ],
    [
      'POST configuration, dry run',
      () => `${APP}/configuration?dryRun=true`,
      () => ({
        method: 'POST',
        body: csvForm(
          'freeze.yaml',
          YAML.replace('OA_version: 1.0.0', 'OA_version: 1.0.1').replace('OA_name: OA_float', 'OA_name: OA_integer'),
        ),
      }),
    ],
    ['GET upload kit', () => `${APP}/upload-bundle`, () => ({})],
    ['GET backup', () => `${APP}/upload-bundle?withData=true`, () => ({})],
  ];
  // FREEZE_ONLY=<text> measures only the routes whose name holds it.
  const only = process.env.FREEZE_ONLY;
  it.each(routes.filter(([route]) => !only || route.includes(only)))(
    '%s',
    async (route, path, init) => {
      const found = await measure(route, path(), init());
      expect(found.status).toBeLessThan(500);
    },
    300_000,
  );
});
