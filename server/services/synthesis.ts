import { sql } from 'kysely';
import type { ServerContext } from '../context.ts';
import type { EntryContext } from './references.ts';
import type { RowFilter } from '../../src/domain/rights/access.ts';
import { rowFilterSql } from './rowQueries.ts';
import type { Synthesis } from '../../src/contract/data.ts';

export const SYNTHESIS_INTERVALS = 10;

const iso = (date: Date) => date.toISOString().slice(0, 19);

/** Lines with a value, per variable and per tenth of the covered period: what the data-type tree draws. */
export async function synthesize(
  ctx: ServerContext,
  data: EntryContext,
  filter: RowFilter = { kind: 'all' },
  variable?: string,
): Promise<Synthesis> {
  const { application, entry } = data;
  const allowed = rowFilterSql(entry, filter);
  const bounds = await sql<{ lo: Date | null; hi: Date | null }>`
    select min(period_start) as lo, max(coalesce(period_end, period_start)) as hi
    from data_rows where application_id = ${application.id} and data_name = ${entry.name} and ${allowed}`.execute(
    ctx.db,
  );
  const { lo, hi } = bounds.rows[0] ?? { lo: null, hi: null };
  const only = variable ? sql`and v.key = ${variable}` : sql``;
  if (!lo || !hi) {
    const totals = await sql<{ key: string; count: number }>`
      select v.key, count(*) as count from data_rows r, jsonb_each_text(r.values) v(key, value)
      where r.application_id = ${application.id} and r.data_name = ${entry.name} and v.value <> '' ${only} and ${allowed}
      group by v.key`.execute(ctx.db);
    return {
      dataType: entry.name,
      from: null,
      to: null,
      intervals: [],
      variables: Object.fromEntries(totals.rows.map((r) => [r.key, [Number(r.count)]])),
    };
  }
  const start = lo.getTime() / 1000;
  const end = Math.max(hi.getTime() / 1000, start + 1);
  const rows = await sql<{ key: string; bucket: number; count: number }>`
    select v.key, least(width_bucket(extract(epoch from r.period_start), ${start}, ${end}, ${SYNTHESIS_INTERVALS}), ${SYNTHESIS_INTERVALS}) as bucket, count(*) as count
    from data_rows r, jsonb_each_text(r.values) v(key, value)
    where r.application_id = ${application.id} and r.data_name = ${entry.name} and r.period_start is not null and v.value <> '' ${only} and ${allowed}
    group by v.key, bucket`.execute(ctx.db);
  const step = (end - start) / SYNTHESIS_INTERVALS;
  const intervals = Array.from({ length: SYNTHESIS_INTERVALS }, (_, i) => ({
    from: iso(new Date((start + i * step) * 1000)),
    to: iso(new Date((start + (i + 1) * step) * 1000)),
  }));
  const variables: Record<string, number[]> = {};
  for (const row of rows.rows) {
    variables[row.key] ??= new Array(SYNTHESIS_INTERVALS).fill(0);
    variables[row.key][Math.max(1, Number(row.bucket)) - 1] += Number(row.count);
  }
  return { dataType: entry.name, from: iso(lo), to: iso(hi), intervals, variables };
}
