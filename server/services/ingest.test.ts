import { afterEach, describe, expect, it } from 'vitest';
import { modelOf } from '../../src/domain/csv/testKit.ts';
import { CheckPool } from '../workers/checkPool.ts';
import { ingestCsv, type IngestTarget } from './ingest.ts';

const model = modelOf(`OA_version: 2.0.1
OA_application: {OA_name: ingest, OA_version: 1.0.0}
OA_data:
  sites:
    OA_naturalKey: [code]
    OA_basicComponents:
      code: null
      label: null
`);

/** Enough rows for writing to begin while the file is still being checked. */
const file = () => {
  const lines = ['code;label'];
  for (let index = 0; index < 150_000; index += 1) lines.push(`site${index};Site number ${index}`);
  return new TextEncoder().encode(`${lines.join('\n')}\n`);
};

let pool: CheckPool;
afterEach(() => pool.close());

describe('a file written as it is checked', () => {
  it('fails, with the error, when a write throws at once: no batch is left out', async () => {
    pool = new CheckPool({ workers: 1, budgetMs: 60_000 });
    // No reference to read: the database is never asked.
    const target = {
      db: undefined as never,
      checks: pool,
      applicationId: 'ingest',
      model,
      entry: model.data[0],
      fileName: 'sites.csv',
      batchRows: 1_000,
    } satisfies IngestTarget;
    const written: number[] = [];
    const refused = new Error('the instance is stopping');
    const store = (batch: { count: number }) => {
      // The second write throws before it begins, as a write refused at once does (a stopping instance).
      if (written.length === 1) throw refused;
      written.push(batch.count);
      return new Promise<void>((resolve) => setImmediate(resolve));
    };
    await expect(ingestCsv(target, [file()], store)).rejects.toBe(refused);
    expect(written).toHaveLength(1);
  });
});
