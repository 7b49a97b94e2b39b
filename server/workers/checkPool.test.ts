import { afterEach, describe, expect, it } from 'vitest';
import { modelOf, stored, validate } from '../../src/domain/csv/testKit.ts';
import { placeOf } from '../../src/domain/rights/access.ts';
import { CheckOverBudget, CheckPool, type FileCheck } from './checkPool.ts';
import type { CheckedBatch } from './csvCheckApi.ts';
import { WRITE_BATCH, charactersOf, columnsOf, storedFieldsOf } from './rowColumns.ts';

/** Each line evaluates `costly` expressions of about w² steps (w from the line's `work` column; 900 is near the step limit). */
const configuration = (costly: number) => `OA_version: 2.0.1
OA_application:
  OA_name: pool
  OA_version: 1.0.0
OA_data:
  sites:
    OA_naturalKey: [code]
    OA_basicComponents:
      code: null
  samples:
    OA_tags: [__DATA__]
    OA_naturalKey: [site, day, line]
    OA_basicComponents:
      site:
        OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: sites}}}
      day:
        OA_checker: {OA_name: OA_date, OA_params: {OA_pattern: dd/MM/yyyy}}
      line:
        OA_checker: {OA_name: OA_integer}
      work:
        OA_checker: {OA_name: OA_integer}
    OA_computedComponents:
${Array.from({ length: costly }, (_, index) => `      cost${index}:\n        OA_computation: {OA_expression: "def l = [1] * datum.work.toInteger(); return l.collect { l.sum() }.size()"}`).join('\n')}
    OA_authorizations:
      OA_authorizationScope: [site]
      OA_timeScope: day
`;

const SITES = 'code\nété\nhiver\n';
/** Lines of samples, the work of each given by `work` (from 0, the first data line). */
const samples = (lines: number, work: (line: number) => number) =>
  [
    'site;day;line;work',
    ...Array.from(
      { length: lines },
      (_, index) =>
        `${index % 2 ? 'hiver' : 'été'};${String((index % 28) + 1).padStart(2, '0')}/01/2024;${index};${work(index)}`,
    ),
  ].join('\n') + '\n';

const model = modelOf(configuration(1));
const references = { sites: stored(validate('sites', SITES, { model }).rows) };
const check = { model, dataName: 'samples', fileName: 'samples.csv', references };

/** Every piece of `bytes` through the check (in pieces of `size`, split anywhere), then its end. */
async function checkAll(file: FileCheck, bytes: Uint8Array, size: number) {
  const batches: CheckedBatch[] = [];
  try {
    const answers = [];
    for (let start = 0; start < bytes.length; start += size) {
      const answer = file.push(bytes.subarray(start, start + size));
      // Awaited in turn below; once one fails, those after it are not.
      answer.catch(() => undefined);
      answers.push(answer);
    }
    for (const answer of answers) batches.push(...(await answer));
    const end = await file.finish();
    return { report: end.report, batches: [...batches, ...end.batches] };
  } finally {
    file.close();
  }
}

