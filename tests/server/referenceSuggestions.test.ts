/**
 * Suggestions for reference filters (issue 26, item 2): a filter on a component pointing to a reference is typed
 * as people see the rows (their display label, in their language) and given the natural key. Searched at a size
 * where the entry's text-search index is built and used, on both engines; hostile parameters answer 4xx or
 * nothing, never 500; a reader restricted to part of a scoped reference is suggested their part only.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeAccount, signedIn } from './accountFixtures.ts';
import { createApplication, startDataServer, uploadReference, type DataServer } from './dataFixtures.ts';
import type { HttpClient } from './httpClient.ts';
import { indexesBuilt, searchIndexName } from '../../server/services/filterIndexes.ts';
import { beginningExpression, searchExpression } from '../../server/services/referenceSuggestions.ts';
import { referenceOf } from '../../server/services/references.ts';

const YAML = `OA_version: 2.0.1
OA_application:
  OA_name: lakes
  OA_version: 1.0.0
  OA_defaultLanguage: en
  OA_i18n:
    OA_title: {fr: Lacs, en: Lakes}
OA_data:
  regions:
    OA_naturalKey: [code]
    OA_i18nDisplayPattern:
      OA_title: {fr: "Région {label_fr}", en: "{label_en} region"}
    OA_basicComponents:
      code: null
      label_fr: null
      label_en: null
  sites:
    OA_naturalKey: [code]
    OA_i18nDisplayPattern:
      OA_title: {fr: "{nom}", en: "{name}"}
    OA_basicComponents:
      code: null
      nom: null
      name: null
      region:
        OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: regions}}}
    OA_authorizations:
      OA_authorizationScope: [region]
  samples:
    OA_tags: [__DATA__]
    OA_naturalKey: [code]
    OA_basicComponents:
      code: null
      site:
        OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: sites}}}
`;

/** Above the size from which an entry's searches get their index. */
const SITES = 6_000;
const code = (i: number) => `site${String(i).padStart(5, '0')}`;
const inNorth = (i: number) => i % 2 === 0;
const WORDS = ['Étang', 'Lac', 'Mare', 'Tourbière', 'Ruisseau', 'Source'];
/** Site 0 is the Léman, in the north; site 1 the Bourget, in the south. */
const nameOf = (i: number, language: 'fr' | 'en') =>
  i === 0
    ? language === 'fr'
      ? 'Lac Léman'
      : 'Lake Geneva'
    : i === 1
      ? language === 'fr'
        ? 'Lac du Bourget'
        : 'Lake Bourget'
      : `${WORDS[i % WORDS.length]} ${language === 'fr' ? 'numéro' : 'number'} ${i}`;

let data: DataServer;
let reader: HttpClient;

type Answer = { status: number; body: { suggestions: Array<{ naturalKey: string; label: string }>; code?: string } };
const suggest = (client: HttpClient, query: Record<string, string>, reference = 'sites'): Promise<Answer> =>
  client.get(
    `/applications/lakes/references/${encodeURIComponent(reference)}/suggestions?${new URLSearchParams(query)}`,
  ) as Promise<Answer>;

beforeAll(async () => {
  data = await startDataServer();
  await createApplication(data.admin, 'lakes', YAML);
  const regions = 'code;label_fr;label_en\nnorth;Nord;North\nsouth;Sud;South\n';
  expect((await uploadReference(data.admin, 'lakes', 'regions', 'regions.csv', regions)).status).toBe(201);
  const lines = Array.from(
    { length: SITES },
    (_, i) => `${code(i)};${nameOf(i, 'fr')};${nameOf(i, 'en')};${inNorth(i) ? 'north' : 'south'}`,
  );
  const sites = await uploadReference(
    data.admin,
    'lakes',
    'sites',
    'sites.csv',
    `code;nom;name;region\n${lines.join('\n')}\n`,
  );
  expect(sites.status, JSON.stringify(sites.body)).toBe(201);
  const account = await activeAccount(data.server);
  const granted = await data.admin.post('/applications/lakes/authorization', {
    json: {
      name: 'north only',
      usersId: [account.login],
      authorizationForAll: { regions: ['extraction'] },
      authorizationsWithRestriction: {
        sites: { operationTypes: ['extraction'], requiredAuthorizations: { region: ['regionsKnorth'] } },
      },
    },
  });
  expect(granted.status, granted.text).toBe(201);
  reader = await signedIn(data.server, account);
}, 180_000);
afterAll(() => data?.server.close());

