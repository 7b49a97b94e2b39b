/**
 * Expression engine figures: evaluations per second of a simple row expression, of a `find` look-up over a
 * 1,000-row reference (plain closure and index side by side), and the compile time of every corpus expression.
 * Rows and references are generated; the corpus is only read in place for the compile-time figure.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  compileExpression,
  type CompiledExpression,
  type ExpressionContext,
  type ReferenceRow,
} from '../../src/domain/expressions';
import { CORPUS_FOLDER, corpusAvailable, corpusExpressions } from '../corpus/expressions-corpus';
import type { BenchFigure, Benchmark } from './types';

const ROW_TARGET = 200_000;
const COMPILE_TARGET_MS = 50;

function compile(source: string, indexedLookups = true): CompiledExpression {
  const result = compileExpression(source, { indexedLookups });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.expression;
}

/**
 * Evaluations per CPU second over the contexts, repeated for about `seconds` of CPU after a warm-up. CPU time
 * rather than wall time: the figure then does not depend on what else runs on the machine.
 */
function throughput(expression: CompiledExpression, contexts: readonly ExpressionContext[], seconds: number): number {
  for (const context of contexts.slice(0, 2_000)) expression.evaluate(context);
  let evaluations = 0;
  const started = process.cpuUsage();
  const cpuSeconds = () => {
    const used = process.cpuUsage(started);
    return (used.user + used.system) / 1e6;
  };
  while (cpuSeconds() < seconds) {
    for (const context of contexts) expression.evaluate(context);
    evaluations += contexts.length;
  }
  return evaluations / cpuSeconds();
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/**
 * Compile time of every corpus expression in a new Node process, where nothing of the engine is compiled by the
 * JavaScript engine yet: the cost of validating a first configuration. The process is single-threaded so that its
 * CPU time is the work itself; the wall time also counts the waits when other processes share the machine.
 */
function coldCompile(): { wall: number; cpu: number } {
  const engine = pathToFileURL(path.resolve(import.meta.dirname, '../../src/domain/expressions/index.ts')).href;
  const corpus = pathToFileURL(path.resolve(import.meta.dirname, '../corpus/expressions-corpus.ts')).href;
  const script = `
    const { compileExpression } = await import(${JSON.stringify(engine)});
    const { corpusExpressions } = await import(${JSON.stringify(corpus)});
    const sources = corpusExpressions().map((e) => e.source);
    const cpu = process.cpuUsage();
    const started = performance.now();
    for (const source of sources) compileExpression(source);
    const used = process.cpuUsage(cpu);
    console.log(JSON.stringify({ wall: performance.now() - started, cpu: (used.user + used.system) / 1000 }));`;
  const child = spawnSync(
    process.execPath,
    ['--single-threaded', '--import', 'tsx', '--input-type=module', '-e', script],
    { encoding: 'utf8' },
  );
  if (child.status !== 0) throw new Error(`cold compile run failed: ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').pop() ?? '') as { wall: number; cpu: number };
}

function generatedSites(count: number): ReferenceRow[] {
  return Array.from({ length: count }, (_, k) => ({
    naturalKey: `site_${k}`,
    hierarchicalKey: `regionsKr${k % 10}.sitesKsite_${k}`,
    refValues: { code: `site_${k}`, region: `r${k % 10}`, name: `Site ${k}` },
  }));
}

const rowFigure = (name: string, value: number): BenchFigure => ({
  name,
  value,
  unit: 'evaluations/CPU s',
  target: `≥ ${ROW_TARGET.toLocaleString('en')}/s`,
  pass: value >= ROW_TARGET,
});

const benchmark: Benchmark = {
  area: 'expressions',
  async run({ quick }) {
    const seconds = quick ? 0.3 : 1.5;
    const figures: BenchFigure[] = [];

    if (corpusAvailable()) {
      const sources = corpusExpressions().map((e) => e.source);
      const count = sources.length;
      const runs = Array.from({ length: quick ? 3 : 5 }, coldCompile);
      const cpu = median(runs.map((run) => run.cpu));
      figures.push({
        name: `compile all ${count} corpus expressions, fresh process, CPU time (median of ${runs.length})`,
        value: cpu,
        unit: 'ms',
        target: `< ${COMPILE_TARGET_MS} ms`,
        pass: cpu < COMPILE_TARGET_MS,
      });
      figures.push({
        name: `compile all ${count} corpus expressions, fresh process, wall time (median of ${runs.length})`,
        value: median(runs.map((run) => run.wall)),
        unit: 'ms',
        target: 'equals CPU time on an idle machine',
      });
      const warm = median(
        Array.from({ length: 20 }, () => {
          const started = process.cpuUsage();
          for (const source of sources) compileExpression(source);
          const used = process.cpuUsage(started);
          return (used.user + used.system) / 1000;
        }),
      );
      figures.push({
        name: `compile all ${count} corpus expressions, warm, CPU time (median of 20)`,
        value: warm,
        unit: 'ms',
      });
    } else {
      figures.push({
        name: `compile corpus expressions: not measured (corpus not found at ${CORPUS_FOLDER})`,
        value: Number.NaN,
        unit: 'ms',
      });
    }

    const rows: ExpressionContext[] = Array.from({ length: 10_000 }, (_, k) => ({
      datum: {
        day: `${String((k % 28) + 1).padStart(2, '0')}/01/2024`,
        time: `${String(k % 24).padStart(2, '0')}:30`,
        value: `${k}`,
      },
    }));
    const simple = compile('return (String)datum.day + " " + (String)datum.time');
    figures.push(rowFigure('simple row expression (string concatenation)', throughput(simple, rows, seconds)));

    const sites = generatedSites(1_000);
    const lookupContexts: ExpressionContext[] = Array.from({ length: 5_000 }, (_, k) => ({
      datum: { site: `site_${(k * 7919) % 1_000}`, plot: `p${k % 5}` },
      references: { sites },
    }));
    const lookup = 'references.sites.find { it.refValues.code == datum.site }.hierarchicalKey + "." + datum.plot';
    figures.push({
      ...rowFigure(
        'find over a 1,000-row reference, closure run row by row',
        throughput(compile(lookup, false), lookupContexts, seconds),
      ),
      target: 'for comparison',
      pass: undefined,
    });
    figures.push(
      rowFigure('find over a 1,000-row reference, indexed', throughput(compile(lookup, true), lookupContexts, seconds)),
    );

    return figures;
  },
};

export default benchmark;
