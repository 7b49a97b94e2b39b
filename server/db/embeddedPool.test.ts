import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PostgresPool } from 'kysely';
import { asBulkWork } from './bulkWork.ts';
import { openEmbeddedPool } from './embeddedPool.ts';

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

  it('lends its session to page requests before bulk work that waited less long', async () => {
    const holder = await pool.connect();
    const order: string[] = [];
    const bulk = asBulkWork(async () => {
      await run('select 1');
      order.push('bulk');
    });
    const page = run('select 1').then(() => order.push('page'));
    holder.release();
    await Promise.all([bulk, page]);
    expect(order).toEqual(['page', 'bulk']);
  });

  it('lends it to bulk work first once it has waited long enough behind pages', async () => {
    const holder = await pool.connect();
    const order: string[] = [];
    const bulk = asBulkWork(async () => {
      await run('select 1');
      order.push('bulk');
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const page = run('select 1').then(() => order.push('page'));
    holder.release();
    await Promise.all([bulk, page]);
    expect(order).toEqual(['bulk', 'page']);
  });

  it('keeps the statements it runs prepared, but plans filters on component values each time', async () => {
    await run('create table things (id int primary key, values jsonb)');
    await run('insert into things values ($1, $2)', [1, { size: 3 }]);
    expect((await run('select id from things where id = $1', [1])).rows).toEqual([{ id: 1 }]);
    expect((await run("select id from things where values -> 'size' = $1::jsonb", ['3'])).rows).toEqual([{ id: 1 }]);
    const prepared = (await run('select statement from pg_prepared_statements')).rows.map((row) => row.statement);
    expect(prepared).toContain('select id from things where id = $1');
    expect(prepared).toContain('insert into things values ($1, $2)');
    expect(prepared.some((statement) => String(statement).includes('values ->'))).toBe(false);
  });

  it('answers a failed statement as an error, and the session serves the next one', async () => {
    await expect(run('select 1 / $1::int', [0])).rejects.toThrow(/division by zero/);
    expect((await run('select 1 / $1::int as one', [1])).rows).toEqual([{ one: 1 }]);
  });
});
