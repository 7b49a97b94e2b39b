import { describe, expect, it } from 'vitest';
import { validateConfiguration } from '../../src/domain/configuration';
import type { StoredRow } from '../../src/domain/csv/types';
import { readFileName } from '../../src/domain/deposits/fileName';
import { findScopeRow } from '../../src/domain/deposits/scopeValues';
import { runCsv } from './csv';
import { corpusFolder, loadCorpus } from './manifest';

const corpus = loadCorpus();
const FILE_NAME = 'projet_manche!plateforme.scarff.scarff__p1!01-01-1984!06-01-1984.csv';

/**
 * The versioned file of monsore is named by the original's paths (`plateforme.scarff.scarff__p1`): read with the
 * application's own references, its name gives the project, the site and the period, as a deposit form or script needs.
 */
describe('OpenADOM corpus: a deposit file name of monsore', () => {
  if (!corpus) {
    it.skip(`not run: no corpus manifest in ${corpusFolder()} (set TERRAIN_CORPUS to run it)`, () => {});
    return;
  }
  it('names the site row the references hold, with the project and the period', () => {
    const configuration = validateConfiguration(
      corpus.read('monsore/monsore-with-repository-one-data-more.yaml'),
      'monsore.yaml',
    );
    if (!configuration.ok) throw new Error('monsore is valid');
    const model = configuration.value;
    const known = new Map<string, StoredRow[]>();
    for (const name of ['type_de_sites', 'projet', 'sites']) {
      const text = new TextDecoder().decode(corpus.read(`monsore/refdatas/${name}.csv`));
      const { rows, report } = runCsv(model, name, text, `${name}.csv`, known);
      expect(report.errors).toEqual([]);
      known.set(
        name,
        rows.map((row) => ({ naturalKey: row.naturalKey, hierarchicalKey: row.hierarchicalKey, values: row.values })),
      );
    }
    const entry = model.data.find((data) => data.name === 'pem')!;
    const read = readFileName(entry.submission, FILE_NAME)!;
    expect(read.scope).toEqual({ projet: 'projet_manche', chemin: 'plateforme.scarff.scarff__p1' });
    expect(read.from?.slice(0, 10)).toBe('1984-01-01');
    expect(findScopeRow(known.get('projet')!, read.scope.projet)?.naturalKey).toBe('projet_manche');
    const site = findScopeRow(known.get('sites')!, read.scope.chemin);
    expect(site?.naturalKey).toBe('scarff__p1');
    // A path whose last label names no row, or several, names none.
    expect(findScopeRow(known.get('sites')!, 'plateforme.scarff.nowhere')).toBeUndefined();
  });
});
