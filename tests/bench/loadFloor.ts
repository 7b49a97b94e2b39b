/**
 * The physical floor of a load (issue 27), measured in the same run as the load it is compared with: PapaParse's
 * parse of the file, then a COPY of its rows, as text, into an UNLOGGED table of as many text columns, without
 * index or constraint. Nothing a load can do is cheaper: the file is read once and its rows written once.
 *
 * And, with TERRAIN_BENCH_PROFILE=1, where a reference load's time goes: the same rows written by the server's
 * statements (batches, journaled on the embedded database) with and without the journal and the
 * secondary indexes, against COPY into a staging table followed by one INSERT … SELECT … ON CONFLICT.
 */
import Papa from 'papaparse';
import type { RowColumns } from '../../server/workers/rowColumns.ts';
import { BASELINE_TABLE, copyField, type DirectSession } from './serverProcess.ts';

export interface ParsedFile {
  /** PapaParse's time for the whole file, in ms. */
  parseMs: number;
  /** The rows (header left out) in COPY text form, for `copyFloorIn`. */
  copyText: Buffer;
  columns: number;
}

/** Parses `text` with PapaParse (timed) and gives its rows as COPY text (not timed). */
export function parseForFloor(text: string, delimiter: string): ParsedFile {
  const start = performance.now();
  const parsed = Papa.parse<string[]>(text, { delimiter, skipEmptyLines: true });
  const parseMs = performance.now() - start;
  const [header, ...rows] = parsed.data;
  const copyText = Buffer.from(rows.map((row) => row.map(copyField).join('\t')).join('\n') + '\n', 'utf8');
  return { parseMs, copyText, columns: header.length };
}

/**
 * COPY of the parsed rows into a fresh unlogged table of text columns, in one transaction: the time in ms. `logged`
 * measures the same into an ordinary table, whose rows also go to the write-ahead log as any durable load's do.
 */
export async function copyFloorIn(
  db: DirectSession,
  postgres: boolean,
  file: ParsedFile,
  logged = false,
): Promise<number> {
  const columns = Array.from({ length: file.columns }, (_, index) => `c${index + 1} text`).join(', ');
  await db.exec('drop table if exists copy_floor');
  await db.exec(`create ${logged ? '' : 'unlogged '}table copy_floor (${columns})`);
  const start = performance.now();
  if (postgres) await db.exec('begin');
  await db.copy('copy_floor', file.copyText);
  if (postgres) await db.exec('commit');
  const elapsed = performance.now() - start;
  await db.exec('drop table copy_floor');
  return elapsed;
}

/** One measured part of the write profile. */
export interface ProfileFigure {
  name: string;
  ms: number;
}

/** `rowColumnsSource` of dataRows.ts in plain SQL: the batch's columns are `$1`…`$8`. */
const SOURCE = `(select id, nk, hk, v::jsonb as v, r::text[] as r, ln, ps, pe
  from unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::integer[], $7::timestamp[], $8::timestamp[])
    as c(id, nk, hk, v, r, ln, ps, pe)) as u`;

/** `upsertRows` of dataRows.ts, in plain SQL on the bench table (`$9`/`$10` application and entry). */
const upsert = (table: string, journal?: string) => `
  ${
    journal
      ? `with u as materialized (select * from ${SOURCE}),
  journaled as (
    insert into ${journal} (natural_key, prior)
    select u.nk, (select to_jsonb(before) from ${table} as before
                  where before.application_id = $9 and before.data_name = $10 and before.natural_key = u.nk and before.file_id is null)
    from u on conflict (natural_key) do nothing)`
      : ''
  }
  insert into ${table} as stored (id, application_id, data_name, natural_key, hierarchical_key, values, refs, line_number, period_start, period_end)
  select u.id, $9, $10, u.nk, u.hk, u.v, u.r, u.ln, u.ps, u.pe
  from ${journal ? 'u' : SOURCE}
  on conflict (application_id, data_name, natural_key) where file_id is null
  do update set hierarchical_key = excluded.hierarchical_key, values = excluded.values, refs = excluded.refs,
                line_number = excluded.line_number, period_start = excluded.period_start, period_end = excluded.period_end,
                updated_at = now()
  where (stored.hierarchical_key, stored.values, stored.refs, stored.line_number, stored.period_start, stored.period_end)
        is distinct from (excluded.hierarchical_key, excluded.values, excluded.refs, excluded.line_number, excluded.period_start, excluded.period_end)`;

/** A batch's parameters for `upsert`. */
const parametersOf = (columns: RowColumns, applicationId: string, dataName: string) => [
  columns.ids,
  columns.naturalKeys,
  columns.hierarchicalKeys,
  columns.values,
  columns.refs,
  columns.lineNumbers,
  columns.periodStarts,
  columns.periodEnds,
  applicationId,
  dataName,
];

