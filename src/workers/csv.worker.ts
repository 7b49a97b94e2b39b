import * as Comlink from 'comlink';
import { validatorOfCheck } from '../domain/csv';
import type { CsvWorkerApi } from './csvWorkerApi';

/** Bytes are decoded and fed a megabyte at a time, as the server reads its stream. */
const CHUNK = 1 << 20;

const handlers: CsvWorkerApi = {
  validateCsv(bytes, check) {
    // Only the report crosses back: rows are checked and dropped at once.
    const validator = validatorOfCheck(check, { collectRows: false });
    const decoder = new TextDecoder('utf-8');
    for (let start = 0; start < bytes.length; start += CHUNK) {
      validator.push(decoder.decode(bytes.subarray(start, start + CHUNK), { stream: true }));
      validator.takeRows();
    }
    validator.push(decoder.decode());
    const report = validator.finish();
    validator.takeRows();
    return report;
  },
};

Comlink.expose(handlers);
