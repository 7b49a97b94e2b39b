/**
 * The audit's form (decisions, *A form's patterns share a budget of steps*): a configuration may give form fields
 * a pattern its program accepts (`[ab]*a[ab]{1500}`) whose DFA overflows its cache on a/b text, about a thousand
 * steps a character. One rights request of 300 such fields, 2,000 characters each (603 KB, under the body limit),
 * held the request thread 34.8 s, and every other user as long. The form's patterns now share one budget of steps:
 * the request is refused at once, the others answered meanwhile, and the refusal does not send the values back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeAccount, signedIn } from './accountFixtures.ts';
import type { ApiClient } from './apiClient.ts';
import { createApplication, startDataServer, type DataServer } from './dataFixtures.ts';

const HOSTILE = '[ab]*a[ab]{1500}';
const FIELDS = 300;
const VALUE_LENGTH = 2_000;
/** Far below the 35 s the check took, far above an HTTP round trip on a busy 2-core machine. */
const QUICKLY_MS = 2_000;

const fieldNames = Array.from({ length: FIELDS }, (_, index) => `f${index}`);
const formFields = fieldNames
  .map(
    (name) =>
      `      ${name}:\n        OA_required: true\n        OA_checker: {OA_name: OA_string, OA_params: {OA_pattern: "${HOSTILE}"}}`,
  )
  .join('\n');

const configuration = `OA_version: 2.0.1
OA_application: {OA_name: patterned, OA_version: 1.0.0}
OA_rightsRequest:
  OA_formFields:
${formFields.replaceAll('\n      ', '\n    ').replace(/^ {6}/, '    ')}
OA_additionalFiles:
  notes:
    OA_formFields:
${formFields}
OA_data:
  words:
    OA_naturalKey: [code]
    OA_basicComponents:
      code: null
`;

let seed = 11;
const bit = () => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return (seed >> 16) & 1;
};
/** Random a/b text: the DFA meets a new state at almost every character. */
const ab = (length: number) => Array.from({ length }, () => (bit() ? 'a' : 'b')).join('');
const hostileValues = () => Object.fromEntries(fieldNames.map((name) => [name, ab(VALUE_LENGTH)]));

let data: DataServer;
let user: ApiClient;
let other: ApiClient;

beforeAll(async () => {
  data = await startDataServer();
  await createApplication(data.admin, 'patterned', configuration);
  user = await signedIn(data.server, await activeAccount(data.server));
  other = await signedIn(data.server, await activeAccount(data.server));
  // A first request warms the routes up: not what is timed.
  expect((await other.get('/me')).status).toBe(200);
});
afterAll(() => data?.server.close());

/**
 * Sends `attack` and, until it is answered, GET /me as another user one after the other: how long the attack took
 * and the longest wait of a /me, each from when it was sent.
 */
async function whileAttacking<T extends { status: number }>(attack: () => Promise<T>) {
  const started = performance.now();
  let answered = false;
  const attacked = attack().then((answer) => {
    answered = true;
    return { answer, ms: performance.now() - started };
  });
  const waits: number[] = [];
  const statuses = new Set<number>();
  do {
    const sent = performance.now();
    statuses.add((await other.get('/me')).status);
    waits.push(performance.now() - sent);
  } while (!answered);
  const { answer, ms } = await attacked;
  return { answer, ms, meStatuses: [...statuses], meCount: waits.length, meMs: Math.max(...waits) };
}

describe('a form whose patterns would hold the request thread', () => {
  it('refuses the audit’s rights request at once, and another user’s /me is answered meanwhile', async () => {
    const json = {
      id: null,
      fields: hostileValues(),
      rightsRequest: { authorizationsWithRestriction: { words: { operationTypes: ['extraction'] } } },
      comment: 'Reading the words.',
    };
    expect(JSON.stringify(json).length).toBeGreaterThan(600_000);
    const { answer, ms, meStatuses, meCount, meMs } = await whileAttacking(() =>
      user.post('/applications/patterned/rightsRequest', { json }),
    );
    expect(answer.status, answer.text.slice(0, 500)).toBe(400);
    expect(answer.body).toMatchObject({ code: 'FORM_CHECK_BUDGET_EXCEEDED', params: { field: 'f0' } });
    expect(answer.text.length).toBeLessThan(2_000);
    expect(meStatuses).toEqual([200]);
    console.info(
      `rights request refused in ${ms.toFixed(0)} ms; ${meCount} /me meanwhile, the slowest in ${meMs.toFixed(0)} ms`,
    );
    expect(ms).toBeLessThan(QUICKLY_MS);
    expect(meMs).toBeLessThan(QUICKLY_MS);
  });

  it('names the first refused values, cut short, and counts them', async () => {
    // Values without an `a` are refused at their first character: cheap, and every field is refused.
    const fields = Object.fromEntries(fieldNames.map((name) => [name, 'b'.repeat(VALUE_LENGTH)]));
    const answer = await user.post('/applications/patterned/rightsRequest', {
      json: {
        id: null,
        fields,
        rightsRequest: { authorizationsWithRestriction: { words: { operationTypes: ['extraction'] } } },
        comment: 'Reading the words.',
      },
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      code: 'INVALID_RIGHTS_REQUEST_FIELD',
      params: { field: 'f0', problem: 'patternNotMatchedWithComponent', problemCount: FIELDS },
    });
    expect(answer.body.params.problems).toHaveLength(20);
    expect(answer.body.params.problemParams.value).toBe(`${'b'.repeat(100)}…`);
    expect(answer.text.length).toBeLessThan(10_000);
  });

  it('refuses the same values in an additional file’s form at once', async () => {
    // A multipart form's params hold 64 KB: 30 of the values (the other fields are left empty).
    const fields = Object.fromEntries(Object.entries(hostileValues()).slice(0, 30));
    const form = new FormData();
    form.append(
      'params',
      JSON.stringify({ id: null, fileName: 'note.pdf', comment: 'A note', fields, forApplication: true }),
    );
    form.append('file', new Blob([new TextEncoder().encode('%PDF-1.4\n%%EOF\n')]), 'note.pdf');
    const { answer, ms, meStatuses, meCount, meMs } = await whileAttacking(() =>
      data.admin.post('/applications/patterned/additionalFiles/notes', { body: form }),
    );
    expect(answer.status, answer.text.slice(0, 500)).toBe(400);
    expect(answer.body).toMatchObject({ code: 'FORM_CHECK_BUDGET_EXCEEDED', params: { field: 'f0' } });
    expect(meStatuses).toEqual([200]);
    console.info(
      `additional file refused in ${ms.toFixed(0)} ms; ${meCount} /me meanwhile, the slowest in ${meMs.toFixed(0)} ms`,
    );
    expect(ms).toBeLessThan(QUICKLY_MS);
    expect(meMs).toBeLessThan(QUICKLY_MS);
  });
});
