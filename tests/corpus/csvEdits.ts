/**
 * The text edits behind the manifest's `upload_error_mutations` (CSV files of `recursivite`). The manifest only
 * paraphrases each change; these are the replacements of the original's `Fixtures` (first occurrence replaced, the
 * original's replacement strings), keyed by the manifest's `change` text.
 */
export interface CsvEdit {
  find: string;
  replace: string;
}

const CONDITION_24_02 =
  'suivi des lacs;leman;SHL2;24/02/2020;00:00:00;Tracté par la Daphnie;8;1;ensoleille;clair;;1;979;plat;propre;;10;vert-vert';

export const CSV_EDITS: Record<string, CsvEdit> = {
  // recursivite/proprietes_des_taxons.csv
  "header 'définition_en' -> 'définition_en;définition_es'": {
    find: 'définition_en',
    replace: 'définition_en;définition_es',
  },
  'an empty header cell': { find: 'définition_en', replace: '' },
  'a header repeated': { find: 'définition_en', replace: 'définition_en;définition_fr' },
  '02/01/2016 -> 01/01/16': { find: '02/01/2016', replace: '01/01/16' },
  '55,22 -> x': { find: '55,22', replace: 'x' },
  '4 -> x': { find: ';4;', replace: ';x;' },
  'a duplicated line': {
    find: '01/01/2016;Notes sur les biovolumes;Notes sur les biovolumes;Notes on biovolumes;;;39,22;false;Phytoplancton;38',
    replace: '01/01/2016;Notes libres;Notes libres;Free notes;;;39,22;false;Phytoplancton;39',
  },
  "header 'Date' -> 'Date;martin'": { find: 'Date', replace: 'Date;martin' },
  "'38;' -> '38;martin'": { find: ';38;', replace: ';38;martin' },
  "';nom de la propriété_key' -> ''": { find: ';nom de la propriété_key', replace: '' },
  // recursivite/suivi_des_lacs_leman_conditions_prelevements_01-01-2020_31-12-2020.csv
  'date 24/02/2020 -> x24/02/2020': {
    find: CONDITION_24_02,
    replace: CONDITION_24_02.replace('24/02/2020', 'x24/02/2020'),
  },
  '8 -> x8': { find: CONDITION_24_02, replace: CONDITION_24_02.replace('Daphnie;8;', 'Daphnie;x8;') },
  '10 -> x10': { find: CONDITION_24_02, replace: CONDITION_24_02.replace(';;10;', ';;x10;') },
  'date_day emptied': { find: CONDITION_24_02, replace: CONDITION_24_02.replace('24/02/2020', '') },
  // the duplicated line of the data file (same change text as the reference's, applied to this file)
  'a duplicated line (condition_prelevements)': {
    find: CONDITION_24_02,
    replace: CONDITION_24_02.replace('24/02/2020;00:00:00', '22/01/2020;08:45:00'),
  },
  // recursivite/parametres_mesures_test.csv
  '50 -> 5000': { find: ';50;', replace: ';5000;' },
  '50.5 -> 5000.5': { find: ';50.5', replace: ';5000.5' },
  'AAA001 -> aaa001': { find: 'AAA001', replace: 'aaa001' },
};

/** The edit of a change, for a file (the same change text is used on two files). */
export function csvEditFor(change: string, file: string): CsvEdit | undefined {
  if (change === 'a duplicated line' && file.includes('suivi_des_lacs'))
    return CSV_EDITS['a duplicated line (condition_prelevements)'];
  return CSV_EDITS[change];
}

export function applyCsvEdit(text: string, edit: CsvEdit): string | undefined {
  const at = text.indexOf(edit.find);
  if (at < 0) return undefined;
  return text.slice(0, at) + edit.replace + text.slice(at + edit.find.length);
}
