import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_REPORTED_ERRORS } from '../../server/services/ingest.ts';
import { activeAccount, newIdentity, signedIn } from './accountFixtures.ts';
import type { ApiClient } from './apiClient.ts';
import { createObservatory, csvForm, type DataServer, q, startDataServer } from './dataFixtures.ts';

/**
 * A depositor of part of a data type without versioning sends a file whose lines lie outside their rights: the
 * file is refused whole, its refusal lists the first `MAX_REPORTED_ERRORS` (1,000) lines in line order and counts
 * every one, `truncated` saying whether some were left out. Files of 1,000 and 1,001 lines outside (uploads: the
 * refusal is what an upload answers; a few thousand short lines).
 */
const APP = '/applications/observatory';
let data: DataServer;
let depositor: ApiClient;

beforeAll(async () => {
  data = await startDataServer();
  await createObservatory(data.admin);
  const account = await activeAccount(data.server, newIdentity('depositor'));
  const granted = await data.admin.post(`${APP}/authorization`, {
    json: {
      name: 'depot at Anterne',
      usersId: [account.login],
      authorizationsWithRestriction: {
        readings: { operationTypes: ['depot'], requiredAuthorizations: { station: ['stationsKanterne'] } },
      },
    },
  });
  expect(granted.status, granted.text).toBe(201);
  depositor = await signedIn(data.server, account);
}, 120_000);
afterAll(() => data?.server.close());

/** A reading a day from 2001 on, at the given station. */
const day = (i: number) => new Date(Date.UTC(2001, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
const reading = (station: string, i: number) => `${station};${day(i).split('-').reverse().join('/')};${i};`;

describe('a depositor’s lines outside their rights', () => {
  it.each([
    [MAX_REPORTED_ERRORS, false],
    [MAX_REPORTED_ERRORS + 1, true],
    [MAX_REPORTED_ERRORS + 500, true],
    // Past twice the list, the server forgets the later refusals as it reads, counting them.
    [2 * MAX_REPORTED_ERRORS + 600, true],
  ])('%i lines outside: every one counted, the first 1,000 listed, truncated %s', async (outside, truncated) => {
    // Lines at Anterne (theirs) between lines at Chamonix (not theirs): the refused lines are every other one.
    const lines = Array.from({ length: outside }, (_, i) => [reading('anterne', i), reading('chamonix', i)]).flat();
    const answer = await depositor.post(`${APP}/data/readings`, {
      body: csvForm('readings.csv', `station;day;value;note\n${lines.join('\n')}\n`),
    });
    expect(answer.status, answer.text.slice(0, 500)).toBe(400);
    expect(answer.body).toMatchObject({ code: 'INVALID_CSV', params: { errorCount: outside, truncated } });
    const errors = answer.body.errors as Array<{ lineNumber: number; code: string }>;
    expect(errors).toHaveLength(Math.min(outside, MAX_REPORTED_ERRORS));
    expect(errors.every((error) => error.code === 'norightfordepot')).toBe(true);
    // Line 1 is the header, the first Chamonix line the third.
    expect(errors.map((error) => error.lineNumber)).toEqual(errors.map((_, i) => 2 * i + 3));
    // Nothing written.
    const stored = await data.admin.get(`${APP}/data/readings/json${q({ offset: 0, limit: 1 })}`);
    expect(stored.body.totalRows).toBe(0);
  });
});
