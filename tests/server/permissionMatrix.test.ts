import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateConfiguration } from '../../src/domain/configuration/index.ts';
import { versionRowsQuery } from '../../src/domain/deposits/versionRows.ts';
import { activeAccount, GENEROUS_RATE_LIMITS, newIdentity, signedIn, type Account } from './accountFixtures.ts';
import { api, type ApiClient } from './apiClient.ts';
import { grantApplicationRole, uploadForm } from './applicationFixtures.ts';
import {
  createApplication,
  csvForm,
  q,
  readCsv,
  ROOT,
  unzipText,
  uploadReference,
  waitForJob,
} from './dataFixtures.ts';
import { startTestServer, type TestServer } from './harness.ts';
import type { Answer, RequestOptions } from './httpClient.ts';

/**
 * The permission matrix (issue 9): every route under /api/v1 × every kind of caller → the status it must answer
 * and, for the reads, exactly the rows (and files) the caller may see. One server, one application (`surveys`,
 * tests/fixtures/configurations/surveys.yaml: data type `counts` scoped by project and site, with a day time scope
 * and versioned deposits; references `projects`, `sites`, `species`), created by the owner (the generated platform
 * administrator), who also repairs whatever a permitted call changed so that every role meets the same state.
 *
 * Scope A is the project `alps`, period P June 2024. What each role holds:
 * - visitor:            no session at all, no public authorization.
 * - stranger:           signed in, nothing granted.
 * - publicVisitor:      no session; while this role and the next run (and only then) a public authorization gives
 *                       everyone extraction on `species` and on `counts` of project `pyrenees`.
 * - publicOnly:         signed in, nothing granted to them but that public authorization.
 * - extractionA_P:      extraction on `counts` of scope A during period P.
 * - depotA:             depot on `counts` of scope A (brings extraction).
 * - publicationA:       publication on `counts` of scope A (brings depot, delete and extraction).
 * - deleteA:            delete on `counts` of scope A (on versioned scoped data it brings depot, publication and
 *                       extraction: same rights as publicationA, by the rule in src/domain/rights/operations.ts).
 * - userManager:        the userManager role on `surveys`, no data right.
 * - applicationManager: the applicationManager role on `surveys`.
 * - creator:            applicationCreator with the pattern `surv.*` (covers `surveys`, which they did not create).
 * - admin:              terrainAdmin (a second one; not the owner, not a manager of `surveys`).
 *
 * Versions of `counts` (file names project~site~month.csv): A_P (alps/lac_blanc, June 2024, published), J
 * (alps/lac_blanc, July 2024, published), U (alps/lac_blanc, August 2024, unpublished), W (alps/mont_joly, 16 May
 * to 15 June 2024: in scope A, spanning more than P, with a line on each side of 1 June; published), B
 * (pyrenees/mont_joly, June 2024, published), V (pyrenees/mont_joly, August 2024, unpublished); D (alps, September
 * 2024) and E (pyrenees, September 2024), unpublished, are deposited again whenever a call deleted them. A version
 * is listed, polled and downloaded whole by whom it is covered for (scope and period inside the grant): published
 * ones by those who may read them, unpublished ones by those who may deposit there (src/domain/rights/versions.ts);
 * extractionA_P reads its June line of W through the exports, never the file (403 NO_RIGHT_FOR_WHOLE_VERSION); a
 * version the caller may not open and reads none of answers as an id no version has (404 NO_SUCH_FILE).
 *
 * Objects named in paths: application `surveys`, reference `species`, data type `counts`, variable `individuals`;
 * the authorization of extractionA_P; the accounts `target` (someone else's account) and `grantee` (who receives
 * the roles and authorizations the calls give).
 *
 * A second application (`massifs`, below the matrix) has a scope reference that is a real tree: rights on a
 * sub-tree and a period, checked in every read and every write of data without versioning.
 *
 * HEAD routes are Fastify's automatic twins of the GET routes (same handler): they have no row.
 */

const ROLES = [
  'visitor',
  'stranger',
  'publicVisitor',
  'publicOnly',
  'extractionA_P',
  'depotA',
  'publicationA',
  'deleteA',
  'userManager',
  'applicationManager',
  'creator',
  'admin',
] as const;
type RoleName = (typeof ROLES)[number];
const ANONYMOUS: readonly RoleName[] = ['visitor', 'publicVisitor'];
type SignedInRole = Exclude<RoleName, 'visitor' | 'publicVisitor'>;
const isAnonymous = (role: RoleName): role is 'visitor' | 'publicVisitor' => ANONYMOUS.includes(role);

/** One status, or (when honestly ambiguous) the statuses accepted. */
type Expected = number | readonly number[];
/** In the order of ROLES. */
type Statuses = readonly [
  Expected,
  Expected,
  Expected,
  Expected,
  Expected,
  Expected,
  Expected,
  Expected,
  Expected,
  Expected,
  Expected,
  Expected,
];

/** An answer, with its bytes when the row asked for them (zip exports). */
type Received = Answer & { bytes?: Uint8Array };

/** What a read gives back, compared whole with what the role may see (sorted lines). */
interface Read {
  got(answer: Received, role: RoleName): string[];
  want(role: RoleName): string[];
}

interface Row {
  /** Method and path under /api/v1, as Fastify registers the route. */
  route: string;
  expected: Statuses;
  /** Rows of one route that try different things. */
  variant?: string;
  /** Path parameters other than DEFAULT_PARAMS. */
  params?: Record<string, (role: RoleName) => string>;
  query?: (role: RoleName) => string;
  body?: (role: RoleName) => RequestOptions;
  /** The answer is binary (a zip): read as bytes. */
  binary?: true;
  /** On a 200, the rows or files that must come back. */
  read?: Read;
  /** On a refusal, the code some roles must get. */
  refusals?: Partial<Record<RoleName, string>>;
  /** The owner prepares what the call needs (not checked as part of the matrix). */
  before?: () => Promise<void>;
  /** The owner puts back what the call changed, when it was allowed. */
  after?: (answer: Answer) => Promise<void>;
  /** The call ends the session it uses: it gets a session of its own. */
  freshSession?: boolean;
}

// ——— What each role may see ———

/** The published rows of counts, as project;site;species;day;individuals. */
const COUNTS = {
  A_P: ['alps;lac_blanc;tichodroma;02/06/2024;3', 'alps;lac_blanc;lagopus;12/06/2024;5'],
  J: ['alps;lac_blanc;lagopus;10/07/2024;4'],
  W: ['alps;mont_joly;lagopus;20/05/2024;1', 'alps;mont_joly;tichodroma;10/06/2024;2'],
  B: ['pyrenees;mont_joly;lagopus;05/06/2024;7'],
};
/** The line of W inside P. */
const W_IN_P = COUNTS.W.filter((line) => line.includes('/06/2024'));
const SPECIES = ['tichodroma;Tichodrome', 'lagopus;Lagopède', 'spare;Espèce de réserve'];
const VERSION_NAMES = {
  A_P: 'alps~lac_blanc~2024-06.csv',
  J: 'alps~lac_blanc~2024-07.csv',
  U: 'alps~lac_blanc~2024-08.csv',
  W: 'alps~mont_joly~2024-05-16~2024-06-15.csv',
  B: 'pyrenees~mont_joly~2024-06.csv',
  V: 'pyrenees~mont_joly~2024-08.csv',
};
const STABLE_VERSIONS = new Set(Object.values(VERSION_NAMES));

const isPublicRole = (role: RoleName) => role === 'publicVisitor' || role === 'publicOnly';
const holdsScopeA = (role: RoleName) => role === 'depotA' || role === 'publicationA' || role === 'deleteA';

function countsOf(role: RoleName): string[] {
  if (isPublicRole(role)) return COUNTS.B;
  if (role === 'extractionA_P') return [...COUNTS.A_P, ...W_IN_P];
  if (holdsScopeA(role)) return [...COUNTS.A_P, ...COUNTS.J, ...COUNTS.W];
  return [...COUNTS.A_P, ...COUNTS.J, ...COUNTS.W, ...COUNTS.B];
}

/** Published versions for those whose reading covers them whole; unpublished ones for those who may deposit them. */
function versionsOf(role: RoleName): string[] {
  if (isPublicRole(role)) return [VERSION_NAMES.B];
  // Not W: it reaches beyond P.
  if (role === 'extractionA_P') return [VERSION_NAMES.A_P];
  if (holdsScopeA(role)) return [VERSION_NAMES.A_P, VERSION_NAMES.J, VERSION_NAMES.U, VERSION_NAMES.W];
  return Object.values(VERSION_NAMES);
}

/** The references a zip export of counts carries: those the role may read. */
function referenceFilesOf(role: RoleName): string[] {
  if (isPublicRole(role)) return ['references/species.csv'];
  if (role === 'extractionA_P' || holdsScopeA(role)) return [];
  return ['references/projects.csv', 'references/sites.csv', 'references/species.csv'];
}

const LAGOPUS = { componentFilters: [{ componentKey: 'species', filters: ['lagopus'] }] };
const onlyLagopus = (lines: string[]) => lines.filter((line) => line.split(';')[2] === 'lagopus');
const onlyW = (lines: string[]) => lines.filter((line) => COUNTS.W.includes(line));