describe('suggestions for a reference filter', () => {
  it('has its indexes built by the load, before anyone searched, in French and English, and uses them', async () => {
    await indexesBuilt();
    const { ctx } = data.server.server;
    const reference = await referenceOf(ctx, 'lakes', 'sites');
    const rows = `application_id = '${reference.application.id}' and data_name = 'sites'`;
    for (const [locale, beginsWith, word] of [
      ['fr', 'lac le', 'leman'],
      ['en', 'lake ge', 'geneva'],
    ] as const) {
      const words = searchExpression(reference.entry, locale, 'en');
      const beginning = beginningExpression(reference.entry, locale, 'en');
      for (const [expression, kind, condition] of [
        [words, 'words', `${words} @@ to_tsquery('simple'::regconfig, '${word}:*')`],
        [beginning, 'beginning', `${beginning} like '${beginsWith}%'`],
      ] as const) {
        const name = searchIndexName(reference.application.id, 'sites', expression, kind);
        const index = await sql<{ valid: boolean }>`
          select i.indisvalid as valid from pg_index i join pg_class c on c.oid = i.indexrelid where c.relname = ${name}`.execute(
          ctx.db,
        );
        expect(index.rows, `${locale} ${kind}`).toEqual([{ valid: true }]);
        const plan = await sql<{ 'QUERY PLAN': string }>`${sql.raw(
          `explain select natural_key from data_rows where ${rows} and ${condition}`,
        )}`.execute(ctx.db);
        expect(plan.rows.map((row) => row['QUERY PLAN']).join('\n'), `${locale} ${kind}`).toContain(name);
      }
    }
    expect((await suggest(data.admin, { q: 'Lac Léman', lang: 'fr' })).body.suggestions).toHaveLength(1);
    expect((await suggest(data.admin, { q: 'lake gen', lang: 'en' })).body.suggestions).toHaveLength(1);
  });

  it('finds a row by its display label in the language asked, accents and case ignored', async () => {
    for (const q of ['Lac Léman', 'lac leman', 'LAC LÉM', 'léman', 'Leman', 'lac   lé']) {
      const answer = await suggest(data.admin, { q, lang: 'fr' });
      expect(answer.status, q).toBe(200);
      expect(answer.body.suggestions, q).toEqual([{ naturalKey: 'site00000', label: 'Lac Léman' }]);
    }
    const english = await suggest(data.admin, { q: 'geneva', lang: 'en' });
    expect(english.body.suggestions).toEqual([{ naturalKey: 'site00000', label: 'Lake Geneva' }]);
    // Words begin where the label's do: the middle of a word is not a match.
    expect((await suggest(data.admin, { q: 'man', lang: 'fr' })).body.suggestions).toEqual([]);
  });

  it('finds a row by its natural key, and labels of references by the natural key they point to', async () => {
    const answer = await suggest(data.admin, { q: 'site04242', lang: 'en' });
    expect(answer.body.suggestions).toEqual([{ naturalKey: 'site04242', label: nameOf(4242, 'en') }]);
    const regions = await suggest(data.admin, { q: 'nor', lang: 'fr' }, 'regions');
    expect(regions.body.suggestions).toEqual([{ naturalKey: 'north', label: 'Région Nord' }]);
  });

  it('answers labels that begin with the search first, at most the limit asked', async () => {
    const answer = await suggest(data.admin, { q: 'lac', lang: 'fr', limit: '5' });
    expect(answer.body.suggestions).toHaveLength(5);
    expect(answer.body.suggestions.every((s) => s.label.startsWith('Lac'))).toBe(true);
    expect((await suggest(data.admin, { q: 'lac', lang: 'fr' })).body.suggestions).toHaveLength(20);
    expect((await suggest(data.admin, { q: 'lac', lang: 'fr', limit: '50' })).body.suggestions).toHaveLength(50);
  });

  it.each([
    ['%'],
    ['_'],
    ["'"],
    ['\\'],
    ["' or 1=1 --"],
    ['lac:* | !'],
    ['&&&'],
    ['"); drop table data_rows; --'],
    ['   '],
    [''],
  ])('answers nothing or rows, never an error, for the search %j', async (q) => {
    const answer = await suggest(data.admin, { q, lang: 'fr' });
    expect(answer.status).toBe(200);
    expect(Array.isArray(answer.body.suggestions)).toBe(true);
  });

  it('finds nothing for wildcards and quotes alone, and reads them as spaces around words', async () => {
    for (const q of ['%', '_', "'", '\\', '%%%'])
      expect((await suggest(data.admin, { q })).body.suggestions).toEqual([]);
    expect((await suggest(data.admin, { q: "l%a_c' 'léman\\", lang: 'fr' })).body.suggestions).toEqual([]);
    expect((await suggest(data.admin, { q: "'lac' %léman%", lang: 'fr' })).body.suggestions).toEqual([
      { naturalKey: 'site00000', label: 'Lac Léman' },
    ]);
  });

  it.each([
    [{ q: 'x'.repeat(201) }, 400, 'BAD_REQUEST'],
    [{ q: 'lac', limit: '0' }, 400, 'BAD_REQUEST'],
    [{ q: 'lac', limit: '51' }, 400, 'BAD_REQUEST'],
    [{ q: 'lac', limit: 'many' }, 400, 'BAD_REQUEST'],
    [{ q: 'lac', lang: '../../etc' }, 400, 'BAD_REQUEST'],
    [{ q: 'lac', lang: 'x'.repeat(300) }, 400, 'BAD_REQUEST'],
    [{}, 400, 'BAD_REQUEST'],
  ])('refuses the malformed parameters %j with a code', async (query, status, code) => {
    const answer = await suggest(data.admin, query as Record<string, string>);
    expect(answer.status).toBe(status);
    expect(answer.body.code).toBe(code);
  });

  it('refuses an unknown reference, and a data type, as no such reference', async () => {
    for (const reference of ['nowhere', 'samples', '%', "sites'"]) {
      const answer = await suggest(data.admin, { q: 'lac' }, reference);
      expect(answer.status, reference).toBe(404);
      expect(answer.body.code).toBe('NO_SUCH_REFERENCE');
    }
    const application = await data.admin.get('/applications/nowhere/references/sites/suggestions?q=lac');
    expect(application.status).toBe(404);
  });

  it('suggests to a reader restricted to part of a scoped reference only the rows they may read', async () => {
    // Every sixth site is a pond (Étang), in the north; every sixth a spring (Source), in the south.
    const numbered = await suggest(reader, { q: 'numéro', lang: 'fr', limit: '50' });
    expect(numbered.status).toBe(200);
    expect(numbered.body.suggestions).toHaveLength(50);
    const index = (naturalKey: string) => Number(naturalKey.slice(4));
    expect(numbered.body.suggestions.every((s) => inNorth(index(s.naturalKey)))).toBe(true);
    expect((await suggest(reader, { q: 'étang', lang: 'fr' })).body.suggestions).toHaveLength(20);
    expect((await suggest(reader, { q: 'source', lang: 'fr' })).body.suggestions).toEqual([]);
    expect((await suggest(data.admin, { q: 'source', lang: 'fr' })).body.suggestions).toHaveLength(20);
    expect((await suggest(reader, { q: 'Léman', lang: 'fr' })).body.suggestions).toHaveLength(1);
    expect((await suggest(reader, { q: 'Bourget', lang: 'fr' })).body.suggestions).toEqual([]);
    expect((await suggest(reader, { q: 'site00001' })).body.suggestions).toEqual([]);
    expect((await suggest(data.admin, { q: 'Bourget', lang: 'fr' })).body.suggestions).toHaveLength(1);
  });

  it('refuses a caller who is not signed in', async () => {
    const anonymous = await fetch(`${data.server.url}/api/v1/applications/lakes/references/sites/suggestions?q=lac`);
    expect([401, 403]).toContain(anonymous.status);
  });
});
