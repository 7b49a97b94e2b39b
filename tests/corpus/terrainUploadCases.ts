/**
 * Upload cases Terrain adds to the manifest's, for behaviours of the original the manifest has no case for (issue
 * 25). Each edits a corpus file in memory (the file stays where the corpus keeps it) and, when it says so, the
 * configuration that reads it; the expectation has the manifest's mutation shape (`error` and params, `line` for the
 * line number), or `valid` with the rows stored. Keyed like the manifest: application, then the loaded file.
 */
import type { CsvEdit } from './csvEdits';

export type Expectation = { valid: number } | ({ error: string } & Record<string, unknown>);

/** An edit of one of the application's configurations, which then reads the file. */
export interface ConfigurationEdit {
  file: string;
  edit: CsvEdit;
}

export interface TerrainUploadCase {
  change: string;
  /** The file's text as the case sends it; undefined when the edit does not apply. */
  csv?: (text: string) => string | undefined;
  configuration?: ConfigurationEdit;
  expected: Expectation;
}

/** The header line (the first) with cells added at its end. */
const withHeaderCells = (cells: string[]) => (text: string) =>
  text.replace(/^[^\r\n]*/, (header) => [header, ...cells].join(';'));

/** The data lines in reverse order, the header kept first. */
function dataLinesReversed(text: string): string {
  const [header, ...lines] = text.split('\n');
  const data = lines.filter((line) => line.trim() !== '');
  return [header, ...data.reverse()].join('\n') + '\n';
}

const ORDER_STRICT: ConfigurationEdit = {
  file: 'recusivite.yaml',
  edit: {
    find: '      nomDuTaxonSuperieur:\n',
    replace: '      nomDuTaxonSuperieur:\n        OA_tags: [ __ORDER_STRICT__ ]\n',
  },
};

export const TERRAIN_UPLOAD_CASES: Record<string, Record<string, TerrainUploadCase[]>> = {
  monsore: {
    // especes has OA_allowUnexpectedColumns: true.
    'refdatas/especes.csv': [
      {
        change: 'an undeclared column qc repeated 16 times in the header',
        csv: withHeaderCells(Array.from({ length: 16 }, () => 'qc')),
        expected: { valid: 7 },
      },
      {
        change: 'the declared column esp_nom repeated in the header',
        csv: withHeaderCells(['esp_nom']),
        expected: { error: 'duplicatedHeaders', line: 1, duplicatedHeaders: ['esp_nom'] },
      },
    ],
  },
  recursivite: {
    'taxons_du_phytoplancton-reduit-pour-recursivite.csv': [
      {
        // The original's own case (its test of this error replaces the parent the same way).
        change: "parent ';Chroomonadaceae;' -> ';TaxonParentInexistant;'",
        csv: (text) => text.replaceAll(';Chroomonadaceae;', ';TaxonParentInexistant;'),
        expected: {
          error: 'missingrecursiveParentReferenceWithComponent',
          line: -1,
          component: 'taxon_superieur',
          refType: 'taxon',
          values: ['taxonparentinexistant'],
        },
      },
      {
        change: '__ORDER_STRICT__ on the recursive validation, children listed before their parents',
        configuration: ORDER_STRICT,
        expected: {
          error: 'invalidReferenceWithComponent',
          line: 2,
          component: 'taxon_superieur',
          value: 'Chroomonadaceae',
          refType: 'taxon',
        },
      },
      {
        change: '__ORDER_STRICT__ on the recursive validation, parents listed first',
        configuration: ORDER_STRICT,
        csv: dataLinesReversed,
        expected: { valid: 9 },
      },
    ],
  },
};