/** A counts line as its natural key (project__site__species__dd_MM_yyyy). */
const keyOf = (line: string) => line.split(';').slice(0, 4).join('__').replace(/\//g, '_');
const sorted = (lines: string[]) => [...lines].sort();
const csvLines = (text: string) =>
  readCsv(text, ';')
    .slice(1)
    .map((fields) => fields.join(';'));

/** A JSON page: its rows' natural keys and its total. */
function jsonPage(answer: Received): string[] {
  const rows = answer.body.rows ?? answer.body.referenceValues;
  return [...rows.map((row: { naturalKey: string }) => row.naturalKey), `totalRows ${answer.body.totalRows}`];
}
const jsonWant = (keys: string[]) => [...keys, `totalRows ${keys.length}`];

const READS = {
  countsJson: (narrow: (lines: string[]) => string[] = (l) => l): Read => ({
    got: jsonPage,
    want: (role) => jsonWant(narrow(countsOf(role)).map(keyOf)),
  }),
  countsCsv: (narrow: (lines: string[]) => string[] = (l) => l): Read => ({
    got: (answer) => csvLines(answer.text),
    want: (role) => narrow(countsOf(role)),
  }),
  countsZip: {
    got: (answer) => {
      const files = unzipText(answer.bytes!);
      return [...Object.keys(files), ...csvLines(files['counts.csv'] ?? '')];
    },
    want: (role) => ['counts.csv', ...referenceFilesOf(role), ...countsOf(role)],
  } satisfies Read,
  /** Lines with a value of `individuals`, over all intervals. */
  synthesis: {
    got: (answer) => [`individuals ${(answer.body.variables.individuals as number[]).reduce((a, b) => a + b, 0)}`],
    want: (role) => [`individuals ${countsOf(role).length}`],
  } satisfies Read,
  versions: {
    got: (answer) =>
      (answer.body as Array<{ name: string }>).map((v) => v.name).filter((name) => STABLE_VERSIONS.has(name)),
    want: versionsOf,
  } satisfies Read,
  speciesJson: { got: jsonPage, want: () => jsonWant(SPECIES.map((line) => line.split(';')[0])) } satisfies Read,
  speciesCsv: { got: (answer) => csvLines(answer.text), want: () => SPECIES } satisfies Read,
  speciesZip: {
    got: (answer) => {
      const files = unzipText(answer.bytes!);
      return [...Object.keys(files), ...csvLines(files['species.csv'] ?? '')];
    },
    want: () => ['species.csv', ...SPECIES],
  } satisfies Read,
  /** Whether the list shows requests of other people than the caller. */
  requests: {
    got: (answer, role) =>
      answer.body.rightsRequests.some(
        (r: { userLogin: string }) => r.userLogin !== fx.accounts[role as SignedInRole].login,
      )
        ? ['requests of others']
        : [],
    want: (role) =>
      ['userManager', 'applicationManager', 'creator', 'admin'].includes(role) ? ['requests of others'] : [],
  } satisfies Read,
  /** The whole configuration only to those who may read some data, and row counts of the entries they read whole. */
  applicationView: {
    got: (answer) => [
      answer.body.configuration ? 'configuration' : answer.body.outline ? 'outline' : 'neither',
      ...Object.keys(answer.body.lineCounts).map((name) => `count ${name}`),
    ],
    want: (role) => {
      if (role === 'stranger') return ['outline'];
      if (role === 'publicOnly') return ['configuration', 'count species'];
      if (['applicationManager', 'creator', 'admin'].includes(role))
        return ['configuration', ...['projects', 'sites', 'species', 'counts'].map((name) => `count ${name}`)];
      return ['configuration'];
    },
  } satisfies Read,
  speciesRows: {
    got: (answer) =>
      answer.text
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line).naturalKey as string),
    want: () => SPECIES.map((line) => line.split(';')[0]),
  } satisfies Read,
};

