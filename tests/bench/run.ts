/**
 * `npm run bench [-- --quick] [-- --only <area>]`: runs every benchmark module under tests/bench and prints one
 * table. Figures are measured in this run only; ratios compare two measurements taken side by side.
 */
import { readdir } from 'node:fs/promises';
import { cpus, totalmem } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Benchmark, BenchFigure } from './types.ts';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const onlyIndex = args.indexOf('--only');
const only = onlyIndex >= 0 ? args[onlyIndex + 1] : undefined;

const folder = import.meta.dirname;
const files = (await readdir(folder)).filter((f) => f.endsWith('.bench.ts')).sort();

const rows: Array<BenchFigure & { area: string }> = [];
const took: string[] = [];
const failed: string[] = [];
const started = performance.now();
for (const file of files) {
  const module = (await import(pathToFileURL(path.join(folder, file)).href)) as { default: Benchmark };
  const bench = module.default;
  if (only && bench.area !== only) continue;
  process.stderr.write(`running ${bench.area} (${file})…\n`);
  const start = performance.now();
  try {
    for (const figure of await bench.run({ quick })) rows.push({ area: bench.area, ...figure });
  } catch (error) {
    // One area that breaks must not hide the others' figures: the report says what broke, and the run fails.
    const reason = (error as Error).message.split('\n')[0].slice(0, 160);
    failed.push(`${bench.area} (${file}): ${reason}`);
    rows.push({ area: bench.area, name: `did not finish: ${reason}`, value: Number.NaN, unit: '', pass: false });
  }
  took.push(`${bench.area} ${((performance.now() - start) / 1000).toFixed(0)} s`);
}

const format = (n: number) =>
  Number.isNaN(n) ? '–' : Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 1 ? n.toFixed(2) : n.toFixed(3);
const table = rows.map((r) => [
  r.area,
  r.name,
  `${format(r.value)} ${r.unit}`,
  r.target ?? '',
  r.pass === undefined ? '' : r.pass ? 'ok' : Number.isNaN(r.value) ? 'FAILED' : 'MISSED',
]);
const header = ['area', 'figure', 'measured', 'target', ''];
const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i].length)));
const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ');
console.log(line(header));
console.log(widths.map((w) => '-'.repeat(w)).join('  '));
for (const row of table) console.log(line(row));
const cores = cpus().length;
const memory = (totalmem() / 2 ** 30).toFixed(1);
console.log(
  `\n${quick ? 'quick run' : 'full run'} in ${((performance.now() - started) / 1000).toFixed(0)} s (${took.join(', ')})`,
);
console.log(
  `node ${process.version}, ${process.platform}/${process.arch}, ${cores} cores (${cpus()[0]?.model.trim() ?? 'unknown'}), ${memory} GiB memory`,
);
// Every benchmark has stopped its servers and browsers by now; what is left (sockets closing, timers of closed
// pools) would only delay the prompt by seconds.
process.exit(failed.length ? 1 : 0);