describe('the CSV check pool', () => {
  let pool: CheckPool;
  afterEach(() => pool.close());

  it('gives the rows the engine gives, as database columns in batches, with their places when asked', async () => {
    pool = new CheckPool({ workers: 2, budgetMs: 60_000 });
    // A BOM and accents split across pieces, and more than two batches.
    const text = `\uFEFF${samples(2 * WRITE_BATCH + 7, (line) => line % 5)}`;
    const expected = validate('samples', text, { model, references });
    expect(expected.report.errorCount).toBe(0);
    const { report, batches } = await checkAll(
      pool.open({ ...check, rows: 'documentsAndPlaces' }),
      new TextEncoder().encode(text),
      1001,
    );
    expect(report).toEqual(expected.report);
    expect(batches.map((batch) => batch.count)).toEqual([WRITE_BATCH, WRITE_BATCH, 7]);
    // The columns of each batch are those of the engine's rows, in order, each with a new time-ordered id.
    let first = 0;
    for (const batch of batches) {
      const ids = batch.columns.ids.slice(1, -1).split(',');
      expect(ids).toHaveLength(batch.count);
      expect([...ids].sort()).toEqual(ids);
      const rows = expected.rows.slice(first, first + batch.count);
      first += batch.count;
      expect(batch.columns).toEqual(columnsOf(rows.map((row, index) => storedFieldsOf(row, ids[index]))));
      expect(batch.characters).toBe(charactersOf(batch.columns));
    }
    expect(batches.flatMap((batch) => batch.rows)).toEqual(
      expected.rows.map((row) => ({
        lineNumber: row.lineNumber,
        naturalKey: row.naturalKey,
        ...placeOf(
          model.data.find((data) => data.name === 'samples')!,
          row.values,
          row.period!.from,
          row.period!.to,
        ),
      })),
    );
    // Thousands of rows compared field by field: seconds on a loaded machine, beyond vitest's default 5 s.
  }, 30_000);

  it('answers only the report when no rows are wanted, and the report of a refused file', async () => {
    pool = new CheckPool({ workers: 1, budgetMs: 60_000 });
    const refused = samples(30, (line) => line).replace('hiver;02/01/2024;1;1', 'printemps;02/01/2024;1;1');
    const expected = validate('samples', refused, { model, references });
    expect(expected.report.errorCount).toBe(1);
    expect(await checkAll(pool.open({ ...check, rows: 'none' }), new TextEncoder().encode(refused), 64)).toEqual({
      report: expected.report,
      batches: [],
    });
  });

  it('refuses a file whose checking outlasts its budget, at the line it reached, between two lines', async () => {
    // A few ms a line here: the budget runs out after some lines, well before the end. The worker is started and
    // the model read by a first check: on a machine busy with other tests, they alone could outlast the budget.
    pool = new CheckPool({ workers: 1, budgetMs: 1500 });
    await checkAll(pool.open({ ...check, rows: 'none' }), new TextEncoder().encode(samples(1, () => 1)), 4096);
    const bytes = new TextEncoder().encode(samples(5000, () => 300));
    const error = await checkAll(pool.open({ ...check, rows: 'documents' }), bytes, 4096).catch(
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(CheckOverBudget);
    expect((error as CheckOverBudget).budgetMs).toBe(1500);
    expect((error as CheckOverBudget).lineNumber).toBeGreaterThan(2);
    expect((error as CheckOverBudget).lineNumber).toBeLessThan(5000);
    // The worker goes on with the next file.
    expect(
      (await checkAll(pool.open({ ...check, rows: 'none' }), new TextEncoder().encode(samples(3, () => 1)), 4096))
        .report.errorCount,
    ).toBe(0);
  });

  // Its own bound on the stop is 15 s on a busy machine: the test's time must hold it, and the checks around it.
  it(
    'stops a worker stuck inside one line past the budget, names that line, and checks the next file on a new worker',
    { timeout: 30_000 },
    async () => {
      // The budget leaves room for the first lines on a machine busy with other tests (600 ms did not, once).
      pool = new CheckPool({ workers: 1, budgetMs: 2_000 });
      // 5,000 expressions of almost a million steps on the second line (file line 3): far past the budget and its
      // grace even on an idle machine (400 were checked within 1.6 s there). Checked to its end, the worker would have
      // refused the file at line 4.
      const costly = modelOf(configuration(5000));
      const bytes = new TextEncoder().encode(samples(3, (line) => (line === 1 ? 900 : 1)));
      await checkAll(
        pool.open({ ...check, model: costly, rows: 'none' }),
        new TextEncoder().encode(samples(1, () => 1)),
        4096,
      );
      const started = performance.now();
      const error = await checkAll(pool.open({ ...check, model: costly, rows: 'documents' }), bytes, 4096).catch(
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(CheckOverBudget);
      expect((error as CheckOverBudget).lineNumber).toBe(3);
      expect(performance.now() - started).toBeLessThan(15_000);
      expect(
        (await checkAll(pool.open({ ...check, rows: 'none' }), new TextEncoder().encode(samples(3, () => 1)), 4096))
          .report.errorCount,
      ).toBe(0);
    },
  );
});