/** The bench table with data_rows' unique natural-key index only (its other indexes left out). */
const KEY_ONLY_TABLE = BASELINE_TABLE.split('\n')
  .filter((line) => !/create index/.test(line))
  .join('\n');

/** The bench table without one of data_rows' secondary indexes (`id` for its primary key). */
const tableWithout = (index: string) =>
  index === 'id'
    ? BASELINE_TABLE.replace('id uuid primary key', 'id uuid')
    : BASELINE_TABLE.split('\n')
        .filter((line) => !line.includes(`copy_baseline_${index} `))
        .join('\n');

/**
 * Where the writing of a reference goes, each part on a fresh table like data_rows, by the statements the server
 * runs: `batches` are those the checking worker builds (2,000 rows on PostgreSQL, 500 on the embedded
 * database), `stored` the same rows as COPY text of `columns`.
 */
export async function writeProfileIn(
  db: DirectSession,
  postgres: boolean,
  applicationId: string,
  dataName: string,
  batches: Array<{ columns: RowColumns; count: number }>,
  columns: string,
  stored: string,
): Promise<ProfileFigure[]> {
  const figures: ProfileFigure[] = [];
  const fresh = async (ddl: string) => {
    await db.exec('drop table if exists copy_baseline');
    await db.exec(ddl);
  };
  const timed = async (name: string, work: () => Promise<void>) => {
    const start = performance.now();
    await work();
    figures.push({ name, ms: performance.now() - start });
    // Seen as it comes: a 1,000,000-row profile takes minutes.
    process.stderr.write(`  ${name}: ${((performance.now() - start) / 1000).toFixed(2)} s\n`);
  };
  const write = async (journal?: string) => {
    if (postgres) {
      // One transaction for the whole write, as withLateTransaction does.
      await db.exec('begin');
      for (const { columns } of batches)
        await db.query(upsert('copy_baseline', journal), parametersOf(columns, applicationId, dataName));
      await db.exec('commit');
      return;
    }
    // The embedded database: one transaction per batch, the columns analyzed as the write doubles (entryWrite.ts).
    let written = 0;
    let analyzeAt = 1000;
    for (const { columns, count } of batches) {
      await db.query(upsert('copy_baseline', journal), parametersOf(columns, applicationId, dataName));
      written += count;
      if (written >= analyzeAt) {
        analyzeAt *= 2;
        await db.exec('analyze copy_baseline (application_id, data_name)');
      }
    }
  };

  const how = postgres ? 'one transaction' : 'a transaction per batch';
  if (!postgres) {
    await fresh(BASELINE_TABLE);
    await db.exec(
      'drop table if exists profile_journal; create table profile_journal (natural_key text primary key, prior jsonb)',
    );
    await timed(`today's write: ${batches.length} batches, journaled, ${how}, all indexes`, () =>
      write('profile_journal'),
    );
    await db.exec('drop table profile_journal');
  }
  await fresh(BASELINE_TABLE);
  await timed(`batches, no journal, ${how}, all indexes`, () => write());
  await fresh(KEY_ONLY_TABLE);
  await timed(`batches, no journal, ${how}, natural-key index only`, () => write());
  // Each secondary index's share of the write: the same batches without it.
  for (const index of ['hierarchical_key', 'refs', 'period', 'id']) {
    await fresh(tableWithout(index));
    await timed(`batches, no journal, ${how}, all indexes but ${index}`, () => write());
  }

  // COPY into an unlogged staging table, then one set-based statement into place.
  await fresh(BASELINE_TABLE);
  const staging = `create unlogged table profile_staging (id uuid, application_id uuid, data_name text, natural_key text,
    hierarchical_key text, values jsonb, refs text[], line_number integer, period_start timestamp, period_end timestamp)`;
  await db.exec(`drop table if exists profile_staging; ${staging}`);
  if (postgres) await db.exec('begin');
  await timed('COPY of the stored form into an unlogged staging table', () =>
    db.copy(`profile_staging (${columns})`, Buffer.from(stored, 'utf8')),
  );
  await timed('one INSERT … SELECT … ON CONFLICT from staging, all indexes', async () => {
    await db.exec(`insert into copy_baseline as stored (id, application_id, data_name, natural_key, hierarchical_key, values, refs, line_number, period_start, period_end)
      select id, application_id, data_name, natural_key, hierarchical_key, values, refs, line_number, period_start, period_end from profile_staging
      on conflict (application_id, data_name, natural_key) where file_id is null
      do update set hierarchical_key = excluded.hierarchical_key, values = excluded.values, refs = excluded.refs,
                    line_number = excluded.line_number, period_start = excluded.period_start, period_end = excluded.period_end,
                    updated_at = now()
      where (stored.hierarchical_key, stored.values, stored.refs, stored.line_number, stored.period_start, stored.period_end)
            is distinct from (excluded.hierarchical_key, excluded.values, excluded.refs, excluded.line_number, excluded.period_start, excluded.period_end)`);
    if (postgres) await db.exec('commit');
  });
  await db.exec('drop table profile_staging');
  await fresh(KEY_ONLY_TABLE);
  await db.exec(`drop table if exists profile_staging; ${staging}`);
  if (postgres) await db.exec('begin');
  await db.copy(`profile_staging (${columns})`, Buffer.from(stored, 'utf8'));
  await timed('one INSERT … SELECT from staging, natural-key index only', async () => {
    await db.exec(`insert into copy_baseline (id, application_id, data_name, natural_key, hierarchical_key, values, refs, line_number)
      select id, application_id, data_name, natural_key, hierarchical_key, values, refs, line_number from profile_staging
      on conflict (application_id, data_name, natural_key) where file_id is null do nothing`);
    if (postgres) await db.exec('commit');
  });
  await db.exec('drop table profile_staging; drop table copy_baseline');

  // The best a first load into a table of the entry's own could do (partitions or tables per entry): the rows
  // COPYed with the primary key alone, then the secondary indexes built over them at once.
  const isIndex = (line: string) => /create (unique )?index/.test(line);
  const primaryKeyOnly = BASELINE_TABLE.split('\n')
    .filter((line) => !isIndex(line))
    .join('\n');
  const secondaryIndexes = BASELINE_TABLE.split('\n').filter(isIndex).join('\n');
  const asColumns = valuesAsColumns(columns, stored, []);
  // In a table of its own, the application and the entry are the table's: neither a column nor in an index.
  const entryImplicit = valuesAsColumns(columns, stored, ['application_id', 'data_name']);
  const withoutEntry = (ddl: string) =>
    ddl
      .replace('application_id uuid not null,', '')
      .replace('data_name text not null,', '')
      .replaceAll('(application_id, data_name, ', '(');
  for (const [layout, ddl, indexes, copyColumns, copyText] of [
    ['values as jsonb', primaryKeyOnly, secondaryIndexes, columns, stored],
    ['values as text', primaryKeyOnly.replace('values jsonb', 'values text'), secondaryIndexes, columns, stored],
    [
      'one text column per component',
      primaryKeyOnly.replace('values jsonb not null,', asColumns.ddl),
      secondaryIndexes,
      asColumns.columns,
      asColumns.text,
    ],
    [
      'one text column per component, no application or entry column',
      withoutEntry(primaryKeyOnly.replace('values jsonb not null,', entryImplicit.ddl)),
      withoutEntry(secondaryIndexes),
      entryImplicit.columns,
      entryImplicit.text,
    ],
  ]) {
    await fresh(ddl);
    if (postgres) await db.exec('begin');
    await timed(`an entry's own table, ${layout}: COPY with the primary key alone`, () =>
      db.copy(`copy_baseline (${copyColumns})`, Buffer.from(copyText, 'utf8')),
    );
    await timed(`an entry's own table, ${layout}: its secondary indexes built after`, async () => {
      await db.exec(indexes);
      if (postgres) await db.exec('commit');
    });
  }
  await db.exec('drop table copy_baseline');
  return figures;
}

