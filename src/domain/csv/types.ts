import type { ApplicationModel } from '../configuration/model';
import type { CsvError } from './errors';
import type { CsvNote } from './notes';

/** A value as stored for one component of a row (see the shapes at the top of `index.ts`). */
export type StoredValue = string | number | boolean | null | StoredValue[] | { [key: string]: StoredValue };

/** A row of a reference already stored (or loaded earlier in the same file for recursive entries). */
export interface StoredRow {
  naturalKey: string;
  hierarchicalKey: string;
  values: Record<string, StoredValue>;
}

/** Rows of other entries the file refers to (reference checkers, dynamic components, expressions' references.X). */
export interface ReferenceSource {
  rows(dataName: string): readonly StoredRow[];
}

/** One link of a row to a row of a reference. */
export interface CsvLink {
  component: string;
  reference: string;
  hierarchicalKey: string;
}

export interface CsvRow {
  lineNumber: number;
  naturalKey: string;
  hierarchicalKey: string;
  values: Record<string, StoredValue>;
  /** Every hierarchical key this row points to, per component (for referential integrity and deletions). */
  links: CsvLink[];
  /** For data types with a time scope: the period the row covers, ISO local date-times [from, to). */
  period?: { from: string; to: string };
}

export interface CsvReport {
  /** Data rows read (non-empty lines from the first data line), valid or not. */
  rowCount: number;
  /** Every error found; `errors` keeps the first `maxErrors` of them. */
  errorCount: number;
  errors: CsvError[];
  /** Whether errors were left out of `errors` (errorCount > errors.length). */
  truncated: boolean;
  /**
   * Values a device could not settle by itself, or read otherwise than their writer may mean (see `notes.ts`); only
   * checks given `device` have them.
   */
  notes?: CsvNote[];
  noteCount?: number;
  /** More values were met than a check remembers: `noteCount` is at least their number. */
  noteCountCapped?: true;
}

/**
 * What a check on a device knows beyond the stored rows: the references it has no copy of (their values are noted,
 * not refused: the server checks them) and the rows of uploads still waiting on the device (their values resolve,
 * and are noted as known from there). The server never passes it: its checks settle everything.
 */
export interface DeviceKnowledge {
  withoutCopy: string[];
  /** References the device holds a part of: the rows its user may read, where the reference scopes its own rights. */
  partCopies?: string[];
  queuedRows: Record<string, StoredRow[]>;
}

/** The errors of a report, as the device's check gives them and as a server's refusal of a file (INVALID_CSV) does. */
export type CsvErrorsReport = Pick<CsvReport, 'errorCount' | 'errors' | 'truncated'>;

export interface CsvDeposit {
  /** ISO local date-times; a row whose period starts before `from` or after `to` is refused (`timerangeoutofinterval`). */
  from?: string;
  to?: string;
  /** Component → hierarchical key: the row's value must be that key or lie under it (`badauthorizationscopeforrepository`). */
  scope?: Record<string, string>;
}

export interface CsvValidationOptions {
  model: ApplicationModel;
  dataName: string;
  references: ReferenceSource;
  fileName: string;
  /** Errors kept in the report (the total is always counted); default 1000. */
  maxErrors?: number;
  /**
   * Whether rows are kept for `takeRows` (default true). A check that only wants the report (the browser worker
   * before an upload) passes false: the rows are still built and checked, then dropped at once.
   */
  collectRows?: boolean;
  /** A deposit's period and scope (issue 8): rows outside → timerangeoutofinterval; scope mismatches → an error naming the component. */
  deposit?: CsvDeposit;
  device?: DeviceKnowledge;
  /**
   * Called before each data line is checked, with its line number. A throw stops the check where it is (the
   * validator is then left unusable): the server's CPU budget for a file is kept this way, between lines.
   */
  beforeRow?: (lineNumber: number) => void;
}

/**
 * A file's check as a worker receives it, in the browser or on the server: plain data that crosses to a thread,
 * with the rows of the references the file may point to (by data name) in place of a `ReferenceSource`.
 */
export interface CsvCheck {
  model: ApplicationModel;
  dataName: string;
  fileName: string;
  references: Record<string, StoredRow[]>;
  maxErrors?: number;
  deposit?: CsvDeposit;
  device?: DeviceKnowledge;
}

export interface CsvValidator {
  /** Decoded text, in chunks of any size split anywhere (a BOM at the start is dropped, CRLF and LF both work). */
  push(chunk: string): void;
  /** Rows validated so far and not yet taken, so a caller can store them in batches while the file streams. */
  takeRows(): CsvRow[];
  /** Ends the file: whole-file checks (duplicates, recursive parents, missing headers…) and the report. */
  finish(): CsvReport;
}
