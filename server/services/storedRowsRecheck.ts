import type { RowRevalidation } from '../../src/domain/applications/updateImpact.ts';
import type { ApplicationModel, DataEntry } from '../../src/domain/configuration/model.ts';
import { EntryCsvWriter } from '../../src/domain/bundle/entryCsv.ts';
import type { CsvError } from '../../src/domain/csv/index.ts';
import { csvRecordCounter } from '../../src/domain/csv/recordCounter.ts';
import type { ServerContext } from '../context.ts';
import { referenceRowsFor, rowTextsFor } from './dataRows.ts';
import { checkFailure } from './ingest.ts';
import { dynamicColumns } from './dynamicColumns.ts';
import { rowPages, shapesOf } from './entryRowsByShape.ts';

/**
 * Rows checked per entry: past it the report says how many were checked. It keeps the time and memory of an
 * update's check within what an upload of that many rows takes.
 */
export const MAX_RECHECKED_ROWS = 100_000;
/** Failing rows named in the report. */
const EXAMPLES = 5;
/** Rows the worker gives back per batch: only their count is read. */
const BATCH_ROWS = 5_000;

/**
 * Line numbers of the rows written, to name the rows an error points to. The engine numbers records, not line
 * breaks: a row is one line however many line breaks its quoted values hold.
 */
class WrittenLines {
  private readonly keys: string[] = [];
  private firstRowLine = 1;

  /** The lines above the first row, as sent. */
  skip(head: Uint8Array) {
    const counter = csvRecordCounter();
    counter.add(head);
    this.firstRowLine += counter.records;
  }

  add(naturalKey: string) {
    this.keys.push(naturalKey);
  }

  /** The natural key of the row written on this line. */
  keyAt(lineNumber: number): string {
    return this.keys[lineNumber - this.firstRowLine] ?? '';
  }
}

/**
 * Checks an entry's stored rows against a new configuration, with the engine every upload goes through: the rows
 * are written back as the CSV file that would load them (for the new entry's columns, as a backup writes them)
 * and that file is checked page by page in a worker thread, off the request thread. Answers how many rows would
 * be refused if they were loaded again, with the first of them.
 */
export async function recheckStoredRows(
  ctx: ServerContext,
  applicationId: string,
  model: ApplicationModel,
  entry: DataEntry,
): Promise<RowRevalidation> {
  const texts = await rowTextsFor(ctx.db, applicationId, entry);
  const dynamics = await dynamicColumns(ctx.db, applicationId, model);
  const shapes = await shapesOf(ctx.db, applicationId, entry, texts);
  const references = await referenceRowsFor(ctx.db, applicationId, model, entry);
  const outcome: RowRevalidation = { checkedRows: 0, failingRows: 0, complete: true, examples: [] };
  for (const shape of shapes) {
    if (!outcome.complete) break;
    const writer = new EntryCsvWriter(entry, shape.shape, { dynamicHeader: dynamics.header, texts });
    const lines = new WrittenLines();
    const check = ctx.checks.open({
      model,
      dataName: entry.name,
      fileName: `${entry.name}.csv`,
      maxErrors: EXAMPLES * 20,
      references,
      rows: 'documents',
      batchRows: BATCH_ROWS,
    });
    const encoder = new TextEncoder();
    let valid = 0;
    try {
      const head = encoder.encode(writer.head());
      lines.skip(head);
      await check.push(head);
      for await (const page of rowPages(ctx.db, applicationId, entry, shape)) {
        const room = MAX_RECHECKED_ROWS - outcome.checkedRows;
        const taken = page.slice(0, room);
        let text = '';
        for (const row of taken) {
          const line = writer.line(row);
          lines.add(row.naturalKey);
          text += line;
        }
        outcome.checkedRows += taken.length;
        for (const batch of await check.push(encoder.encode(text))) valid += batch.count;
        if (taken.length < page.length) {
          outcome.complete = false;
          break;
        }
      }
      const { report, batches } = await check.finish();
      for (const batch of batches) valid += batch.count;
      outcome.failingRows += report.rowCount - valid;
      addExamples(outcome, report.errors, lines);
    } catch (error) {
      throw checkFailure(error);
    } finally {
      check.close();
    }
  }
  return outcome;
}

function addExamples(outcome: RowRevalidation, errors: CsvError[], lines: WrittenLines) {
  const named = new Set(outcome.examples.map((example) => example.naturalKey));
  for (const error of errors) {
    if (outcome.examples.length >= EXAMPLES) return;
    const naturalKey = lines.keyAt(error.lineNumber);
    if (named.has(naturalKey)) continue;
    named.add(naturalKey);
    outcome.examples.push({ naturalKey, code: error.code, ...(error.column ? { column: error.column } : {}) });
  }
}