/**
 * The stored form with `values` spread into one text column per component (`v_1`…), as a table of the
 * entry's own would hold them, without the columns named in `left`. Components are those of the first row (the
 * bench's rows all have the same).
 */
function valuesAsColumns(
  columns: string,
  stored: string,
  left: string[],
): { ddl: string; columns: string; text: string } {
  const names = columns.split(',').map((name) => name.trim());
  const kept = (_: unknown, index: number) => !left.includes(names[index]);
  const at = names.indexOf('values');
  const lines = stored.split('\n').filter(Boolean);
  // JSON text holds no raw tab or line break, so its COPY form only doubled its backslashes.
  const valuesOf = (line: string) => JSON.parse(line.split('\t')[at].replace(/\\\\/g, '\\')) as Record<string, unknown>;
  const components = Object.keys(valuesOf(lines[0]));
  const componentColumns = components.map((_, index) => `v_${index + 1}`);
  const text = lines.map((line) => {
    const fields = line.split('\t');
    const values = valuesOf(line);
    const spread = components.map((component) => {
      const value = values[component];
      if (value === undefined || value === null) return '\\N';
      return copyField(typeof value === 'string' ? value : JSON.stringify(value));
    });
    return [
      ...fields.slice(0, at).filter(kept),
      ...spread,
      ...fields.slice(at + 1).filter((field, index) => kept(field, at + 1 + index)),
    ].join('\t');
  });
  return {
    ddl: componentColumns.map((column) => `${column} text,`).join(' '),
    columns: [
      ...names.slice(0, at).filter(kept),
      ...componentColumns,
      ...names.slice(at + 1).filter((name, index) => kept(name, at + 1 + index)),
    ].join(', '),
    text: text.join('\n') + '\n',
  };
}
