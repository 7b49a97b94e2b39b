import type { RowColumns } from './rowColumns.ts';
import type { CsvCheck, CsvReport } from '../../src/domain/csv/index.ts';
import type { RowPlace } from '../../src/domain/rights/access.ts';

/**
 * What a file's check gives back of its valid rows: nothing (a deposit kept as a file), the batches to write, or
 * the batches with where each row sits (for the rights checks of data without versioning and of publications).
 */
export type RowsWanted = 'none' | 'documents' | 'documentsAndPlaces';

/** A file's check on the server: the browser's check, with what to give back and the time it may take. */
export interface ServerCsvCheck extends CsvCheck {
  rows: RowsWanted;
  /** Time the worker may spend checking the file (ms). */
  budgetMs: number;
  /** Rows per batch given back (`WRITE_BATCH` when absent). */
  batchRows?: number;
}

/** A valid row as the request thread needs it for rights: its line, natural key, scope keys and period. */
export interface CheckedRow extends RowPlace {
  lineNumber: number;
  naturalKey: string;
}

/** Valid rows, ready for the database: their columns as texts (`rowColumns`) rather than row objects to clone. */
export interface CheckedBatch {
  columns: RowColumns;
  /** The columns' length in characters. */
  characters: number;
  count: number;
  /** With `documentsAndPlaces`. */
  rows?: CheckedRow[];
}

/** The answer of each step of a check: the batches it completed, or the end of a file that ran out of time. */
export type CheckStep<End = object> =
  | ({ kind: 'checked'; batches: CheckedBatch[]; spentMs: number } & End)
  | { kind: 'overBudget'; lineNumber: number; spentMs: number };

/** What the CSV check worker (`csvCheckWorker.ts`) answers; files are named by numbers the caller picks. */
export interface CsvCheckApi {
  open(file: number, check: ServerCsvCheck): CheckStep;
  /** Bytes of the file, in order (UTF-8 split anywhere). */
  push(file: number, bytes: Uint8Array): CheckStep;
  /** The end of the file: the whole-file checks, the report and the last batches. */
  finish(file: number): CheckStep<{ report: CsvReport }>;
  /** Forgets a file whose check is abandoned. */
  drop(file: number): void;
}
