/**
 * The column texts a batch of rows is written with (rowColumns.ts) read back by the database as they were meant,
 * on the engine under test: every character a cell, a key or a period may hold, quotes, backslashes, braces,
 * commas, line breaks and the word NULL included.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowColumnsSource } from '../../server/services/dataRows.ts';
import { columnsOf, type StoredFields } from '../../server/workers/rowColumns.ts';
import { timeOrderedId } from '../../server/workers/timeOrderedId.ts';
import { startTestServer, type TestServer } from './harness.ts';

const AWKWARD = [
  '',
  'NULL',
  'null',
  ' leading and trailing ',
  'a "quoted" word',
  'back\\slash \\" and \\\\ two',
  '{braces},commas,"both"}',
  'line\nbreak\r\nand\ttab',
  'accents éàü, ß, 日本語, emoji 🌿',
  '\u2028\u2029 separators',
  'control \u0001\u001f',
];

describe('row columns', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('are read back by the database exactly as the rows were, whatever their characters, at a batch of 2,000', async () => {
    const rows: StoredFields[] = Array.from({ length: 2000 }, (_, index) => {
      const text = AWKWARD[index % AWKWARD.length];
      return {
        id: timeOrderedId(),
        naturalKey: `${text}${index}`,
        hierarchicalKey: `parent.${text}${index}`,
        values: { label: text, nested: { list: [text, index], empty: '' }, [text]: 'as a key' },
        refs: index % 3 === 0 ? [] : [text, `other ${index}`],
        lineNumber: index + 2,
        period: index % 2 === 0 ? { from: '2020-01-01T00:00:00', to: '2021-06-30T12:30:00' } : undefined,
      };
    });
    const read = await sql<{
      id: string;
      nk: string;
      hk: string;
      v: unknown;
      r: string[];
      ln: number;
      ps: Date | null;
      pe: Date | null;
    }>`select * from ${rowColumnsSource(columnsOf(rows))}`.execute(server.server.ctx.db);
    expect(read.rows).toHaveLength(rows.length);
    read.rows.forEach((back, index) => {
      const row = rows[index];
      expect(back.id).toBe(row.id);
      expect(back.nk).toBe(row.naturalKey);
      expect(back.hk).toBe(row.hierarchicalKey);
      expect(back.v).toEqual(row.values);
      expect(back.r).toEqual(row.refs);
      expect(back.ln).toBe(row.lineNumber);
      expect(back.ps === null).toBe(row.period === undefined);
      expect(back.pe === null).toBe(row.period === undefined);
    });
    const periods = await sql<{ ps: string; pe: string }>`
      select ps::text as ps, pe::text as pe from ${rowColumnsSource(columnsOf(rows.slice(0, 1)))}`.execute(
      server.server.ctx.db,
    );
    expect(periods.rows).toEqual([{ ps: '2020-01-01 00:00:00', pe: '2021-06-30 12:30:00' }]);
  });
});
