/**
 * Configuration engine: median validation time, after warm-up, of the largest corpus configuration (acbb, read in
 * place from the corpus) and of a generated configuration of 200 data entries × 30 components.
 */
import path from 'node:path';
import { parseDocument } from 'yaml';
import { readCommonYaml } from '../../src/domain/configuration/readCommonYaml';
import { sourceText } from '../../src/domain/configuration/readYaml';
import { readConfigurationDocument, validateConfiguration } from '../../src/domain/configuration';
import { buildApplicationModel } from '../../src/domain/configuration/buildModel';
import { compileExpression } from '../../src/domain/expressions';
import { loadCorpus } from '../corpus/manifest';
import type { Benchmark, BenchFigure } from './types';

function median(run: () => void, warmUp: number, runs: number): number {
  for (let index = 0; index < warmUp; index += 1) run();
  const times: number[] = [];
  for (let index = 0; index < runs; index += 1) {
    const start = performance.now();
    run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

function readInOnePass(text: string, fileName: string): void {
  if (!readCommonYaml(text, sourceText(text, { name: fileName, isArchiveEntry: false })))
    throw new Error(`${fileName} is not read in one pass`);
}

/** The engine's own share: validating and building the model from an already read document. */
function validationOnly(bytes: Uint8Array, fileName: string, warmUp: number, runs: number): number {
  const document = readConfigurationDocument(bytes, fileName);
  if (!document.ok) throw new Error(`${fileName} cannot be read`);
  return median(() => buildApplicationModel(document.root, compileExpression), warmUp, runs);
}

/**
 * Many entries and components, written compactly (flow style, no export headers) so that the figure measures how
 * validation scales with their number rather than the YAML parser's speed on bytes: references chained by
 * reference checkers, dates with bounds, numbers, string patterns, a computed value, a key and an expression rule.
 */
export function generateConfiguration(entries: number, componentsPerEntry: number): string {
  const lines = [
    'OA_version: 2.0.1',
    'OA_application: {OA_name: generated, OA_version: 1.0.1}',
    'OA_tags: {group: {fr: groupe, en: group}}',
    'OA_data:',
  ];
  for (let entry = 0; entry < entries; entry += 1) {
    lines.push(
      `  entry_${entry}:`,
      `    OA_tags: [group${entry % 4 === 3 ? ', __DATA__' : ''}]`,
      '    OA_naturalKey: [c0]',
    );
    lines.push(
      `    OA_i18n: {OA_title: {fr: Donnée ${entry}, en: Data ${entry}}}`,
      '    OA_i18nDisplayPattern: {OA_title: {fr: "{c0} ({c1})", en: "{c0} ({c1})"}}',
      '    OA_basicComponents:',
    );
    for (let component = 0; component < componentsPerEntry - 2; component += 1) {
      let checker = 'null';
      if (component === 2 && entry > 0)
        checker = `{OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: entry_${entry - 1}}}}}`;
      else if (component % 5 === 3)
        checker = '{OA_checker: {OA_name: OA_date, OA_params: {OA_pattern: dd/MM/yyyy, OA_min: 01/01/1900}}}';
      else if (component % 5 === 4)
        checker = '{OA_checker: {OA_name: OA_float, OA_params: {OA_min: 0.0, OA_max: 100.0}}}';
      else if (component % 7 === 6)
        checker = '{OA_checker: {OA_name: OA_string, OA_params: {OA_pattern: "[A-Z]{3}[0-9]+"}}}';
      lines.push(`      c${component}: ${checker}`);
    }
    lines.push(
      '    OA_computedComponents:',
      `      total: {OA_computation: {OA_expression: "return (datum.c4 ?: '0') + '/' + datum.c9"}}`,
      '      key: {OA_withNaturalKeyComponents: [c0, c1]}',
    );
    lines.push('    OA_validations:', '      positive:', '        OA_components: [c4]');
    lines.push(
      '        OA_checker: {OA_name: OA_groovyExpression, OA_params: {OA_groovy: {OA_expression: "return datum.c4 == null || Float.parseFloat(datum.c4) >= 0"}}}',
    );
  }
  return `${lines.join('\n')}\n`;
}

const bench: Benchmark = {
  area: 'configuration',
  async run({ quick }) {
    const warmUp = quick ? 5 : 20;
    const runs = quick ? 15 : 60;
    const figures: BenchFigure[] = [];

    const corpus = loadCorpus();
    if (corpus) {
      const file = path.join('acbb', 'acbb_openAdom_V2.yaml');
      const bytes = corpus.read(file);
      const result = validateConfiguration(bytes, file);
      if (!result.ok) throw new Error(`acbb is not valid: ${JSON.stringify(result.errors[0])}`);
      const text = new TextDecoder().decode(bytes);
      const time = median(() => validateConfiguration(bytes, file), warmUp, runs);
      figures.push({
        name: `acbb validation (${Math.round(bytes.length / 1000)} kB), median`,
        value: time,
        unit: 'ms',
        target: '≤ 20 ms',
        pass: time <= 20,
      });
      figures.push({
        name: 'of which YAML reading (one-pass reader of common YAML)',
        value: median(() => readInOnePass(text, file), warmUp, runs),
        unit: 'ms',
      });
      figures.push({
        name: 'the same text parsed by the yaml package, for comparison',
        value: median(() => parseDocument(text, { schema: 'core', uniqueKeys: true }), warmUp, runs),
        unit: 'ms',
      });
      figures.push({
        name: 'of which validation of the parsed document',
        value: validationOnly(bytes, file, warmUp, runs),
        unit: 'ms',
      });
    } else {
      figures.push({ name: 'acbb validation: not measured (no corpus folder)', value: Number.NaN, unit: 'ms' });
    }

    const generated = new TextEncoder().encode(generateConfiguration(200, 30));
    const check = validateConfiguration(generated, 'generated.yaml');
    if (!check.ok)
      throw new Error(`the generated configuration is not valid: ${JSON.stringify(check.errors.slice(0, 3))}`);
    const generatedTime = median(
      () => validateConfiguration(generated, 'generated.yaml'),
      Math.ceil(warmUp / 4),
      Math.ceil(runs / 4),
    );
    const generatedText = new TextDecoder().decode(generated);
    figures.push({
      name: 'generated: of which YAML reading (one-pass reader)',
      value: median(() => readInOnePass(generatedText, 'generated.yaml'), Math.ceil(warmUp / 4), Math.ceil(runs / 4)),
      unit: 'ms',
    });
    figures.push({
      name: 'generated: of which validation of the parsed document',
      value: validationOnly(generated, 'generated.yaml', Math.ceil(warmUp / 4), Math.ceil(runs / 4)),
      unit: 'ms',
    });
    figures.push({
      name: `generated 200 entries × 30 components (${Math.round(generated.length / 1000)} kB), median`,
      value: generatedTime,
      unit: 'ms',
      target: '≤ 200 ms',
      pass: generatedTime <= 200,
    });
    return figures;
  },
};

export default bench;
