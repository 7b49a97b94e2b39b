/**
 * Fuzz: 5,000 random mutations of the corpus configurations (keys deleted or renamed, scalars turned into maps,
 * lists or other types, lines truncated, indentation broken). Validation must never throw, and every outcome is
 * either a model or a non-empty list of known error codes. The generator is seeded (`FUZZ_SEED` to change it), so a
 * failure names the case that reproduces it.
 */
import { describe, expect, it } from 'vitest';
import { isConfigurationErrorCode, validateConfiguration } from '../../src/domain/configuration';
import { seededRandom } from '../seededRandom';
import { corpusFolder, loadCorpus } from './manifest';

const TOTAL_CASES = 5_000;
const CASES_PER_TEST = 250;
const SEED = Number(process.env.FUZZ_SEED ?? 20_240_611);

type Mutation = (lines: string[], next: () => number) => void;

const pick = <T>(items: readonly T[], next: () => number): T => items[Math.floor(next() * items.length)];
const keyLines = (lines: string[]) =>
  lines.map((line, index) => (/^\s*-?\s*[\w"'][^:]*:/.test(line) ? index : -1)).filter((index) => index >= 0);

const REPLACEMENT_VALUES = [
  '{a: 1}',
  '[x, y]',
  '123',
  '-4',
  '1.5',
  'true',
  'null',
  '""',
  '~',
  '[]',
  '{}',
  'OA_reference',
  '"{unknown}"',
  '__HIDDEN__',
  'dd/MM/yyyy',
];

const MUTATIONS: Record<string, Mutation> = {
  deleteKeyLine: (lines, next) => {
    const candidates = keyLines(lines);
    if (candidates.length > 0) lines.splice(pick(candidates, next), 1);
  },
  renameKey: (lines, next) => {
    const candidates = keyLines(lines);
    if (candidates.length === 0) return;
    const index = pick(candidates, next);
    lines[index] = lines[index].replace(
      /([\w"']+)(\s*):/,
      (_, key: string, space: string) =>
        `${pick([`${key}x`, key.toUpperCase(), key.slice(1), 'OA_other', 'no', '1'], next)}${space}:`,
    );
  },
  changeScalar: (lines, next) => {
    const candidates = keyLines(lines);
    if (candidates.length === 0) return;
    const index = pick(candidates, next);
    lines[index] = lines[index].replace(/:(\s.*)?$/, `: ${pick(REPLACEMENT_VALUES, next)}`);
  },
  truncateLine: (lines, next) => {
    const index = Math.floor(next() * lines.length);
    lines[index] = lines[index].slice(0, Math.floor(next() * lines[index].length));
  },
  breakIndentation: (lines, next) => {
    const index = Math.floor(next() * lines.length);
    lines[index] =
      next() < 0.5 ? `${' '.repeat(1 + Math.floor(next() * 3))}${lines[index]}` : lines[index].replace(/^ {1,3}/, '');
  },
  duplicateLine: (lines, next) => {
    const index = Math.floor(next() * lines.length);
    lines.splice(index, 0, lines[index]);
  },
  truncateFile: (lines, next) => {
    lines.length = Math.max(1, Math.floor(next() * lines.length));
  },
  insertNoise: (lines, next) => {
    lines.splice(
      Math.floor(next() * lines.length),
      0,
      pick(['  - [', '"', ': :', '\t', '&a *a', '? x', '%TAG', '---', '#', '{'], next),
    );
  },
};

const corpus = loadCorpus();

describe('fuzzed corpus configurations', () => {
  if (!corpus) {
    it.skip(`not run: no corpus manifest in ${corpusFolder()} (set TERRAIN_CORPUS to run it)`, () => {});
    return;
  }
  const sources = Object.entries(corpus.manifest.applications).flatMap(([application, definition]) =>
    definition.configs.map((config) => ({
      name: `${application}/${config.file}`,
      text: new TextDecoder().decode(corpus.read(`${application}/${config.file}`)),
    })),
  );
  const encoder = new TextEncoder();
  const mutationNames = Object.keys(MUTATIONS);

  for (let start = 0; start < TOTAL_CASES; start += CASES_PER_TEST) {
    it(`cases ${start}–${start + CASES_PER_TEST - 1} never throw and give a model or known codes`, () => {
      for (let index = start; index < start + CASES_PER_TEST; index += 1) {
        const next = seededRandom(SEED + index);
        const source = pick(sources, next);
        const lines = source.text.split('\n');
        const applied: string[] = [];
        for (let count = 1 + Math.floor(next() * 3); count > 0; count -= 1) {
          const name = pick(mutationNames, next);
          applied.push(name);
          MUTATIONS[name](lines, next);
        }
        const label = `case ${index} (seed ${SEED}): ${source.name} with ${applied.join(', ')}`;
        let result;
        try {
          result = validateConfiguration(encoder.encode(lines.join('\n')), source.name);
        } catch (thrown) {
          throw new Error(`${label} threw ${thrown instanceof Error ? thrown.stack : String(thrown)}`, {
            cause: thrown,
          });
        }
        if (result.ok) {
          expect(result.value.data, label).toBeInstanceOf(Array);
        } else {
          expect(result.errors.length, label).toBeGreaterThan(0);
          for (const error of result.errors) {
            expect(isConfigurationErrorCode(error.code), `${label}: unknown code ${error.code}`).toBe(true);
            expect(typeof error.path, label).toBe('string');
          }
        }
      }
    });
  }
});
