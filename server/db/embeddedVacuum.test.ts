import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { vacuumEmbeddedTables } from './embeddedVacuum.ts';
import { migratedTestDatabase } from './migratedDatabase.testing.ts';

describe('vacuuming the embedded database', () => {
  const database = migratedTestDatabase();

  const sizeOf = async (table: string) =>
    Number(
      (await sql<{ size: number }>`select pg_relation_size(${table}) as size`.execute(database().db)).rows[0].size,
    );

  /** Kept answers come and go, as they do every day: 2,000 inserted, then deleted. */
  async function churn() {
    await sql`
      insert into idempotency_keys (scope, key, method, path, status, locked_until, response_status, response_body, expires_at)
      select 'anonymous', 'k' || g || '-' || random(), 'POST', '/x', 'done', now(), 200, convert_to(repeat('b', 300), 'UTF8'), now()
      from generate_series(1, 2000) g`.execute(database().db);
    await sql`delete from idempotency_keys where scope = 'anonymous'`.execute(database().db);
  }

  it('vacuums every table of the schema, so the space of deleted rows is used again, then checkpoints', async () => {
    // Answers still kept stay through it all.
    await sql`
      insert into idempotency_keys (scope, key, method, path, status, locked_until, expires_at)
      select 'kept', 'k' || g, 'POST', '/x', 'done', now(), now() + interval '1 day' from generate_series(1, 200) g`.execute(
      database().db,
    );
    await churn();
    const redo = async () =>
      (await sql<{ lsn: string }>`select redo_lsn::text as lsn from pg_control_checkpoint()`.execute(database().db))
        .rows[0].lsn;
    const before = await redo();
    const vacuumed = await vacuumEmbeddedTables(database().db);
    // A checkpoint moves the point the log would be replayed from past what was written before it.
    expect(
      (
        await sql<{ moved: boolean }>`select ${await redo()}::pg_lsn > ${before}::pg_lsn as moved`.execute(
          database().db,
        )
      ).rows[0].moved,
    ).toBe(true);
    expect(vacuumed).toContain('idempotency_keys');
    expect(vacuumed).toContain('data_rows');
    const afterOneDay = await sizeOf('idempotency_keys');
    expect(afterOneDay).toBeGreaterThan(0);
    for (let round = 0; round < 5; round += 1) {
      await churn();
      await vacuumEmbeddedTables(database().db);
    }
    // Without a vacuum between rounds the table grows by a round's size each time (six times as large here).
    expect(await sizeOf('idempotency_keys')).toBeLessThanOrEqual(afterOneDay * 1.5);
    const never = await sql<{
      name: string;
    }>`select relname as name from pg_stat_user_tables where schemaname = 'public' and last_vacuum is null`.execute(
      database().db,
    );
    expect(never.rows).toEqual([]);
  }, 120_000);
});
