/**
 * The worker thread that checks CSV files for the server, with the engine the browser's worker uses
 * (`src/workers/csv.worker.ts`): the request thread sends a file's bytes as they arrive and gets back its valid
 * rows as documents ready for the database, or its report. Each file has a time budget, counted here: the time
 * this thread spends in the file's calls (Node has no clock of a thread's own CPU time; these calls run without
 * waiting, so on a machine that is not overloaded their time is the thread's CPU time).
 */
import { validatorOfCheck, type CsvRow, type CsvValidator } from '../../src/domain/csv/index.ts';
import type { DataEntry } from '../../src/domain/configuration/model.ts';
import { placeOf } from '../../src/domain/rights/access.ts';
import type { CheckedBatch, CheckStep, CsvCheckApi, ServerCsvCheck } from './csvCheckApi.ts';
import { charactersOf, rowColumns, WRITE_BATCH } from './rowColumns.ts';
import { serveHandlers, workerPosition } from './serveHandlers.ts';

/** Thrown between two lines when the file's time is spent. */
class OverBudget extends Error {
  constructor(readonly lineNumber: number) {
    super('over budget');
  }
}

interface FileCheck {
  check: ServerCsvCheck;
  entry: DataEntry;
  validator: CsvValidator;
  decoder: TextDecoder;
  /** Valid rows not yet in a batch. */
  rows: CsvRow[];
  spentMs: number;
  /** When the call being answered began (performance.now()). */
  callStart: number;
}

/** The line being checked, for the pool to tell when it stops this thread stuck inside a line. */
const position = workerPosition();
const files = new Map<number, FileCheck>();
/** Files stopped over budget, until dropped: the calls already sent for them get the same answer. */
const overBudget = new Map<number, Extract<CheckStep, { kind: 'overBudget' }>>();

/** Runs one call of a file's check within its budget, and answers what it gave. */
function step<End extends object>(file: number, work: (check: FileCheck) => End, last = false): CheckStep<End> {
  const stopped = overBudget.get(file);
  if (stopped) return stopped;
  const check = files.get(file);
  if (!check) throw new Error(`no check of file ${file}`);
  check.callStart = performance.now();
  try {
    const end = work(check);
    const batches = takeBatches(check, last);
    check.spentMs += performance.now() - check.callStart;
    return { kind: 'checked', batches, spentMs: check.spentMs, ...end };
  } catch (error) {
    if (!(error instanceof OverBudget)) throw error;
    files.delete(file);
    const stopped = {
      kind: 'overBudget',
      lineNumber: error.lineNumber,
      spentMs: check.spentMs + performance.now() - check.callStart,
    } as const;
    overBudget.set(file, stopped);
    return stopped;
  }
}

/** Called before each line: says where the check is, and stops it once the file's time is spent. */
function withinBudget(check: FileCheck, lineNumber: number) {
  Atomics.store(position, 0, lineNumber);
  if (check.spentMs + performance.now() - check.callStart > check.check.budgetMs) throw new OverBudget(lineNumber);
}

/** The valid rows taken so far, in full batches (and the rest at the end of the file). */
function takeBatches(check: FileCheck, last: boolean): CheckedBatch[] {
  if (check.check.rows === 'none') return [];
  // One by one: a recursive entry gives all its rows at the end, too many for a spread into push().
  for (const row of check.validator.takeRows()) check.rows.push(row);
  const pending = check.rows;
  const size = check.check.batchRows ?? WRITE_BATCH;
  const batches: CheckedBatch[] = [];
  let start = 0;
  for (; pending.length - start >= size || (last && start < pending.length); start += size) {
    const rows = pending.slice(start, start + size);
    const columns = rowColumns(rows);
    const batch: CheckedBatch = { columns, characters: charactersOf(columns), count: rows.length };
    if (check.check.rows === 'documentsAndPlaces') {
      batch.rows = rows.map((row) => ({
        lineNumber: row.lineNumber,
        naturalKey: row.naturalKey,
        ...placeOf(check.entry, row.values, row.period?.from, row.period?.to),
      }));
    }
    batches.push(batch);
  }
  check.rows = pending.slice(start);
  return batches;
}

const handlers: CsvCheckApi = {
  open(file, check) {
    const started = performance.now();
    const entry = check.model.data.find((data) => data.name === check.dataName);
    if (!entry) throw new Error(`no data ${check.dataName} in the model`);
    const opened: FileCheck = {
      check,
      entry,
      validator: validatorOfCheck(check, {
        collectRows: check.rows !== 'none',
        beforeRow: (lineNumber) => withinBudget(opened, lineNumber),
      }),
      decoder: new TextDecoder('utf-8'),
      rows: [],
      spentMs: 0,
      callStart: started,
    };
    opened.spentMs = performance.now() - started;
    files.set(file, opened);
    return { kind: 'checked', batches: [], spentMs: opened.spentMs };
  },
  push: (file, bytes) =>
    step(file, (check) => {
      check.validator.push(check.decoder.decode(bytes, { stream: true }));
      return {};
    }),
  finish(file) {
    const answer = step(
      file,
      (check) => {
        check.validator.push(check.decoder.decode());
        return { report: check.validator.finish() };
      },
      true,
    );
    files.delete(file);
    return answer;
  },
  drop(file) {
    files.delete(file);
    overBudget.delete(file);
  },
};

serveHandlers(handlers);
