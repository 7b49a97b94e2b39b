import * as Comlink from 'comlink';
import { validatorOfCheck, type CsvCheck, type CsvRow, type CsvValidator } from '../domain/csv';
import type { CsvWorkerApi } from './csvWorkerApi';

/** Bytes are decoded and fed a megabyte at a time, as the server reads its stream. */
const CHUNK = 1 << 20;

function feed(validator: CsvValidator, bytes: Uint8Array, onRows: (rows: CsvRow[]) => void) {
  const decoder = new TextDecoder('utf-8');
  for (let start = 0; start < bytes.length; start += CHUNK) {
    validator.push(decoder.decode(bytes.subarray(start, start + CHUNK), { stream: true }));
    onRows(validator.takeRows());
  }
  validator.push(decoder.decode());
  const report = validator.finish();
  onRows(validator.takeRows());
  return report;
}

const handlers: CsvWorkerApi = {
  validateCsv(bytes, check) {
    // Only the report crosses back: rows are checked and dropped at once.
    return feed(validatorOfCheck(check, { collectRows: false }), bytes, () => undefined);
  },
  validRows(bytes, check: CsvCheck) {
    const rows: CsvRow[] = [];
    feed(validatorOfCheck(check), bytes, (taken) => rows.push(...taken));
    return rows.map(({ naturalKey, hierarchicalKey, values }) => ({ naturalKey, hierarchicalKey, values }));
  },
};

Comlink.expose(handlers);
