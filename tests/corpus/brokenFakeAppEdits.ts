/**
 * The text edits behind the manifest's `mutation_tests` of `validation/broken-fake-app.yaml`. The manifest only
 * paraphrases each change; these are the replacements of the original's `ApplicationConfigurationServiceTest`
 * (every occurrence replaced, as Java's `String.replace` does), keyed by the manifest's `change` text. A change with
 * several edits must give the expected result for each of them.
 */
export type Edit = { find: string; replace: string } | { wholeText: string };

export const BROKEN_FAKE_APP_EDITS: Record<string, Edit[]> = {
  'root OA_version -> 2': [{ find: 'OA_version: 2.0.1\nOA_application:', replace: 'OA_version: 2\nOA_application:' }],
  'root OA_version removed': [{ find: 'OA_version: 2.0.1', replace: '' }],
  "tag 'context' renamed 'context-' (declaration and uses)": [{ find: 'context:\n', replace: 'context-:\n' }],
  "root tag 'context:' replaced by '__HIDDEN__:'": [{ find: 'context:', replace: '__HIDDEN__:' }],
  'application name broken': [{ find: 'OA_name: fake_application', replace: 'OA_name: F4KE app!cat°' }],
  'unknown tag values on especes': [{ find: 'OA_tags: [ context ]', replace: 'OA_tags: [ context_ ]' }],
  'reference checker names an unknown data': [
    {
      find: 'OA_name: type_de_sites\n              OA_isParent: true',
      replace: 'OA_name: tr_type_de_sites\n              OA_isParent: true',
    },
  ],
  "application OA_version -2 or 'deux'": [
    { find: 'OA_version: 3.0.1', replace: 'OA_version: -2' },
    { find: 'OA_version: 3.0.1', replace: "OA_version: 'deux'" },
  ],
  'empty file': [{ wholeText: '' }],
  "OA_duration '1 Yearss'": [
    {
      find: '          OA_name: OA_date\n          OA_params:',
      replace: '          OA_name: OA_date\n          OA_params:\n            OA_duration: 1 Yearss',
    },
  ],
  'date OA_min/OA_max not matching pattern': [
    {
      find: '          OA_name: OA_date\n          OA_params:\n            OA_pattern: dd/MM/yyyy\n',
      replace:
        '          OA_name: OA_date\n          OA_params:\n            OA_pattern: dd/MM/yyyy\n            OA_min: 12/31/1980\n            OA_max: 31/12/2024\n',
    },
  ],
  'natural key element unknown': [{ find: '- esp_nom', replace: '- espNom' }],
  'date pattern bb/MM/yyyy': [
    {
      find: '          OA_name: OA_date\n          OA_params:\n            OA_pattern: dd/MM/yyyy',
      replace: '          OA_name: OA_date\n          OA_params:\n            OA_pattern: bb/MM/yyyy',
    },
  ],
  'checker without OA_name': [
    {
      find: 'tze_type_nom:\n        OA_required: true\n        OA_checker:\n          OA_name: OA_reference',
      replace: 'tze_type_nom:\n        OA_required: true\n        OA_checker:\n          OA_name:',
    },
  ],
  'constant target without column': [{ find: 'OA_columnName: "site"', replace: '' }],
  'mandatory values emptied (e.g. OA_application > OA_name)': [
    { find: 'OA_name: fake_application', replace: 'OA_name:' },
  ],
  'a section missing its mandatory keys (inferred from the params: a reference-scope element without OA_component and OA_reference)':
    [{ find: '            OA_reference: projet\n            OA_component: projet', replace: '' }],
  'validation OA_components emptied': [
    { find: '        OA_components: [ site ]', replace: '        OA_components: [  ]' },
  ],
  'OA_columnNumber negative': [{ find: 'OA_columnNumber: 2', replace: 'OA_columnNumber: -1' }],
  'OA_rowNumber negative': [{ find: 'OA_rowNumber: 1', replace: 'OA_rowNumber: -1' }],
  'OA_rowNumber: 1 -> 8 (first data line 7)': [{ find: 'OA_rowNumber: 1', replace: 'OA_rowNumber: 8' }],
  'constant component tag test -> testz': [
    {
      find: '      tel_experimental_network:\n        OA_tags: [ test ]',
      replace: '      tel_experimental_network:\n        OA_tags: [ testz ]',
    },
  ],
  // The original's test edits the scope's OA_reference (not its OA_component), which is what the expected params say.
  'first reference scope component projet -> proj': [
    {
      find: '            OA_reference: projet\n            OA_component: projet',
      replace: '            OA_reference: proj\n            OA_component: projet',
    },
  ],
  'OA_unexpectedTag: 1 added at root': [
    { find: 'OA_version: 2.0.1', replace: 'OA_version: 2.0.1\nOA_unexpectedTag: 1' },
  ],
  "checker OA_name 'reference'": [
    {
      find: 'tze_type_nom:\n        OA_required: true\n        OA_checker:\n          OA_name: OA_reference',
      replace: 'tze_type_nom:\n        OA_required: true\n        OA_checker:\n          OA_name: reference',
    },
  ],
  'a component name that does not exist (inferred from the params)': [
    { find: '        OA_components: [ site ]', replace: '        OA_components: [ sites ]' },
  ],
  'OA_matchPatternScopes element unknown': [
    {
      find: 'OA_matchPatternScopes:\n          - projet\n          - site_bassin',
      replace: 'OA_matchPatternScopes:\n          - projet\n          - site_bassine',
    },
  ],
  'dynamic component look-up component unknown': [
    {
      find: 'OA_referenceComponentToLookForHeader: tze_nom_key',
      replace: 'OA_referenceComponentToLookForHeader: nom_key',
    },
  ],
  'OA_strategy bad value': [{ find: 'OA_strategy: OA_VERSIONING', replace: 'OA_strategy: OA_VERSIONINGY' }],
  "i18n key 'frrr'": [{ find: '  test:\n    fr: test', replace: '  test:\n    frrr: test' }],
  'two components with the same import header': [
    { find: 'OA_headerName: "Nom de la clé du site"', replace: 'OA_headerName: "zet_chemin_parent"' },
  ],
  'same component key in two component maps': [{ find: 'tel_value', replace: 'tel_experimental_site' }],
  'display pattern placeholder unknown': [
    {
      find: '    OA_i18nDisplayPattern:\n      OA_title:\n        fr: "{esp_nom}"\n        en: "{esp_nom}"\n',
      replace:
        '    OA_i18nDisplayPattern:\n      OA_title:\n        fr: "{esp_invalid_nom}"\n        en: "{esp_nom}"\n',
    },
  ],
  'pattern qualifiers producing the same header': [{ find: 'swc_qc', replace: 'tel_date' }],
  'duplicated YAML key': [{ find: 'pem', replace: 'sites' }],
  'several independent errors': [{ find: '  sites:', replace: '  site:' }],
};

/** Applies an edit; undefined when the text to replace is not there (the edit no longer fits the file). */
export function applyEdit(text: string, edit: Edit): string | undefined {
  if ('wholeText' in edit) return edit.wholeText;
  if (!text.includes(edit.find)) return undefined;
  return text.split(edit.find).join(edit.replace);
}
