/**
 * A configuration written for the CSV engine's tests (not taken from the corpus) and helpers to validate small
 * files against it. Entries: `zones` (recursive), `properties` → `stations` (parent, every checker, dynamic
 * columns), `readings` (a data type with constants, a pattern component, computed values, rules, a time scope).
 */
import { validateConfiguration } from '../configuration';
import type { ApplicationModel } from '../configuration/model';
import { createCsvValidator } from './index';
import type { CsvDeposit, CsvReport, CsvRow, DeviceKnowledge, StoredRow } from './types';

export const TEST_CONFIGURATION = `OA_version: 2.0.1
OA_application:
  OA_name: essais
  OA_version: 1.0.0
OA_data:
  zones:
    OA_naturalKey: [code]
    OA_basicComponents:
      code: {OA_required: true}
      label: null
      parent:
        OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: zones, OA_isRecursive: true}}}
  properties:
    OA_naturalKey: [name]
    OA_basicComponents:
      name: null
      unit: null
  stations:
    OA_naturalKey: [zone, code]
    OA_basicComponents:
      zone:
        OA_required: true
        OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: zones, OA_isParent: true}}}
      code: null
      opened:
        OA_checker: {OA_name: OA_date, OA_params: {OA_pattern: dd/MM/yyyy, OA_min: 01/01/1950, OA_max: 31/12/2030}}
      depth:
        OA_checker: {OA_name: OA_float, OA_params: {OA_min: 0.0, OA_max: 100.0}}
      slots:
        OA_checker: {OA_name: OA_integer, OA_params: {OA_min: 1, OA_max: 10}}
      automatic:
        OA_checker: {OA_name: OA_boolean}
      serial:
        OA_checker: {OA_name: OA_string, OA_params: {OA_pattern: "[A-Z]{2}[0-9]{3}"}}
      tags:
        OA_checker: {OA_name: OA_string, OA_params: {OA_multiplicity: MANY}}
      neighbours:
        OA_checker: {OA_name: OA_reference, OA_params: {OA_multiplicity: MANY, OA_reference: {OA_name: zones}}}
      note:
        OA_importHeader: remark
    OA_dynamicComponents:
      measured:
        OA_headerPrefix: "p_"
        OA_reference: properties
        OA_referenceComponentToLookForHeader: name
  readings:
    OA_tags: [__DATA__]
    OA_dataHeaderLine: 3
    OA_dataFirstLine: 5
    OA_naturalKey: [station, day]
    OA_basicComponents:
      station:
        OA_required: true
      day:
        OA_required: true
        OA_checker: {OA_name: OA_date, OA_params: {OA_pattern: dd/MM/yyyy}}
      level:
        OA_defaultValue: {OA_expression: "return 0"}
        OA_checker: {OA_name: OA_integer}
      quality:
        OA_checker:
          OA_name: OA_groovyExpression
          OA_params:
            OA_groovy:
              OA_expression: "if (datum.quality == 'XX') { OA_buildException('BAD_QUALITY', [quality: datum.quality]) }; return datum.quality != 'bad'"
              OA_groovyExceptions:
                BAD_QUALITY: {fr: "Qualité interdite", en: "Forbidden quality"}
    OA_constantComponents:
      campaign:
        OA_required: true
        OA_importHeaderTarget: {OA_rowNumber: 1, OA_columnNumber: 2}
      unit:
        OA_importHeaderTarget: {OA_rowNumber: 4, OA_columnName: level}
    OA_computedComponents:
      stationKey:
        OA_withNaturalKeyComponents: [campaign, station]
      ratio:
        OA_computation: {OA_expression: "return datum.level.toInteger() / (datum.station == 'S0' ? 0 : 2)"}
    OA_patternComponents:
      temperature:
        OA_patternForComponents: "T_(.*)"
        OA_checker: {OA_name: OA_float}
        OA_componentQualifiers:
          - depthClass: {OA_checker: {OA_name: OA_integer}}
        OA_componentAdjacents:
          - flag: {OA_importHeaderPattern: "Q_{$1}", OA_mandatory: true}
    OA_validations:
      levelBelowTen:
        OA_i18n: {fr: niveau sous dix, en: level below ten}
        OA_components: [level]
        OA_checker:
          OA_name: OA_groovyExpression
          OA_params: {OA_groovy: {OA_expression: "return datum.level.toInteger() < 10"}}
    OA_submission:
      OA_strategy: OA_VERSIONING
      OA_submissionScope:
        OA_timeScope: {OA_component: day}
`;

let model: ApplicationModel | undefined;

export function testModel(): ApplicationModel {
  if (!model) {
    const result = validateConfiguration(new TextEncoder().encode(TEST_CONFIGURATION), 'essais.yaml');
    if (!result.ok) throw new Error(`test configuration: ${JSON.stringify(result.errors, null, 1)}`);
    model = result.value;
  }
  return model;
}

/** A model of a configuration written in a test. */
export function modelOf(yaml: string): ApplicationModel {
  const result = validateConfiguration(new TextEncoder().encode(yaml), 'test.yaml');
  if (!result.ok) throw new Error(`test configuration: ${JSON.stringify(result.errors, null, 1)}`);
  return result.value;
}

export interface Validated {
  rows: CsvRow[];
  report: CsvReport;
}

export interface ValidateOptions {
  references?: Record<string, readonly StoredRow[]>;
  chunkSize?: number;
  maxErrors?: number;
  deposit?: CsvDeposit;
  model?: ApplicationModel;
  device?: DeviceKnowledge;
}

/** Validates a whole text (in chunks of `chunkSize` when given), collecting every row. */
export function validate(dataName: string, text: string, options: ValidateOptions = {}): Validated {
  const validator = createCsvValidator({
    model: options.model ?? testModel(),
    dataName,
    fileName: `${dataName}.csv`,
    maxErrors: options.maxErrors,
    deposit: options.deposit,
    device: options.device,
    references: { rows: (name) => options.references?.[name] ?? [] },
  });
  const rows: CsvRow[] = [];
  const size = options.chunkSize ?? text.length;
  for (let start = 0; start < text.length; start += Math.max(1, size)) {
    validator.push(text.slice(start, start + Math.max(1, size)));
    rows.push(...validator.takeRows());
  }
  const report = validator.finish();
  rows.push(...validator.takeRows());
  return { rows, report };
}

/** The rows of a valid file, as references for the next ones. */
export function stored(rows: readonly CsvRow[]): StoredRow[] {
  return rows.map((row) => ({ naturalKey: row.naturalKey, hierarchicalKey: row.hierarchicalKey, values: row.values }));
}

export const ZONES_CSV = 'code;label;parent\nNord;Nord;\nLac Bleu;Lac bleu;Nord\nRive;Rive;Lac Bleu\nSud;Sud;\n';
export const PROPERTIES_CSV = 'name;unit\nph;\nconductivity;µS/cm\n';

export function references(): Record<string, StoredRow[]> {
  const zones = validate('zones', ZONES_CSV);
  const properties = validate('properties', PROPERTIES_CSV);
  if (zones.report.errorCount > 0 || properties.report.errorCount > 0) throw new Error('test references are not valid');
  return { zones: stored(zones.rows), properties: stored(properties.rows) };
}
