import { describe, expect, it, vi } from 'vitest';
import { references, testModel } from '../domain/csv/testKit';
import type { CsvWorkerApi } from './csvWorkerApi';

const exposed = vi.hoisted(() => ({ handlers: undefined as unknown }));
vi.mock('comlink', () => ({ expose: (handlers: unknown) => (exposed.handlers = handlers) }));

describe('the CSV worker', () => {
  it('exposes the engine through Comlink and answers the report of a file given as bytes', async () => {
    await import('./csv.worker');
    const handlers = exposed.handlers as CsvWorkerApi;
    const bytes = new TextEncoder().encode('\uFEFFzone;code;slots\r\nNord;S1;2\r\nSud;S2;x\r\n');
    const report = handlers.validateCsv(bytes, {
      model: testModel(),
      dataName: 'stations',
      fileName: 'stations.csv',
      references: references(),
    });
    expect(report).toEqual({
      rowCount: 2,
      errorCount: 1,
      truncated: false,
      errors: [
        {
          lineNumber: 3,
          code: 'invalidIntegerWithComponent',
          params: { component: 'slots', value: 'x' },
          column: 'slots',
          value: 'x',
        },
      ],
    });
  });
});
