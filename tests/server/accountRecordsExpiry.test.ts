import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetEndedAccountRecords } from '../../server/services/accountRecordsExpiry.ts';
import { activeAccount } from './accountFixtures.ts';
import { startTestServer, type TestServer } from './harness.ts';

/**
 * Sessions, keys and counters that can no longer matter are deleted by the hourly housekeeping, a day after their end,
 * at real size (a script signing in and failing in a loop); those still in use are kept.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const WINDOW_SECONDS = 900;
const SCRIPTED = 6_001;
const daysAgo = (days: number) => sql<Date>`now() - make_interval(days => ${days})`;

describe('the housekeeping of accounts', () => {
  it('forgets ended sessions, spent keys and past counters, and keeps what is still in use', async () => {
    const db = server.server.ctx.db;
    const account = await activeAccount(server);
    const user = await db.selectFrom('users').select('id').where('login', '=', account.login).executeTakeFirstOrThrow();
    const session = (ended: 'expired' | 'revoked' | 'live') => ({
      id: randomUUID(),
      user_id: user.id,
      expires_at: ended === 'expired' ? daysAgo(3) : daysAgo(-1),
      revoked_at: ended === 'revoked' ? daysAgo(2) : null,
    });
    const sessions = [
      ...Array.from({ length: SCRIPTED }, (_, i) => session(i % 2 ? 'expired' : 'revoked')),
      session('live'),
    ];
    for (let start = 0; start < sessions.length; start += 500)
      await db
        .insertInto('sessions')
        .values(sessions.slice(start, start + 500))
        .execute();
    const key = (spent: boolean) => ({
      id: randomUUID(),
      user_id: user.id,
      purpose: 'password' as const,
      key_hash: randomUUID(),
      target_email: account.email,
      expires_at: spent ? daysAgo(5) : daysAgo(-1),
      used_at: null,
    });
    await db
      .insertInto('verification_keys')
      .values([key(true), key(false)])
      .execute();
    const failures = Array.from({ length: SCRIPTED }, (_, i) => ({
      bucket: `pair:${JSON.stringify([`nobody${i}`, '203.0.113.9'])}`,
      failures: 1,
      window_start: daysAgo(3),
      last_failure_at: daysAgo(3),
    }));
    for (let start = 0; start < failures.length; start += 500)
      await db
        .insertInto('sign_in_failures')
        .values(failures.slice(start, start + 500))
        .execute();
    await db
      .insertInto('sign_in_failures')
      .values({
        bucket: 'pair:["recent","203.0.113.9"]',
        failures: 4,
        window_start: daysAgo(0),
        last_failure_at: daysAgo(0),
      })
      .execute();
    await db
      .insertInto('rate_limits')
      .values([
        { bucket: 'register:203.0.113.1', window_start: daysAgo(3), count: 50 },
        { bucket: 'register:203.0.113.2', window_start: daysAgo(0), count: 5 },
      ])
      .execute();

    const forgotten = await forgetEndedAccountRecords(db, WINDOW_SECONDS);
    expect(forgotten).toEqual({ sessions: SCRIPTED, keys: 1, counters: SCRIPTED + 1 });
    const left = async (table: 'sessions' | 'verification_keys') =>
      (await db.selectFrom(table).select('id').where('user_id', '=', user.id).execute()).length;
    // The live session, the key still valid, and the activation key spent just now (kept a day).
    expect([await left('sessions'), await left('verification_keys')]).toEqual([1, 2]);
    expect(
      (await db.selectFrom('sign_in_failures').select('bucket').where('bucket', 'like', 'pair:%').execute()).map(
        (row) => row.bucket,
      ),
    ).toEqual(['pair:["recent","203.0.113.9"]']);
    expect(
      (
        await db.selectFrom('rate_limits').select('bucket').where('bucket', 'like', 'register:203.0.113.%').execute()
      ).map((row) => row.bucket),
    ).toEqual(['register:203.0.113.2']);
  }, 120_000);
});
