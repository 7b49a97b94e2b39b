import type { CsvDeposit, CsvReport, StoredRow } from '../domain/csv';
import type { ApplicationModel } from '../domain/configuration/model';

export interface CsvCheck {
  model: ApplicationModel;
  dataName: string;
  fileName: string;
  /** Rows of the references the file may point to, by data name (as kept on the device). */
  references: Record<string, StoredRow[]>;
  maxErrors?: number;
  deposit?: CsvDeposit;
}

/** What the CSV worker offers the page (through Comlink, every call is asynchronous). */
export interface CsvWorkerApi {
  /** Checks a whole file with the same engine as the server; answers the report (rows are checked, not kept). */
  validateCsv(bytes: Uint8Array, check: CsvCheck): CsvReport;
}
