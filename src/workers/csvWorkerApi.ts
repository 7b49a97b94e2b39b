import type { CsvCheck, CsvReport, StoredRow } from '../domain/csv';

/** What the CSV worker offers the page (through Comlink, every call is asynchronous). */
export interface CsvWorkerApi {
  /** Checks a whole file with the same engine as the server; answers the report (rows are checked, not kept). */
  validateCsv(bytes: Uint8Array, check: CsvCheck): CsvReport;
  /** The rows of a file that pass the check, as a reference's stored rows (those of an upload still waiting). */
  validRows(bytes: Uint8Array, check: CsvCheck): StoredRow[];
}
