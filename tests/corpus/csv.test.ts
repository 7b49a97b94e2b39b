import { describe, expect, it } from 'vitest';
import { validateConfiguration } from '../../src/domain/configuration';
import { checkCsvUploads } from './csv';
import { corpusFolder, loadCorpus } from './manifest';

const corpus = loadCorpus();

describe('OpenADOM corpus: CSV uploads', () => {
  if (!corpus) {
    it.skip(`not run: no corpus manifest in ${corpusFolder()} (set TERRAIN_CORPUS to run it)`, () => {});
    return;
  }
  const rows = checkCsvUploads(corpus, validateConfiguration);
  it.each(rows)('$section: $name', (row) => {
    expect(row.ok, `expected ${row.expected}, obtained ${row.obtained}`).toBe(true);
  });
});
