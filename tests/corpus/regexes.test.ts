/**
 * Every regular expression of the OpenADOM corpus — string-checker `OA_pattern`s, `OA_patternForComponents`,
 * `OA_filePattern`s and the patterns of expressions (`split`, `matches`, `replaceAll`, `replaceFirst`, `==~`, `=~`)
 * — compiles on Terrain's engine and matches the same texts as JavaScript's RegExp, which the engine replaced for
 * checkers, headers and file names (and which reads these simple patterns as Java does): every cell and header of
 * the corpus CSV files, and their file names.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { compileJavaRegex } from '../../src/domain/regex';
import { CORPUS_FOLDER, corpusAvailable, corpusExpressions, readYaml, yamlFiles } from './expressions-corpus';

interface CorpusRegex {
  file: string;
  kind: 'checker' | 'header' | 'fileName' | 'expression';
  source: string;
}

const isMap = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function configurationRegexes(): CorpusRegex[] {
  const found: CorpusRegex[] = [];
  for (const file of yamlFiles('.').sort()) {
    const visit = (node: unknown) => {
      if (Array.isArray(node)) node.forEach(visit);
      if (!isMap(node)) return;
      const params = node.OA_params;
      if (node.OA_name === 'OA_string' && isMap(params) && typeof params.OA_pattern === 'string')
        found.push({ file, kind: 'checker', source: params.OA_pattern });
      if (typeof node.OA_patternForComponents === 'string')
        found.push({ file, kind: 'header', source: node.OA_patternForComponents });
      if (typeof node.OA_filePattern === 'string') found.push({ file, kind: 'fileName', source: node.OA_filePattern });
      Object.values(node).forEach(visit);
    };
    visit(readYaml(file));
  }
  return found;
}

/** Regex arguments of the String methods and operators, when written as literals. */
const EXPRESSION_REGEX =
  /\.(?:split|matches|replaceAll|replaceFirst)\(\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')|[=]~\s*\/((?:[^/\\]|\\.)*)\//g;

function expressionRegexes(): CorpusRegex[] {
  return corpusExpressions().flatMap((expression) =>
    [...expression.source.matchAll(EXPRESSION_REGEX)].map((match) => ({
      file: expression.file,
      kind: 'expression' as const,
      source: (match[1] ?? match[2] ?? match[3]).replace(/\\\\/g, '\\'),
    })),
  );
}

/** Every cell and header of the corpus CSV files, as written and trimmed. */
function corpusTexts(files: readonly string[]): string[] {
  const texts = new Set<string>();
  for (const file of files) {
    const rows = Papa.parse<string[]>(readFileSync(path.join(CORPUS_FOLDER, file), 'utf8'), {
      skipEmptyLines: true,
    }).data;
    for (const row of rows) for (const cell of row) texts.add(cell).add(cell.trim());
  }
  return [...texts];
}

describe('OpenADOM corpus: regular expressions', () => {
  if (!corpusAvailable()) {
    it.skip(`not run: no corpus in ${CORPUS_FOLDER}`, () => {});
    return;
  }
  const regexes = [...configurationRegexes(), ...expressionRegexes()];
  const files = readdirSync(CORPUS_FOLDER, { recursive: true, encoding: 'utf8' }).filter((file) =>
    file.endsWith('.csv'),
  );
  const texts = corpusTexts(files);
  const fileNames = [
    ...files.map((file) => path.basename(file)),
    'projet_manche!plateforme!01-01-1984!31-12-1984.csv',
    'site_01-01-2020_31-12-2020.csv',
    'a_b_c_d.csv',
  ];

  it('finds the patterns the corpus uses', () => {
    const kinds = new Set(regexes.map((regex) => regex.kind));
    expect([...kinds].sort()).toEqual(['checker', 'expression', 'fileName', 'header']);
    expect(texts.length).toBeGreaterThan(1_000);
  });

  it.each(regexes.map((regex) => [regex.kind, regex.source, regex.file, regex] as const))(
    '%s %s (%s)',
    (_kind, _source, _file, regex) => {
      const compiled = compileJavaRegex(regex.source);
      expect(compiled.ok, compiled.ok ? '' : compiled.message).toBe(true);
      if (!compiled.ok) return;
      const native = new RegExp(`^(?:${regex.source})$`, 'u');
      for (const text of regex.kind === 'fileName' ? fileNames : texts) {
        expect(compiled.regex.matchGroups(text), JSON.stringify(text)).toEqual(native.exec(text)?.slice() ?? null);
        expect(compiled.regex.matches(text), JSON.stringify(text)).toBe(native.test(text));
      }
    },
  );
});