// prettier-ignore
const MATRIX: readonly Row[] = [
  //                                                                                 visitor        publicOnly     publicationA   applicationManager
  //                                                                                      stranger       extractionA_P  deleteA        creator
  //                                                                                           publicVisitor  depotA         userManager    admin
  // Public and account calls
  { route: 'GET /openapi.json',                                           expected: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { route: 'POST /login',                                                 expected: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200], body: () => ({ form: { login: fx.grantee.login, password: fx.grantee.password } }) },
  { route: 'DELETE /logout',                                              expected: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200], freshSession: true },
  { route: 'GET /me',                                                     expected: [401, 200, 401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { route: 'GET /me/devices',                                             expected: [401, 200, 401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { route: 'DELETE /me/devices/:deviceId',                                expected: [401, 404, 401, 404, 404, 404, 404, 404, 404, 404, 404, 404], variant: 'a device not kept by the caller',
    params: { deviceId: () => 'notAKeptDeviceOfTheCaller' } },
  { route: 'POST /users',                                                 expected: [201, 201, 201, 201, 201, 201, 201, 201, 201, 201, 201, 201], body: () => ({ form: { ...newIdentity('signup') } }) },
  { route: 'PUT /users',                                                  expected: [200, 403, 200, 403, 403, 403, 403, 403, 403, 403, 403, 403], variant: "a password-reset key for someone else's account",
    body: () => ({ json: { login: fx.target.login, email: fx.target.email } }) },
  { route: 'GET /users/:idOrLogin',                                       expected: [401, 403, 401, 403, 403, 403, 403, 403, 403, 403, 403, 200], variant: "someone else's account" },
  { route: 'GET /users/:idOrLogin',                                       expected: [401, 200, 401, 200, 200, 200, 200, 200, 200, 200, 200, 200], variant: 'their own account',
    params: { idOrLogin: (role) => (isAnonymous(role) ? fx.target.login : fx.accounts[role].login) } },

  // Platform and application roles
  { route: 'GET /authorizationForAdmin',                                  expected: [401, 403, 401, 403, 403, 403, 403, 403, 403, 403, 403, 200] },
  { route: 'PUT /authorization/:role',                                    expected: [401, 403, 401, 403, 403, 403, 403, 403, 403, 403, 403, 200], variant: 'terrainAdmin',
    params: { role: () => 'terrainAdmin' }, query: () => qs({ userIdOrLogin: fx.grantee.login }), after: revokeRole('terrainAdmin', {}) },
  { route: 'PUT /authorization/:role',                                    expected: [401, 403, 401, 403, 403, 403, 403, 403, 403, 403, 403, 200], variant: 'applicationCreator',
    params: { role: () => 'applicationCreator' }, query: () => qs({ userIdOrLogin: fx.grantee.login, applicationPattern: 'grant_.*' }),
    after: revokeRole('applicationCreator', { applicationPattern: 'grant_.*' }) },
  { route: 'PUT /authorization/:role',                                    expected: [401, 403, 401, 403, 403, 403, 403, 403, 403, 200, 200, 200], variant: 'applicationManager on surveys',
    params: { role: () => 'applicationManager' }, query: () => qs({ userIdOrLogin: fx.grantee.login, applicationNameOrId: 'surveys' }),
    after: revokeRole('applicationManager', { applicationNameOrId: 'surveys' }) },
  { route: 'PUT /authorization/:role',                                    expected: [401, 403, 401, 403, 403, 403, 403, 403, 403, 200, 200, 200], variant: 'userManager on surveys',
    params: { role: () => 'userManager' }, query: () => qs({ userIdOrLogin: fx.grantee.login, applicationNameOrId: 'surveys' }),
    after: revokeRole('userManager', { applicationNameOrId: 'surveys' }) },
  { route: 'DELETE /authorization/:role',                                 expected: [401, 403, 401, 403, 403, 403, 403, 403, 403, 403, 403, 200], variant: 'applicationCreator',
    params: { role: () => 'applicationCreator' }, query: () => qs({ userIdOrLogin: fx.grantee.login, applicationPattern: 'grant_.*' }),
    before: grantRole('applicationCreator', { applicationPattern: 'grant_.*' }) },
  { route: 'DELETE /authorization/:role',                                 expected: [401, 403, 401, 403, 403, 403, 403, 403, 403, 200, 200, 200], variant: 'userManager on surveys',
    params: { role: () => 'userManager' }, query: () => qs({ userIdOrLogin: fx.grantee.login, applicationNameOrId: 'surveys' }),
    before: grantRole('userManager', { applicationNameOrId: 'surveys' }) },

  // Applications
  { route: 'GET /applications',                                           expected: [401, 200, 401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { route: 'GET /applications/:name',                                     expected: [401, 200, 401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { route: 'GET /applications/:name',                                     expected: [401, 200, 401, 200, 200, 200, 200, 200, 200, 200, 200, 200], variant: 'every part: the configuration or its outline, the counts',
    query: () => '?filter=ALL', read: READS.applicationView },
  { route: 'POST /applications/:name',                                    expected: [401, 403, 401, 403, 403, 403, 403, 403, 403, 403, 200, 200], variant: 'a new application named surv_matrix_<role>',
    params: { name: (role) => `surv_matrix_${role.toLowerCase()}` }, body: () => ({ body: uploadForm('surveys.yaml', SURVEYS_YAML) }) },
  { route: 'POST /applications/:name/configuration',                      expected: [401, 403, 401, 403, 403, 403, 403, 403, 403, 200, 200, 200], body: () => ({ body: uploadForm('surveys.yaml', nextSurveysVersion()) }) },
  { route: 'GET /applications/:name/configuration',                       expected: [401, 403, 401, 403, 403, 403, 403, 403, 403, 200, 200, 200] },
  { route: 'POST /validate-configuration',                                expected: [401, 200, 401, 200, 200, 200, 200, 200, 200, 200, 200, 200], body: () => ({ body: uploadForm('surveys.yaml', SURVEYS_YAML) }) },
  { route: 'POST /applications/validate-configuration',                   expected: [401, 200, 401, 200, 200, 200, 200, 200, 200, 200, 200, 200], body: () => ({ body: uploadForm('surveys.yaml', SURVEYS_YAML) }) },
  { route: 'GET /applications/:name/upload-bundle',                       expected: [401, 403, 401, 403, 403, 403, 403, 403, 403, 200, 200, 200], variant: 'the backup, every row and version',
    query: () => qs({ withData: 'true' }), binary: true },
  { route: 'POST /applications/:name/upload-bundle',                      expected: [401, 403, 401, 403, 403, 403, 403, 403, 403, 403, 200, 200], variant: 'restoring the backup as surv_bundle_<role>',
    params: { name: (role) => `surv_bundle_${role.toLowerCase()}` }, body: () => ({ body: uploadForm('surveys-backup.zip', fx.backup) }) },

  // The usage charter (none uploaded here: a charter would stop every user who has not signed it)
  { route: 'GET /applications/:name/charter',                             expected: [401, 404, 401, 404, 404, 404, 404, 404, 404, 404, 404, 404] },
  { route: 'POST /applications/:name/additionalFiles/__charter__',        expected: [401, 403, 401, 403, 403, 403, 403, 403, 403, 415, 415, 415], variant: 'rights pass, then 415: not a PDF',
    body: () => ({ body: uploadForm('charter.pdf', NOT_A_PDF) }) },
  { route: 'POST /applications/:name/additionalFiles/__charte__',         expected: [401, 403, 401, 403, 403, 403, 403, 403, 403, 415, 415, 415], variant: 'rights pass, then 415: not a PDF',
    body: () => ({ body: uploadForm('charte.pdf', NOT_A_PDF) }) },

  // Additional files (surveys declares no file type: reads open to users of the application, writes stop at the type)
  { route: 'GET /applications/:name/additionalFiles',                     expected: [401, 403, 401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { route: 'GET /applications/:name/additionalFiles',                     expected: [401, 403, 401, 404, 404, 404, 404, 404, 404, 404, 404, 404], variant: 'the zip of a selection of no file',
    query: () => qs({ params: JSON.stringify({ uuids: [NO_FILE] }) }) },
  { route: 'DELETE /applications/:name/additionalFiles',                  expected: [401, 403, 401, 404, 404, 404, 404, 404, 404, 404, 404, 404], query: () => qs({ params: JSON.stringify({ uuids: [NO_FILE] }) }) },
  { route: 'GET /applications/:name/additionalFiles/:fileType',           expected: [401, 404, 401, 404, 404, 404, 404, 404, 404, 404, 404, 404], params: { fileType: () => 'protocols' } },
  { route: 'POST /applications/:name/additionalFiles/:fileType',          expected: [401, 404, 401, 404, 404, 404, 404, 404, 404, 404, 404, 404], params: { fileType: () => 'protocols' },
    body: () => ({ body: uploadForm('protocol.pdf', new TextEncoder().encode('a protocol'), { params: JSON.stringify({ fileName: 'protocol.pdf', comment: 'matrix', fields: {} }) }) }) },
  { route: 'GET /applications/:name/additionalFiles/:fileType/:id',       expected: [401, 404, 401, 404, 404, 404, 404, 404, 404, 404, 404, 404], params: { fileType: () => 'protocols', id: () => NO_FILE } },
  { route: 'GET /applications/:name/additionalFiles/:fileType/:id/content', expected: [401, 404, 401, 404, 404, 404, 404, 404, 404, 404, 404, 404], params: { fileType: () => 'protocols', id: () => NO_FILE } },
  { route: 'GET /applications/:name/additionalfiles/authorization',       expected: [401, 403, 401, 403, 403, 403, 403, 403, 200, 200, 200, 200] },
  { route: 'GET /applications/:name/additionalFiles/authorization',       expected: [401, 403, 401, 403, 403, 403, 403, 403, 200, 200, 200, 200] },
  { route: 'GET /applications/:name/additionalFiles/authorization/:user', expected: [401, 200, 401, 200, 200, 200, 200, 200, 200, 200, 200, 200], variant: 'one’s own rights', params: { user: () => 'null' } },
  { route: 'GET /applications/:name/additionalFiles/authorization/:user', expected: [401, 403, 401, 403, 403, 403, 403, 403, 200, 200, 200, 200], variant: 'someone else’s rights', params: { user: () => fx.target.login } },
  { route: 'POST /applications/:name/additionalFiles/authorization',      expected: [401, 403, 401, 403, 403, 403, 403, 403, 400, 400, 400, 400], variant: 'rights pass, then 400: no such file type',
    body: () => ({ json: { uuid: null, name: 'matrix files', usersId: [fx.grantee.login], additionalFiles: { depot: ['protocols'] } } }) },
  { route: 'DELETE /applications/:name/additionalFiles/authorization/:id', expected: [401, 403, 401, 403, 403, 403, 403, 403, 404, 404, 404, 404], params: { id: () => NO_FILE } },

  // References (species: public reading while publicVisitor and publicOnly run)
  { route: 'POST /applications/:name/references/:refType',                expected: [401, 403, 401, 403, 403, 403, 403, 403, 403, 201, 201, 201], body: () => ({ body: csvForm('species.csv', SPECIES_CSV) }) },
  { route: 'GET /applications/:name/references/:refType',                 expected: [401, 403, 200, 200, 403, 403, 403, 403, 403, 200, 200, 200], read: READS.speciesJson,
    query: () => q({ limit: 100 }) },
  { route: 'GET /applications/:name/references/:refType/json',            expected: [401, 403, 200, 200, 403, 403, 403, 403, 403, 200, 200, 200], read: READS.speciesJson },
  { route: 'GET /applications/:name/references/:refType/csv',             expected: [401, 403, 200, 200, 403, 403, 403, 403, 403, 200, 200, 200], read: READS.speciesCsv },
  { route: 'GET /applications/:name/references/:refType/zip',             expected: [401, 403, 200, 200, 403, 403, 403, 403, 403, 200, 200, 200], read: READS.speciesZip, binary: true },
  { route: 'GET /applications/:name/references/:refType/csv',             expected: [401, 403, 200, 200, 403, 403, 403, 403, 403, 200, 200, 200], variant: 'to load again (form=upload)',
    read: READS.speciesCsv, query: () => qs({ form: 'upload' }) },
  { route: 'GET /applications/:name/references/:refType/rows',            expected: [401, 403, 200, 200, 403, 403, 403, 403, 403, 200, 200, 200], read: READS.speciesRows },
  { route: 'GET /applications/:name/references/:refType/suggestions',     expected: [401, 403, 200, 200, 403, 403, 403, 403, 403, 200, 200, 200], query: () => qs({ q: 'a', lang: 'fr' }) },
  { route: 'DELETE /applications/:name/references/:refType',              expected: [401, 403, 401, 403, 403, 403, 403, 403, 403, 200, 200, 200], variant: 'an unreferenced row',
    query: () => qs({ naturalKey: 'spare' }), after: reuploadSpecies },
  // The same reference under data/, as the newest OpenADOM's scripts load and read it
  { route: 'POST /applications/:name/data/:dataType',                     expected: [401, 403, 401, 403, 403, 403, 403, 403, 403, 201, 201, 201], variant: 'the reference species',
    params: { dataType: () => 'species' }, body: () => ({ body: csvForm('species.csv', SPECIES_CSV) }) },
  { route: 'GET /applications/:name/data/:dataType/json',                 expected: [401, 403, 200, 200, 403, 403, 403, 403, 403, 200, 200, 200], variant: 'the reference species',
    params: { dataType: () => 'species' }, read: READS.speciesJson },
  { route: 'GET /applications/:name/data/:dataType/csv',                  expected: [401, 403, 200, 200, 403, 403, 403, 403, 403, 200, 200, 200], variant: 'the reference species',
    params: { dataType: () => 'species' }, read: READS.speciesCsv },
  { route: 'GET /applications/:name/data/:dataType/zip',                  expected: [401, 403, 200, 200, 403, 403, 403, 403, 403, 200, 200, 200], variant: 'the reference species',
    params: { dataType: () => 'species' }, read: READS.speciesZip, binary: true },

  // Data (counts): reads
  { route: 'GET /applications/:name/data/:dataType/json',                 expected: [401, 403, 200, 200, 200, 200, 200, 200, 403, 200, 200, 200], read: READS.countsJson(),
    query: () => q({ limit: 100 }) },
  { route: 'GET /applications/:name/data/:dataType/json',                 expected: [401, 403, 200, 200, 200, 200, 200, 200, 403, 200, 200, 200], variant: 'every row, streamed (no limit)',
    read: READS.countsJson() },
  { route: 'GET /applications/:name/data/:dataType/json',                 expected: [401, 403, 200, 200, 200, 200, 200, 200, 403, 200, 200, 200], variant: 'filtered on the species lagopus',
    read: READS.countsJson(onlyLagopus), query: () => q({ limit: 100, ...LAGOPUS }) },
  { route: 'GET /applications/:name/data/:dataType/csv',                  expected: [401, 403, 200, 200, 200, 200, 200, 200, 403, 200, 200, 200], read: READS.countsCsv() },
  { route: 'GET /applications/:name/data/:dataType/csv',                  expected: [401, 403, 200, 200, 200, 200, 200, 200, 403, 200, 200, 200], variant: 'filtered on the species lagopus',
    read: READS.countsCsv(onlyLagopus), query: () => q(LAGOPUS) },
  { route: 'GET /applications/:name/data/:dataType/csv',                  expected: [401, 403, 200, 200, 200, 200, 200, 200, 403, 200, 200, 200], variant: 'the rows of version W, as the deposits page asks for them',
    read: READS.countsCsv(onlyW), query: () => q(versionRowsQuery(COUNTS_ENTRY, W_DATASET, scopeRowsOf)!) },
  { route: 'GET /applications/:name/data/:dataType/zip',                  expected: [401, 403, 200, 200, 200, 200, 200, 200, 403, 200, 200, 200], read: READS.countsZip, binary: true },
  { route: 'GET /applications/:name/data/:dataType/csv',                  expected: [401, 403, 200, 200, 200, 200, 200, 200, 403, 200, 200, 200], variant: 'to load again (form=upload)',
    read: READS.countsCsv(), query: () => qs({ form: 'upload' }) },
  { route: 'GET /applications/:name/data/:dataType/csv',                  expected: [401, 403, 200, 200, 200, 200, 200, 200, 403, 200, 200, 200], variant: 'to load again, filtered on the species lagopus',
    read: READS.countsCsv(onlyLagopus), query: () => `${q(LAGOPUS).slice(1)}&form=upload` },
  { route: 'GET /applications/:name/data/:dataType/zip',                  expected: [401, 403, 200, 200, 200, 200, 200, 200, 403, 200, 200, 200], variant: 'to load again (form=upload)',
    read: READS.countsZip, binary: true, query: () => qs({ form: 'upload' }) },
  { route: 'GET /applications/:name/synthesis/:dataType',                 expected: [401, 403, 200, 200, 200, 200, 200, 200, 403, 200, 200, 200], read: READS.synthesis },
  { route: 'GET /applications/:name/synthesis/:dataType/:variable',       expected: [401, 403, 200, 200, 200, 200, 200, 200, 403, 200, 200, 200], read: READS.synthesis },
  { route: 'GET /applications/:name/filesOnRepository/:dataType',         expected: [401, 403, 200, 200, 200, 200, 200, 200, 403, 200, 200, 200], read: READS.versions },
  { route: 'GET /applications/:name/file/:fileId',                        expected: [401, 404, 404, 404, 200, 200, 200, 200, 404, 200, 200, 200], variant: 'version A_P (scope A, period P, published)' },
  { route: 'GET /applications/:name/file/:fileId',                        expected: [401, 404, 404, 404, 404, 200, 200, 200, 404, 200, 200, 200], variant: 'version J (scope A, outside P, published)',
    params: { fileId: () => fx.files.J }, refusals: { extractionA_P: 'NO_SUCH_FILE' } },
  { route: 'GET /applications/:name/file/:fileId',                        expected: [401, 404, 404, 404, 403, 200, 200, 200, 404, 200, 200, 200], variant: 'version W (scope A, spanning more than P, published)',
    params: { fileId: () => fx.files.W }, refusals: { extractionA_P: 'NO_RIGHT_FOR_WHOLE_VERSION', publicVisitor: 'NO_SUCH_FILE', userManager: 'NO_SUCH_FILE' } },
  { route: 'GET /applications/:name/file/:fileId',                        expected: [401, 404, 200, 200, 404, 404, 404, 404, 404, 200, 200, 200], variant: 'version B (outside scope A, public, published)',
    params: { fileId: () => fx.files.B } },
  { route: 'GET /applications/:name/file/:fileId',                        expected: [401, 404, 404, 404, 404, 200, 200, 200, 404, 200, 200, 200], variant: 'version U (scope A, unpublished)',
    params: { fileId: () => fx.files.U } },
  { route: 'GET /applications/:name/file/:fileId',                        expected: [401, 404, 404, 404, 404, 404, 404, 404, 404, 200, 200, 200], variant: 'version V (outside scope A, public project, unpublished)',
    params: { fileId: () => fx.files.V } },
  { route: 'GET /applications/:name/file/:fileId/publication-state',      expected: [401, 404, 404, 404, 200, 200, 200, 200, 404, 200, 200, 200], variant: 'version A_P (scope A, period P, published)' },
  { route: 'GET /applications/:name/file/:fileId/publication-state',      expected: [401, 404, 404, 404, 403, 200, 200, 200, 404, 200, 200, 200], variant: 'version W (scope A, spanning more than P, published)',
    params: { fileId: () => fx.files.W }, refusals: { extractionA_P: 'NO_RIGHT_FOR_WHOLE_VERSION' } },
  { route: 'GET /applications/:name/file/:fileId/publication-state',      expected: [401, 404, 404, 404, 404, 200, 200, 200, 404, 200, 200, 200], variant: 'version U (scope A, unpublished)',
    params: { fileId: () => fx.files.U }, refusals: { extractionA_P: 'NO_SUCH_FILE' } },
  { route: 'GET /applications/:name/file/:fileId/publication-state',      expected: [401, 404, 404, 404, 404, 404, 404, 404, 404, 200, 200, 200], variant: 'version V (outside scope A, public project, unpublished)',
    params: { fileId: () => fx.files.V } },
  { route: 'GET /applications/:name/file/:fileId',                        expected: [401, 404, 404, 404, 404, 404, 404, 404, 404, 404, 404, 404], variant: 'an id no version has (answered as a version one may not open)',
    params: { fileId: () => NO_FILE }, refusals: { stranger: 'NO_SUCH_FILE', extractionA_P: 'NO_SUCH_FILE' } },
  { route: 'GET /applications/:name/file/:fileId/publication-state',      expected: [401, 404, 404, 404, 404, 404, 404, 404, 404, 404, 404, 404], variant: 'an id no version has (answered as a version one may not open)',
    params: { fileId: () => NO_FILE }, refusals: { stranger: 'NO_SUCH_FILE', extractionA_P: 'NO_SUCH_FILE' } },

  // Data (counts): deposits, publication, deletion
  { route: 'POST /applications/:name/data/:dataType',                     expected: [401, 403, 401, 403, 403, 201, 201, 201, 403, 201, 201, 201], variant: 'deposit a version in scope A',
    body: () => ({ body: depositForm('alps', 'lac_blanc', '2024-10', 'alps;lac_blanc;tichodroma;03/10/2024;4') }), after: deleteDeposited },
  { route: 'POST /applications/:name/data/:dataType',                     expected: [401, 403, 401, 403, 403, 403, 403, 403, 403, 201, 201, 201], variant: 'deposit a version outside scope A',
    body: () => ({ body: depositForm('pyrenees', 'mont_joly', '2024-10', 'pyrenees;mont_joly;tichodroma;03/10/2024;4') }), after: deleteDeposited },
  { route: 'POST /applications/:name/data/:dataType',                     expected: [401, 403, 401, 403, 403, 403, 202, 202, 403, 202, 202, 202], variant: 'publish version U (scope A)',
    body: () => ({ json: { fileid: fx.files.U, topublish: true } }), after: settleThenPublish('U', false) },
  { route: 'POST /applications/:name/data/:dataType',                     expected: [401, 403, 401, 403, 403, 403, 202, 202, 403, 202, 202, 202], variant: 'unpublish version J (scope A)',
    body: () => ({ json: { fileid: fx.files.J, topublish: false } }), after: settleThenPublish('J', true) },
  { route: 'POST /applications/:name/data/:dataType',                     expected: [401, 403, 401, 403, 403, 403, 404, 404, 403, 202, 202, 202], variant: 'publish version V (outside scope A)',
    body: () => ({ json: { fileid: fx.files.V, topublish: true } }), after: settleThenPublish('V', false) },
  { route: 'POST /applications/:name/data/:dataType',                     expected: [401, 403, 401, 403, 403, 403, 404, 404, 403, 404, 404, 404], variant: 'publish an id no version has (as version V for publicationA)',
    body: () => ({ json: { fileid: NO_FILE, topublish: true } }) },
  { route: 'DELETE /applications/:name/data/:dataType',                   expected: [401, 403, 401, 403, 403, 403, 400, 400, 403, 400, 400, 400], variant: 'rights pass, then 400: counts is versioned (rows go with their version)',
    query: () => q({ naturalKeys: [keyOf(COUNTS.A_P[1])] }) },
  { route: 'DELETE /applications/:name/file/:fileId',                     expected: [401, 404, 401, 404, 404, 403, 200, 200, 404, 200, 200, 200], variant: 'unpublished version D (scope A)',
    params: { fileId: () => fx.files.D! }, before: ensureFile('D'), after: forgetDeleted('D') },
  { route: 'DELETE /applications/:name/file/:fileId',                     expected: [401, 404, 401, 404, 404, 404, 404, 404, 404, 200, 200, 200], variant: 'unpublished version E (outside scope A)',
    params: { fileId: () => fx.files.E! }, before: ensureFile('E'), after: forgetDeleted('E') },
  { route: 'DELETE /applications/:name/file/:fileId',                     expected: [401, 404, 401, 404, 404, 404, 404, 404, 404, 404, 404, 404], variant: 'an id no version has (answered as version E)',
    params: { fileId: () => NO_FILE } },

  // Rights
  { route: 'GET /applications/:name/rights',                              expected: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { route: 'GET /applications/:name/grantable',                           expected: [401, 403, 401, 403, 403, 403, 403, 403, 200, 200, 200, 200] },
  { route: 'GET /applications/:name/scopeNodes/:reference',               expected: [401, 403, 401, 403, 403, 403, 403, 403, 200, 200, 200, 200], variant: 'for the grant screen (as grantable)',
    params: { reference: () => 'sites' }, query: () => qs({ use: 'grant' }) },
  { route: 'GET /applications/:name/scopeNodes/:reference',               expected: [401, 200, 401, 200, 200, 200, 200, 200, 200, 200, 200, 200], variant: 'for the request form (as its options)',
    params: { reference: () => 'sites' }, query: () => qs({ use: 'request', q: 'lac' }) },
  { route: 'GET /applications/:name/scopeNodes/:reference',               expected: [401, 403, 401, 200, 200, 200, 200, 200, 200, 200, 200, 200], variant: 'for the files (as their overview)',
    params: { reference: () => 'sites' }, query: () => qs({ use: 'files', parent: 'projectsKalps' }) },
  { route: 'GET /applications/:name/scopeNodes/:reference',               expected: [401, 200, 401, 200, 200, 200, 200, 200, 200, 200, 200, 200], variant: 'the next page of the request form (after a node)',
    params: { reference: () => 'sites' }, query: () => qs({ use: 'request', after: 'projectsKalps' }) },
  { route: 'GET /applications/:name/authorization',                       expected: [401, 403, 401, 403, 403, 403, 403, 403, 200, 200, 200, 200] },
  { route: 'GET /applications/:name/authorization/:id',                   expected: [401, 403, 401, 403, 403, 403, 403, 403, 200, 200, 200, 200] },
  { route: 'POST /applications/:name/authorization',                      expected: [401, 403, 401, 403, 403, 403, 403, 403, 403, 201, 201, 201], variant: 'extraction on scope A (more than a user manager holds)',
    body: () => ({ json: GRANT_TO_GRANTEE }), after: revokeCreatedAuthorization, refusals: { userManager: 'NO_RIGHT_FOR_SET_RIGHTS_APPLICATION' } },
  { route: 'POST /applications/:name/authorization',                      expected: [401, 403, 401, 403, 403, 403, 403, 403, 400, 400, 400, 400], variant: "emptying extractionA_P's authorization (saved again with no right)",
    body: () => ({ json: { ...EXTRACTION_A_P(), authorizationsWithRestriction: {} } }), after: restoreExtractionAuthorization,
    refusals: { userManager: 'NOTHING_GRANTED', applicationManager: 'NOTHING_GRANTED', creator: 'NOTHING_GRANTED', admin: 'NOTHING_GRANTED' } },
  { route: 'POST /applications/:name/authorization',                      expected: [401, 403, 401, 403, 403, 403, 403, 403, 403, 201, 201, 201], variant: "giving extractionA_P's authorization to grantee instead (its people changed)",
    body: () => ({ json: { ...EXTRACTION_A_P(), usersId: [fx.grantee.login] } }), after: restoreExtractionAuthorization, refusals: { userManager: 'NO_RIGHT_FOR_SET_RIGHTS_APPLICATION' } },
  { route: 'DELETE /applications/:name/authorization/:id',                expected: [401, 403, 401, 403, 403, 403, 403, 403, 403, 200, 200, 200],
    params: { id: () => fx.revocable! }, before: ensureRevocable, after: async (answer) => { if (answer.status === 200) fx.revocable = undefined; } },
  { route: 'GET /applications/:name/authorizationAdminForApplication',    expected: [401, 403, 401, 403, 403, 403, 403, 403, 200, 200, 200, 200] },

  // Rights requests: anyone signed in asks and sees their own; managers and user managers see and treat them all
  { route: 'GET /applications/:name/rightsRequest',                       expected: [401, 200, 401, 200, 200, 200, 200, 200, 200, 200, 200, 200], read: READS.requests },
  { route: 'GET /applications/:name/rightsRequest/options',               expected: [401, 200, 401, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { route: 'POST /applications/:name/rightsRequest',                      expected: [401, 201, 401, 201, 201, 201, 201, 201, 201, 201, 201, 201], variant: 'asking to read species',
    body: () => ({ json: { id: null, fields: {}, rightsRequest: { authorizationForAll: { species: ['extraction'] } }, comment: 'matrix request' } }) },
  { route: 'POST /applications/:name/rightsRequest',                      expected: [401, 403, 401, 403, 403, 403, 403, 403, 200, 200, 200, 200], variant: "closing someone else's request",
    body: () => ({ json: { id: fx.openRequest, fields: {}, rightsRequest: null, setted: true, comment: 'closed by the matrix' } }),
    before: ensureOpenRequest, after: async (answer) => { if (answer.status === 200) fx.openRequest = undefined; } },
];

/** Path parameters, unless a row says otherwise. */
const DEFAULT_PARAMS: Record<string, (role: RoleName) => string> = {
  name: () => 'surveys',
  refType: () => 'species',
  dataType: () => 'counts',
  variable: () => 'individuals',
  fileId: () => fx.files.A_P,
  id: () => fx.extractionAuthorization,
  idOrLogin: () => fx.target.login,
};

// ——— Fixtures ———

const fixtures = path.resolve(import.meta.dirname, '../fixtures');
const SURVEYS_YAML = new Uint8Array(readFileSync(path.join(fixtures, 'configurations/surveys.yaml')));
/** The species fixture and a row nothing refers to, which the reference deletion takes away. */
const SPECIES_CSV = `${readFileSync(path.join(fixtures, 'csv/surveys-species.csv'), 'utf8').trimEnd()}\nspare;Espèce de réserve\n`;
const COUNTS_HEADER = 'project;site;species;day;individuals';
/** An id no additional file or file authorization has. */
const NO_FILE = '00000000-0000-4000-8000-000000000000';
const NOT_A_PDF = new TextEncoder().encode('not a charter');

const ALPS = ['projectsKalps'];
/** The dataset of version W. */
const W_DATASET = {
  scope: { project: 'projectsKalps', site: 'sitesKmont_joly' },
  from: '2024-05-16T00:00:00',
  to: '2024-06-15T00:00:00',
};
const surveysModel = validateConfiguration(SURVEYS_YAML, 'surveys.yaml');
if (!surveysModel.ok) throw new Error(JSON.stringify(surveysModel.errors));
const COUNTS_ENTRY = surveysModel.value.data.find((entry) => entry.name === 'counts')!;
/** The rows of the scope references, as the deposits page has them (tests/fixtures/csv/surveys-*.csv). */
const scopeRowsOf = (reference: string) =>
  (({ projects: ['alps', 'pyrenees'], sites: ['lac_blanc', 'mont_joly'] }) as Record<string, string[]>)[reference].map(
    (code) => ({ naturalKey: code, hierarchicalKey: `${reference}K${code}` }),
  );

/** The authorization of extractionA_P, as the owner creates it and saves it again. */
const EXTRACTION_A_P = () => ({
  uuid: fx.extractionAuthorization ?? null,
  name: 'extraction on alps',
  description: 'matrix role',
  usersId: [fx.accounts.extractionA_P.login],
  authorizationsWithRestriction: {
    counts: {
      operationTypes: ['extraction'],
      requiredAuthorizations: { project: ALPS },
      timeScope: { fromDay: '2024-06-01', toDay: '2024-06-30' },
    },
  },
});
const GRANT_TO_GRANTEE = {
  name: 'matrix grant',
  description: 'extraction on scope A',
  usersId: [] as string[],
  authorizationsWithRestriction: {
    counts: { operationTypes: ['extraction'], requiredAuthorizations: { project: ALPS } },
  },
};

type VersionName = 'A_P' | 'J' | 'U' | 'W' | 'B' | 'V';
/** The versions deposited again whenever a call deletes them. */
const SPARE_VERSIONS = {
  D: { project: 'alps', site: 'lac_blanc', month: '2024-09', line: 'alps;lac_blanc;lagopus;03/09/2024;1' },
  E: { project: 'pyrenees', site: 'mont_joly', month: '2024-09', line: 'pyrenees;mont_joly;lagopus;03/09/2024;1' },
};

interface Fixture {
  server: TestServer;
  /** The platform administrator who created `surveys` (its creator and manager). */
  owner: ApiClient;
  accounts: Record<SignedInRole, Account>;
  /** The session cookie of each signed-in role. */
  cookies: Record<SignedInRole, string>;
  target: Account;
  grantee: Account;
  files: Record<VersionName, string> & Partial<Record<keyof typeof SPARE_VERSIONS, string>>;
  extractionAuthorization: string;
  revocable?: string;
  /** An open rights request of `target`. */
  openRequest?: string;
  publicAuthorization?: string;
  configurationVersion: number;
  /** A backup of surveys with its data (GET upload-bundle?withData=true by the owner). */
  backup: Uint8Array;
}
const fx = { configurationVersion: 0 } as Fixture;

const qs = (values: Record<string, string>) => new URLSearchParams(values).toString();

function expectStatus(answer: Answer, status: number, what: string) {
  if (answer.status !== status) throw new Error(`${what}: ${answer.status} ${answer.text.slice(0, 300)}`);
  return answer;
}

/** surveys.yaml with a version never uploaded before, so that a permitted update goes through. */
function nextSurveysVersion(): Uint8Array {
  fx.configurationVersion += 1;
  const text = Buffer.from(SURVEYS_YAML)
    .toString('utf8')
    .replace('  OA_version: 1.0.0\n', `  OA_version: 1.0.${fx.configurationVersion}\n`);
  return new Uint8Array(Buffer.from(text, 'utf8'));
}

/** A deposit of one month of `counts` for a project and site (`month`: YYYY-MM), not published. */
function depositForm(project: string, site: string, month: string, ...lines: string[]) {
  const [year, m] = month.split('-').map(Number);
  const last = new Date(Date.UTC(year, m, 0)).getUTCDate();
  return periodForm(`${project}~${site}~${month}.csv`, { project, site }, `${month}-01`, `${month}-${last}`, lines);
}

/** A deposit of `counts` for a dataset and period (days YYYY-MM-DD), not published. */
function periodForm(
  fileName: string,
  scope: { project: string; site: string },
  from: string,
  to: string,
  lines: string[],
) {
  const params = {
    binaryfiledataset: { datatype: 'counts', requiredAuthorizations: scope, from, to },
    topublish: false,
  };
  return csvForm(fileName, `${COUNTS_HEADER}\n${lines.join('\n')}\n`, params);
}

async function deposit(form: FormData): Promise<string> {
  const answer = expectStatus(await fx.owner.post('/applications/surveys/data/counts', { body: form }), 201, 'deposit');
  return answer.body.fileId as string;
}

async function publish(fileId: string, topublish: boolean) {
  expectStatus(
    await fx.owner.post('/applications/surveys/data/counts', { json: { fileid: fileId, topublish } }),
    202,
    'publication request',
  );
  const state = await waitForJob(fx.owner, 'surveys', fileId);
  if (state.job.status !== 'done' || state.published !== topublish)
    throw new Error(`publication of ${fileId}: ${JSON.stringify(state)}`);
}

async function authorize(json: object): Promise<string> {
  return expectStatus(await fx.owner.post('/applications/surveys/authorization', { json }), 201, 'authorization').body
    .authorizationId as string;
}

function grantRole(role: string, extra: Record<string, string>) {
  return async () => {
    expectStatus(
      await fx.owner.put(`/authorization/${role}?${qs({ userIdOrLogin: fx.grantee.login, ...extra })}`),
      200,
      `grant ${role}`,
    );
  };
}

function revokeRole(role: string, extra: Record<string, string>) {
  return async (answer: Answer) => {
    if (answer.status !== 200) return;
    expectStatus(
      await fx.owner.delete(`/authorization/${role}?${qs({ userIdOrLogin: fx.grantee.login, ...extra })}`),
      200,
      `revoke ${role}`,
    );
  };
}

async function reuploadSpecies(answer: Answer) {
  if (answer.status === 200)
    expectStatus(
      await uploadReference(fx.owner, 'surveys', 'species', 'species.csv', SPECIES_CSV),
      201,
      'species upload',
    );
}

async function deleteDeposited(answer: Answer) {
  if (answer.status === 201)
    expectStatus(await fx.owner.delete(`/applications/surveys/file/${answer.body.fileId}`), 200, 'deposit removal');
}

/** After an accepted (un)publication request: its job must have done it; then the version is put back as it was. */
function settleThenPublish(version: VersionName, publishedBefore: boolean) {
  return async (answer: Answer) => {
    if (answer.status !== 202) return;
    const state = await waitForJob(fx.owner, 'surveys', fx.files[version]);
    if (state.job.status !== 'done' || state.published === publishedBefore)
      throw new Error(`(un)publication of ${version}: ${JSON.stringify(state)}`);
    await publish(fx.files[version], publishedBefore);
  };
}

function ensureFile(name: keyof typeof SPARE_VERSIONS) {
  return async () => {
    const { project, site, month, line } = SPARE_VERSIONS[name];
    fx.files[name] ??= await deposit(depositForm(project, site, month, line));
  };
}

function forgetDeleted(name: keyof typeof SPARE_VERSIONS) {
  return async (answer: Answer) => {
    if (answer.status === 200) delete fx.files[name];
  };
}

async function ensureRevocable() {
  fx.revocable ??= await authorize({ ...GRANT_TO_GRANTEE, name: 'revocable', usersId: [fx.grantee.login] });
}

async function ensureOpenRequest() {
  if (fx.openRequest) return;
  const target = await signedIn(fx.server, fx.target);
  const asked = await target.post('/applications/surveys/rightsRequest', {
    json: {
      id: null,
      fields: {},
      rightsRequest: { authorizationForAll: { sites: ['extraction'] } },
      comment: 'the target asks',
    },
  });
  fx.openRequest = expectStatus(asked, 201, 'rights request').body.id as string;
}

async function restoreExtractionAuthorization(answer: Answer) {
  if (answer.status === 201)
    expectStatus(
      await fx.owner.post('/applications/surveys/authorization', { json: EXTRACTION_A_P() }),
      201,
      'extractionA_P restored',
    );
}

async function revokeCreatedAuthorization(answer: Answer) {
  if (answer.status === 201)
    expectStatus(
      await fx.owner.delete(`/applications/surveys/authorization/${answer.body.authorizationId}`),
      200,
      'revocation',
    );
}

const cookieOf = (role: RoleName) => (isAnonymous(role) ? undefined : fx.cookies[role]);

/** A client for one call, carrying the role's session (the role's own client never takes another one's cookies). */
function clientOf(role: RoleName): ApiClient {
  const cookie = cookieOf(role);
  return cookie ? api(fx.server, { cookie }) : api(fx.server);
}

async function freshClient(role: RoleName): Promise<ApiClient> {
  return isAnonymous(role) ? api(fx.server) : signedIn(fx.server, fx.accounts[role]);
}

async function send(row: Row, role: RoleName): Promise<Received> {
  const [method, template] = row.route.split(' ');
  const filled = template.replace(/:(\w+)/g, (_match, name: string) => {
    const value = row.params?.[name] ?? DEFAULT_PARAMS[name];
    if (!value) throw new Error(`no value for the path parameter ${name}`);
    return encodeURIComponent(value(role));
  });
  const url = filled + (row.query ? (row.query(role).startsWith('?') ? row.query(role) : `?${row.query(role)}`) : '');
  if (row.binary) {
    const cookie = cookieOf(role);
    const response = await fetch(`${fx.server.url}/api/v1${url}`, { method, headers: cookie ? { cookie } : {} });
    const bytes = new Uint8Array(await response.arrayBuffer());
    const text = response.ok ? '' : new TextDecoder().decode(bytes);
    return {
      status: response.status,
      headers: response.headers,
      body: response.ok ? undefined : JSON.parse(text || '{}'),
      text,
      bytes,
    };
  }
  const client = row.freshSession ? await freshClient(role) : clientOf(role);
  return client.request(method, url, row.body?.(role));
}

const label = (row: Row) => (row.variant ? `${row.route} (${row.variant})` : row.route);

/**
 * Every route of the running server, read from Fastify's route tree: `METHOD /path`, HEAD twins included. Routes
 * that name the same parameter differently share a node (`/:user|:id (GET, DELETE)`): each spelling is kept with
 * the methods registered under it.
 */
function registeredRoutes(app: FastifyInstance): string[] {
  const routes: string[] = [];
  const prefixes: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = line.match(/^((?:│ {3}| {4})*)[├└]── (.+?)(?: \(([A-Z, ]+)\))?$/);
    if (!match) continue;
    const depth = match[1].length / 4;
    const full = (depth > 0 ? prefixes[depth - 1] : '') + match[2];
    prefixes[depth] = full;
    prefixes.length = depth + 1;
    const spellings = full.includes('|')
      ? full
          .split('/')
          .reduce<string[]>(
            (paths, segment, i) => segment.split('|').flatMap((s) => (i === 0 ? [s] : paths.map((p) => `${p}/${s}`))),
            [''],
          )
      : [full];
    for (const method of match[3]?.split(', ') ?? []) {
      // A spelling is the route's own when the router, asked for it, names each parameter as the spelling does.
      const found = spellings.filter((url) => {
        const params = app.findRoute({ method: method as 'GET', url })?.params as Record<string, string> | undefined;
        return (
          spellings.length === 1 ||
          (params !== undefined && Object.entries(params).every(([name, value]) => value === `:${name}`))
        );
      });
      if (found.length === 0) throw new Error(`no spelling of ${full} has ${method}`);
      for (const url of found) routes.push(`${method} ${url}`);
    }
  }
  return routes;
}

// ——— Set-up: the application, its data, the accounts and what each holds ———

beforeAll(async () => {
  fx.server = await startTestServer({ admin: ROOT, ...GENEROUS_RATE_LIMITS });
  fx.owner = await signedIn(fx.server, ROOT);
  await createApplication(fx.owner, 'surveys', SURVEYS_YAML, 'surveys.yaml');
  for (const [reference, content] of [
    ['projects', readFileSync(path.join(fixtures, 'csv/surveys-projects.csv'), 'utf8')],
    ['sites', readFileSync(path.join(fixtures, 'csv/surveys-sites.csv'), 'utf8')],
    ['species', SPECIES_CSV],
  ]) {
    expectStatus(
      await uploadReference(fx.owner, 'surveys', reference, `${reference}.csv`, content),
      201,
      `${reference} upload`,
    );
  }
  fx.files = {
    A_P: await deposit(depositForm('alps', 'lac_blanc', '2024-06', ...COUNTS.A_P)),
    J: await deposit(depositForm('alps', 'lac_blanc', '2024-07', ...COUNTS.J)),
    U: await deposit(depositForm('alps', 'lac_blanc', '2024-08', 'alps;lac_blanc;lagopus;03/08/2024;2')),
    W: await deposit(
      periodForm(
        VERSION_NAMES.W,
        { project: 'alps', site: 'mont_joly' },
        W_DATASET.from.slice(0, 10),
        W_DATASET.to.slice(0, 10),
        COUNTS.W,
      ),
    ),
    B: await deposit(depositForm('pyrenees', 'mont_joly', '2024-06', ...COUNTS.B)),
    V: await deposit(depositForm('pyrenees', 'mont_joly', '2024-08', 'pyrenees;mont_joly;tichodroma;04/08/2024;6')),
  };
  for (const version of ['A_P', 'J', 'W', 'B'] as const) await publish(fx.files[version], true);

  const signedInRoles = ROLES.filter((role): role is SignedInRole => !isAnonymous(role));
  const made = await Promise.all(
    [...signedInRoles, 'target', 'grantee'].map((who) =>
      activeAccount(fx.server, newIdentity(who.replace(/_/g, '').toLowerCase())),
    ),
  );
  fx.accounts = Object.fromEntries(signedInRoles.map((role, i) => [role, made[i]])) as Record<SignedInRole, Account>;
  [fx.target, fx.grantee] = made.slice(signedInRoles.length);

  const restricted = (login: string, operation: string) => ({
    name: `${operation} on alps`,
    description: 'matrix role',
    usersId: [login],
    authorizationsWithRestriction: {
      counts: { operationTypes: [operation], requiredAuthorizations: { project: ALPS } },
    },
  });
  fx.extractionAuthorization = await authorize(EXTRACTION_A_P());
  await authorize(restricted(fx.accounts.depotA.login, 'depot'));
  await authorize(restricted(fx.accounts.publicationA.login, 'publication'));
  await authorize(restricted(fx.accounts.deleteA.login, 'delete'));
  GRANT_TO_GRANTEE.usersId = [fx.grantee.login];
  await grantApplicationRole(fx.owner, 'userManager', fx.accounts.userManager.login, 'surveys');
  await grantApplicationRole(fx.owner, 'applicationManager', fx.accounts.applicationManager.login, 'surveys');
  expectStatus(
    await fx.owner.put(
      `/authorization/applicationCreator?${qs({ userIdOrLogin: fx.accounts.creator.login, applicationPattern: 'surv.*' })}`,
    ),
    200,
    'creator',
  );
  expectStatus(
    await fx.owner.put(`/authorization/terrainAdmin?${qs({ userIdOrLogin: fx.accounts.admin.login })}`),
    200,
    'admin',
  );

  const sessions = await Promise.all(signedInRoles.map((role) => signedIn(fx.server, fx.accounts[role])));
  fx.cookies = Object.fromEntries(signedInRoles.map((role, i) => [role, sessions[i].cookieHeader])) as Record<
    SignedInRole,
    string
  >;
  await ensureOpenRequest();
  const backup = await fetch(`${fx.server.url}/api/v1/applications/surveys/upload-bundle?withData=true`, {
    headers: { cookie: fx.owner.cookieHeader },
  });
  if (backup.status !== 200) throw new Error(`backup: ${backup.status} ${await backup.text()}`);
  fx.backup = new Uint8Array(await backup.arrayBuffer());
  // A busy machine needs more than the default minute for all of it.
}, 240_000);

afterAll(async () => {
  await fx.server?.close();
});

/** Only while the public roles run: everyone may read species, and the counts of project pyrenees. */
const PUBLIC_READING = {
  async before() {
    fx.publicAuthorization = await authorize({
      name: 'public',
      description: 'public reading',
      usersId: ['_public_'],
      authorizationForAll: { species: ['extraction'] },
      authorizationsWithRestriction: {
        counts: { operationTypes: ['extraction'], requiredAuthorizations: { project: ['projectsKpyrenees'] } },
      },
    });
  },
  async after() {
    if (fx.publicAuthorization)
      expectStatus(
        await fx.owner.delete(`/applications/surveys/authorization/${fx.publicAuthorization}`),
        200,
        'public revocation',
      );
    fx.publicAuthorization = undefined;
  },
};
const ROLE_SETUP: Partial<Record<RoleName, { before(): Promise<void>; after(): Promise<void> }>> = {
  publicVisitor: PUBLIC_READING,
  publicOnly: PUBLIC_READING,
};

describe('the permission matrix', () => {
  it('has a row for every route under /api/v1, and none for a route that does not exist', () => {
    const app = fx.server.server.app;
    const registered = registeredRoutes(app);
    const underApi = registered.filter((r) => r.split(' ')[1].startsWith('/api/v1/'));
    // The tree was read right: every route it gives exists, and so does every route the OpenAPI document lists.
    for (const route of registered) {
      const [method, url] = route.split(' ');
      expect(app.hasRoute({ method: method as 'GET', url }), route).toBe(true);
    }
    const documented = Object.entries((app.swagger() as { paths: Record<string, object> }).paths).flatMap(
      ([url, operations]) =>
        Object.keys(operations).map((method) => `${method.toUpperCase()} ${url.replace(/\{(\w+)\}/g, ':$1')}`),
    );
    expect(documented.filter((route) => !underApi.includes(route))).toEqual([]);
    // HEAD routes are GET twins; every other route has its row.
    const heads = underApi.filter((r) => r.startsWith('HEAD '));
    expect(heads.filter((r) => !underApi.includes(r.replace(/^HEAD /, 'GET ')))).toEqual([]);
    const routes = [
      ...new Set(underApi.filter((r) => !r.startsWith('HEAD ')).map((r) => r.replace(' /api/v1/', ' /'))),
    ].sort();
    const inTable = [...new Set(MATRIX.map((row) => row.route))].sort();
    expect({
      withoutRow: routes.filter((r) => !inTable.includes(r)),
      notRegistered: inTable.filter((r) => !routes.includes(r)),
    }).toEqual({ withoutRow: [], notRegistered: [] });
    expect(
      MATRIX.map(label).filter((name, i, all) => all.indexOf(name) !== i),
      'rows named twice',
    ).toEqual([]);
  });

  ROLES.forEach((role, column) => {
    describe(role, () => {
      beforeAll(() => ROLE_SETUP[role]?.before());
      afterAll(() => ROLE_SETUP[role]?.after());

      it(
        'answers every route with the status of its column, and reads exactly what the role may see',
        { timeout: 90_000 },
        async () => {
          const wrong: string[] = [];
          for (const row of MATRIX) {
            const expected = row.expected[column];
            const accepted: readonly number[] = typeof expected === 'number' ? [expected] : expected;
            try {
              await row.before?.();
              const answer = await send(row, role);
              const refusal = row.refusals?.[role];
              if (!accepted.includes(answer.status)) {
                wrong.push(
                  `${label(row)}: expected ${accepted.join(' or ')}, got ${answer.status} ${answer.body?.code ?? ''}`.trim(),
                );
              } else if (refusal && answer.body?.code !== refusal) {
                wrong.push(`${label(row)}: refused with ${answer.body?.code}, expected ${refusal}`);
              } else if (
                answer.status < 300 &&
                (answer.headers.get('content-type') ?? '').includes('ndjson') &&
                /"type":"error"/.test(answer.text)
              ) {
                // A streamed call answers 200 before its work: the work itself must have gone through.
                wrong.push(`${label(row)}: ${answer.status} with an error event ${answer.text.slice(0, 300)}`);
              } else if (answer.status === 200 && row.read) {
                const got = sorted(row.read.got(answer, role));
                const want = sorted(row.read.want(role));
                if (JSON.stringify(got) !== JSON.stringify(want))
                  wrong.push(`${label(row)}: read ${JSON.stringify(got)}, may read ${JSON.stringify(want)}`);
              }
              await row.after?.(answer);
            } catch (error) {
              wrong.push(`${label(row)}: ${(error as Error).message}`);
            }
          }
          expect(wrong).toEqual([]);
        },
      );
    });
  });
});

// ——— A scope reference that is a tree: rights on a sub-tree and a period ———

/**
 * tests/fixtures/configurations/massifs.yaml: `places` is recursive (a place lies `within` another), so its
 * hierarchical keys are paths; `sightings` (no versioning) is scoped by place, with the day as time scope. The
 * Mont Blanc holds the Aiguilles; `mont_blanc_sud` shares the beginning of its key, not its path.
 */
const MASSIFS_YAML = new Uint8Array(readFileSync(path.join(fixtures, 'configurations/massifs.yaml')));
const PLACES_CSV = readFileSync(path.join(fixtures, 'csv/massifs-places.csv'), 'utf8');
const SIGHTINGS_HEADER = 'place;day;birds';
const SIGHTINGS = {
  /** Inside the Mont Blanc sub-tree, in June 2024. */
  granted: ['mont_blanc;05/06/2024;1', 'aiguilles;20/06/2024;2'],
  /** Inside the sub-tree, outside June. */
  otherMonth: ['aiguilles;15/07/2024;3'],
  /** Outside the sub-tree: its parent, a place whose key starts alike, a sibling. */
  elsewhere: ['alps;05/06/2024;5', 'mont_blanc_sud;05/06/2024;6', 'vanoise;05/06/2024;4'],
  /** Inside the sub-tree, without a day (the day is not required): in no period. */
  undated: ['aiguilles;;7'],
};
const ALL_SIGHTINGS = [...SIGHTINGS.granted, ...SIGHTINGS.otherMonth, ...SIGHTINGS.elsewhere, ...SIGHTINGS.undated];
const sightingKey = (line: string) =>
  line
    .split(';')
    .slice(0, 2)
    .map((part) => part || 'NULL_KEY')
    .join('__')
    .replace(/\//g, '_');
const sightingsForm = (lines: string[]) => csvForm('sightings.csv', `${SIGHTINGS_HEADER}\n${lines.join('\n')}\n`);

describe('rights on a scope sub-tree and a period (data without versioning)', () => {
  const tree = {} as {
    owner: ApiClient;
    reader: ApiClient;
    depositor: ApiClient;
    deleter: ApiClient;
    montBlanc: string;
    readerCookie: string;
  };

  async function sightingsOf(client: ApiClient) {
    const answer = await client.get(`/applications/massifs/data/sightings/json${q({ limit: 100 })}`);
    expect(answer.status, answer.text).toBe(200);
    return answer;
  }

  beforeAll(async () => {
    tree.owner = fx.owner;
    await createApplication(tree.owner, 'massifs', MASSIFS_YAML, 'massifs.yaml');
    expectStatus(await uploadReference(tree.owner, 'massifs', 'places', 'places.csv', PLACES_CSV), 201, 'places');
    expectStatus(
      await tree.owner.post('/applications/massifs/data/sightings', { body: sightingsForm(ALL_SIGHTINGS) }),
      201,
      'sightings',
    );
    const places = await tree.owner.get(`/applications/massifs/references/places${q({ limit: 100 })}`);
    tree.montBlanc = places.body.referenceValues.find(
      (row: { naturalKey: string }) => row.naturalKey === 'mont_blanc',
    ).hierarchicalKey;
    // A real path: the Aiguilles lie under the Mont Blanc, which lies under the Alps.
    expect(
      places.body.referenceValues.find((row: { naturalKey: string }) => row.naturalKey === 'aiguilles').hierarchicalKey,
    ).toBe(`${tree.montBlanc}.placesKaiguilles`);
    expect(tree.montBlanc).toBe('placesKalps.placesKmont_blanc');

    const grant = async (operation: string, login: string, timeScope?: object) =>
      expectStatus(
        await tree.owner.post('/applications/massifs/authorization', {
          json: {
            name: `${operation} on the Mont Blanc`,
            description: 'sub-tree',
            usersId: [login],
            authorizationsWithRestriction: {
              sightings: {
                operationTypes: [operation],
                requiredAuthorizations: { place: [tree.montBlanc] },
                ...(timeScope ? { timeScope } : {}),
              },
            },
          },
        }),
        201,
        `${operation} grant`,
      );
    const june = { fromDay: '2024-06-01', toDay: '2024-06-30' };
    const [reader, depositor, deleter] = await Promise.all(
      ['reader', 'depositor', 'deleter'].map((who) => activeAccount(fx.server, newIdentity(`massifs${who}`))),
    );
    await grant('extraction', reader.login, june);
    await grant('depot', depositor.login, june);
    await grant('delete', deleter.login);
    [tree.reader, tree.depositor, tree.deleter] = await Promise.all(
      [reader, depositor, deleter].map((account) => signedIn(fx.server, account)),
    );
    tree.readerCookie = tree.reader.cookieHeader;
  }, 120_000);

  it('give the reader exactly the rows under the node, in the period, in every read and export', async () => {
    const json = await sightingsOf(tree.reader);
    expect(sorted(jsonPage(json))).toEqual(sorted(jsonWant(SIGHTINGS.granted.map(sightingKey))));
    const birdsOver1 = await tree.reader.get(
      `/applications/massifs/data/sightings/json${q({ componentFilters: [{ componentKey: 'birds', intervalValues: { from: '2', to: '100' } }] })}`,
    );
    expect(sorted(jsonPage(birdsOver1))).toEqual(jsonWant([sightingKey(SIGHTINGS.granted[1])]));
    const csv = await tree.reader.get('/applications/massifs/data/sightings/csv');
    expect(csv.status).toBe(200);
    expect(sorted(csvLines(csv.text))).toEqual(sorted(SIGHTINGS.granted));
    const zip = await fetch(`${fx.server.url}/api/v1/applications/massifs/data/sightings/zip`, {
      headers: { cookie: tree.readerCookie },
    });
    const files = unzipText(new Uint8Array(await zip.arrayBuffer()));
    expect(Object.keys(files)).toEqual(['sightings.csv']);
    expect(sorted(csvLines(files['sightings.csv']))).toEqual(sorted(SIGHTINGS.granted));
    const synthesis = await tree.reader.get('/applications/massifs/synthesis/sightings');
    expect(synthesis.status).toBe(200);
    expect((synthesis.body.variables.birds as number[]).reduce((a, b) => a + b, 0)).toBe(SIGHTINGS.granted.length);
    // The whole month of June only: the first interval starts on the first granted day.
    expect(synthesis.body.from).toBe('2024-06-05T00:00:00');
    expect((await tree.reader.get('/applications/massifs/references/places')).status).toBe(403);
    // The manager reads every row.
    expect(sorted(jsonPage(await sightingsOf(tree.owner)))).toEqual(sorted(jsonWant(ALL_SIGHTINGS.map(sightingKey))));
  });

  it('let the depositor write under the node in the period only, refusing a whole file for one line outside', async () => {
    const before = jsonPage(await sightingsOf(tree.owner));
    for (const outside of [
      'aiguilles;16/07/2024;9',
      'mont_blanc_sud;06/06/2024;9',
      'alps;06/06/2024;9',
      'aiguilles;;9',
    ]) {
      const refused = await tree.depositor.post('/applications/massifs/data/sightings', {
        body: sightingsForm(['aiguilles;21/06/2024;9', outside]),
      });
      expect(refused.status, outside).toBe(400);
      expect(
        refused.body.errors.map((e: { lineNumber: number; code: string }) => [e.lineNumber, e.code]),
        outside,
      ).toEqual([[3, 'norightfordepot']]);
    }
    expect(jsonPage(await sightingsOf(tree.owner))).toEqual(before);
    const accepted = await tree.depositor.post('/applications/massifs/data/sightings', {
      body: sightingsForm(['aiguilles;21/06/2024;9']),
    });
    expect(accepted.status, accepted.text).toBe(201);
    // The entry's count is for whole readers: the depositor is told the rows they read, not every row stored.
    const theirs = await tree.depositor.get(`/applications/massifs/data/sightings/json${q({ limit: 0 })}`);
    expect(accepted.body.totalRows).toBe(theirs.status === 200 ? theirs.body.totalRows : 0);
    expect(accepted.body.totalRows).toBeLessThan((await sightingsOf(tree.owner)).body.totalRows);
    expect(sorted(jsonPage(await sightingsOf(tree.reader)))).toEqual(
      sorted(jsonWant([...SIGHTINGS.granted, 'aiguilles;21/06/2024;9'].map(sightingKey))),
    );
  });

  it('refuse the depositor a line whose natural key names a stored row outside their part, small file or large', async () => {
    // Sightings keyed by their day and count: a line of the Aiguilles names the Vanoise's row of the same day and count.
    const yaml = new TextDecoder()
      .decode(MASSIFS_YAML)
      .replace('OA_name: massifs', 'OA_name: massifdays')
      .replace('OA_naturalKey: [place, day]', 'OA_naturalKey: [day, birds]');
    await createApplication(tree.owner, 'massifdays', yaml, 'massifdays.yaml');
    expectStatus(await uploadReference(tree.owner, 'massifdays', 'places', 'places.csv', PLACES_CSV), 201, 'places');
    const sightings = (client: ApiClient, lines: string[]) =>
      client.post('/applications/massifdays/data/sightings', { body: sightingsForm(lines) });
    expectStatus(await sightings(tree.owner, ['vanoise;05/06/2024;4', 'aiguilles;20/06/2024;2']), 201, 'sightings');
    const login = (await tree.depositor.get('/me')).body.login as string;
    expectStatus(
      await tree.owner.post('/applications/massifdays/authorization', {
        json: {
          name: 'depot on the Mont Blanc in June',
          usersId: [login],
          authorizationsWithRestriction: {
            sightings: {
              operationTypes: ['depot'],
              requiredAuthorizations: { place: [tree.montBlanc] },
              timeScope: { fromDay: '2024-06-01', toDay: '2024-06-30' },
            },
          },
        },
      }),
      201,
      'grant',
    );
    const rows = async () =>
      (await tree.owner.get(`/applications/massifdays/data/sightings/csv`)).text.split('\n').slice(1).sort();
    const before = await rows();
    // One transaction at the end, and a write in steps (more rows than one short transaction holds).
    const own = Array.from({ length: 1_500 }, (_, i) => `aiguilles;21/06/2024;${1_000 + i}`);
    for (const lines of [
      ['aiguilles;20/06/2024;2', 'aiguilles;05/06/2024;4'],
      [...own, 'aiguilles;05/06/2024;4'],
    ]) {
      const moved = await sightings(tree.depositor, lines);
      expect(moved.status, moved.text.slice(0, 300)).toBe(400);
      expect(moved.body.errors.map((e: { lineNumber: number; code: string }) => [e.lineNumber, e.code])).toEqual([
        [lines.length + 1, 'norightfordepot'],
      ]);
      expect(await rows()).toEqual(before);
    }
    // Their own row is theirs to replace.
    expectStatus(await sightings(tree.depositor, ['aiguilles;20/06/2024;2']), 201, 'own row');
    expectStatus(await sightings(tree.depositor, own), 201, 'own rows');
    expect((await rows()).filter((line) => line.includes('vanoise'))).toEqual(
      before.filter((line) => line.includes('vanoise')),
    );
  });

  it('let the deleter delete under the node only, refusing a deletion that names one row outside', async () => {
    const outside = await tree.deleter.delete(
      `/applications/massifs/data/sightings${q({ naturalKeys: [sightingKey('aiguilles;21/06/2024;9'), sightingKey(SIGHTINGS.elsewhere[1])] })}`,
    );
    expect(outside.status).toBe(403);
    // A key that names no row is refused alike: a deletion must not tell which rows exist outside the deleter's part.
    const nowhere = await tree.deleter.delete(
      `/applications/massifs/data/sightings${q({ naturalKeys: [sightingKey('vanoise;06/06/2024;1')] })}`,
    );
    expect([nowhere.status, nowhere.body.code]).toEqual([outside.status, outside.body.code]);
    const elsewhere = await tree.deleter.delete(
      `/applications/massifs/data/sightings${q({ naturalKeys: [sightingKey(SIGHTINGS.elsewhere[2])] })}`,
    );
    expect([elsewhere.status, elsewhere.body.code]).toEqual([outside.status, outside.body.code]);
    // Whoever may delete every row is told there was nothing to delete.
    const gone = await tree.owner.delete(
      `/applications/massifs/data/sightings${q({ naturalKeys: [sightingKey('vanoise;06/06/2024;1')] })}`,
    );
    expect([gone.status, gone.body.deleted]).toEqual([200, []]);
    const inside = await tree.deleter.delete(
      `/applications/massifs/data/sightings${q({ naturalKeys: [sightingKey('aiguilles;21/06/2024;9'), sightingKey(SIGHTINGS.otherMonth[0])] })}`,
    );
    expect(inside.status, inside.text).toBe(200);
    expect(inside.body.deleted).toHaveLength(2);
    const left = ALL_SIGHTINGS.filter((line) => line !== SIGHTINGS.otherMonth[0]);
    expect(sorted(jsonPage(await sightingsOf(tree.owner)))).toEqual(sorted(jsonWant(left.map(sightingKey))));
  });
});
