import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PostgresPool } from 'kysely';
import { openEmbeddedPool } from './embeddedPool.ts';
import { asBulkWork, inArrivalOrder } from './sessionOrder.ts';

describe('the embedded pool', () => {
  let embedded: Awaited<ReturnType<typeof openEmbeddedPool>>;
  let pool: PostgresPool;
  beforeAll(async () => {
    embedded = await openEmbeddedPool('memory://');
    pool = embedded.pool;
  }, 60_000);
  afterAll(() => embedded?.close());

  const run = async (text: string, values: unknown[] = []) => {
    const client = await pool.connect();
    try {
      return (await client.query(text, values)) as unknown as { rows: Array<Record<string, unknown>> };
    } finally {
      client.release();
    }
  };

  it('keeps the statements it runs prepared, but not filters on component values nor bulk writes', async () => {
    await run('create table things (id int primary key, values jsonb)');
    await run('insert into things values ($1, $2)', [1, { size: 3 }]);
    expect((await run('select id from things where id = $1', [1])).rows).toEqual([{ id: 1 }]);
    expect((await run("select id from things where values -> 'size' = $1::jsonb", ['3'])).rows).toEqual([{ id: 1 }]);
    const batch = JSON.stringify(
      Array.from({ length: 1000 }, (_, index) => ({ id: index + 2, values: { size: index } })),
    );
    await run('insert into things select * from json_to_recordset($1::json) as t(id int, values jsonb)', [batch]);
    const prepared = (await run('select statement from pg_prepared_statements')).rows.map((row) => row.statement);
    expect(prepared).toContain('select id from things where id = $1');
    expect(prepared).toContain('insert into things values ($1, $2)');
    expect(prepared.some((statement) => String(statement).includes('values ->'))).toBe(false);
    expect(prepared.some((statement) => String(statement).includes('json_to_recordset'))).toBe(false);
  });

  it('runs with 64 MB of shared buffers, not the 128 MB PostgreSQL starts with', async () => {
    expect((await run('show shared_buffers')).rows).toEqual([{ shared_buffers: '64MB' }]);
  });

  it('answers a failed statement as an error, and the session serves the next one', async () => {
    await expect(run('select 1 / $1::int', [0])).rejects.toThrow(/division by zero/);
    expect((await run('select 1 / $1::int as one', [1])).rows).toEqual([{ one: 1 }]);
  });

  it('lends the session to requests in the order they arrived, long work in the order it asks', async () => {
    const served: string[] = [];
    const ask = (label: string) => run('select 1').then(() => served.push(label));
    const now = performance.now();
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let heldLong!: () => void;
    const held = new Promise<void>((resolve) => (heldLong = resolve));
    // A request that arrived long ago and has already held the session for a while (an export, say).
    const longWork = inArrivalOrder(now - 5_000, async () => {
      const client = await pool.connect();
      await new Promise((resolve) => setTimeout(resolve, 210));
      client.release();
      heldLong();
      await gate;
      return ask('held the session 210 ms');
    });
    await held;
    const holder = await pool.connect();
    const asked = [
      ask('no request'),
      inArrivalOrder(now - 200, () => ask('arrived 200 ms ago')),
      asBulkWork(() => ask('an upload')),
    ];
    open();
    await new Promise((resolve) => setTimeout(resolve, 20));
    asked.push(inArrivalOrder(now - 500, () => ask('arrived 500 ms ago')));
    holder.release();
    await Promise.all([...asked, longWork]);
    expect(served).toEqual([
      'arrived 500 ms ago',
      'arrived 200 ms ago',
      'no request',
      'an upload',
      'held the session 210 ms',
    ]);
  });
});
