/**
 * Issue 22, "never freeze": a checker pattern that makes a backtracking engine run for hours on a short text.
 * `(a+)+` on 40 `a`s and a `!` took JavaScript's RegExp about 2^40 steps: a rights request (any signed-in user may
 * send one) or a CSV cell held the server's only thread. Terrain's engine is linear: both answer at once, the
 * server stays responsive, and a configuration whose pattern would need backtracking is refused where the
 * pattern is written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeAccount, signedIn } from './accountFixtures.ts';
import { streamEvents } from './applicationFixtures.ts';
import { createApplication, csvForm, startDataServer, uploadReference, type DataServer } from './dataFixtures.ts';

const HOSTILE = '(a+)+';
const ALMOST = `${'a'.repeat(40)}!`;
/** Far below what one backtracking match of ALMOST takes, far above an HTTP round trip on a busy machine. */
const QUICKLY_MS = 2_000;

const configuration = (pattern: string, formPattern = pattern) => `OA_version: 2.0.1
OA_application: {OA_name: hostile, OA_version: 1.0.0}
OA_rightsRequest:
  OA_formFields:
    motto:
      OA_required: true
      OA_checker: {OA_name: OA_string, OA_params: {OA_pattern: "${formPattern}"}}
OA_data:
  words:
    OA_naturalKey: [code]
    OA_basicComponents:
      code: null
      sound:
        OA_checker: {OA_name: OA_string, OA_params: {OA_pattern: "${pattern}"}}
`;

let data: DataServer;

beforeAll(async () => {
  data = await startDataServer();
  await createApplication(data.admin, 'hostile', configuration(HOSTILE));
  // The first file starts the checking worker (its modules load once): not what is timed here.
  expect((await uploadReference(data.admin, 'hostile', 'words', 'words.csv', 'code;sound\nw0;aaaa\n')).status).toBe(
    201,
  );
});
afterAll(() => data?.server.close());

/** The answer of `send` and how long it took. */
async function timed<T>(send: () => Promise<T>): Promise<{ answer: T; ms: number }> {
  const started = performance.now();
  const answer = await send();
  return { answer, ms: performance.now() - started };
}

describe('a pattern that backtracking engines cannot finish', () => {
  it('checks a CSV cell at once: the hostile cell is refused, the server answers the next request', async () => {
    const { answer, ms } = await timed(() =>
      uploadReference(data.admin, 'hostile', 'words', 'words.csv', `code;sound\nw1;aaaa\nw2;${ALMOST}\n`),
    );
    expect(ms).toBeLessThan(QUICKLY_MS);
    expect(answer.status, answer.text).toBe(400);
    expect(answer.body.errors).toEqual([
      expect.objectContaining({
        lineNumber: 3,
        code: 'patternNotMatchedWithComponent',
        params: expect.objectContaining({ value: ALMOST, pattern: HOSTILE }),
      }),
    ]);
    const accepted = await uploadReference(
      data.admin,
      'hostile',
      'words',
      'words.csv',
      `code;sound\nw1;aaaa\nw2;${'a'.repeat(5_000)}\n`,
    );
    expect(accepted.status, accepted.text).toBe(201);
  });

  it('checks a rights-request field at once, for any signed-in user', async () => {
    const user = await signedIn(data.server, await activeAccount(data.server));
    const ask = (motto: string) =>
      user.post('/applications/hostile/rightsRequest', {
        json: {
          id: null,
          fields: { motto },
          rightsRequest: { authorizationsWithRestriction: { words: { operationTypes: ['extraction'] } } },
          comment: 'Listening to the words.',
        },
      });
    const { answer, ms } = await timed(() => ask(ALMOST));
    expect(ms).toBeLessThan(QUICKLY_MS);
    expect(answer.status, answer.text).toBe(400);
    expect(answer.body).toMatchObject({
      code: 'INVALID_RIGHTS_REQUEST_FIELD',
      params: { field: 'motto', problem: 'patternNotMatchedWithComponent' },
    });
    const sent = await ask('a'.repeat(1_000));
    expect(sent.status, sent.text).toBe(201);
  });
});

describe('a configuration whose pattern needs backtracking', () => {
  it('is refused when tested, at the pattern, for checkers and form fields alike', async () => {
    const tested = await data.admin.post('/validate-configuration', {
      body: csvForm('hostile.yaml', configuration('(a)\\\\1', '(?=a)a')),
    });
    expect(tested.status, tested.text).toBe(200);
    const errors = streamEvents(tested.text)
      .filter((event) => event.type === 'error')
      .map((event) => event.result);
    expect(errors).toEqual([
      expect.objectContaining({
        code: 'UNKNOWN',
        path: 'OA_data > words > OA_basicComponents > sound > OA_checker > OA_params > OA_pattern',
        params: expect.objectContaining({
          reason: 'invalidRegularExpression',
          pattern: '(a)\\1',
          message: expect.stringContaining('back-reference needs a backtracking engine'),
        }),
      }),
      expect.objectContaining({
        code: 'UNKNOWN',
        path: 'OA_rightsRequest > OA_formFields > motto > OA_checker > OA_params > OA_pattern',
        params: expect.objectContaining({
          reason: 'invalidRegularExpression',
          pattern: '(?=a)a',
          message: expect.stringContaining('look-ahead needs a backtracking engine'),
        }),
      }),
    ]);
  });
});
