/**
 * The cost of refusing floats that lose digits (`src/domain/csv/floatDigits.ts`): 1,000,000 float cells (100,000
 * with --quick) as a data file holds them (one to four decimals, integers, zeros, one in a hundred written with 17
 * to 20 digits), read by `parseFloatText` alone (before) and followed by `losesDigits` (after), measured alternately
 * on the process's CPU time, median of five runs each. Target: the check adds at most half the read's time.
 */
import { parseFloatText } from '../../src/domain/csv/checkers';
import { losesDigits } from '../../src/domain/csv/floatDigits';
import { seededRandom } from '../seededRandom';
import type { Benchmark } from './types';

function cells(count: number): string[] {
  const random = seededRandom(7);
  return Array.from({ length: count }, (_, index) => {
    if (index % 100 === 0) return (random() * 1000).toPrecision(17 + (index % 4));
    if (index % 10 === 0) return '0';
    if (index % 7 === 0) return String(Math.floor(random() * 100_000));
    return (random() * 1000 - 100).toFixed(1 + (index % 4));
  });
}

function cpuMs(body: () => void): number {
  const start = process.cpuUsage();
  body();
  const spent = process.cpuUsage(start);
  return (spent.user + spent.system) / 1000;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const bench: Benchmark = {
  area: 'float digits',
  async run({ quick }) {
    const texts = cells(quick ? 100_000 : 1_000_000);
    let sink = 0;
    const before: number[] = [];
    const after: number[] = [];
    for (let run = 0; run < 5; run += 1) {
      before.push(
        cpuMs(() => {
          for (const text of texts) sink += parseFloatText(text) ?? 0;
        }),
      );
      after.push(
        cpuMs(() => {
          for (const text of texts) {
            const value = parseFloatText(text) ?? 0;
            if (!losesDigits(text, value)) sink += value;
          }
        }),
      );
    }
    if (Number.isNaN(sink)) throw new Error('unreachable: keeps the loops from being optimised away');
    const read = median(before);
    const checked = median(after);
    return [
      { name: `${texts.length.toLocaleString('en')} cells read (before)`, value: read, unit: 'ms' },
      { name: `${texts.length.toLocaleString('en')} cells read and checked (after)`, value: checked, unit: 'ms' },
      {
        name: 'cost of the check, part of the read',
        value: (checked - read) / read,
        unit: '×',
        target: '≤ 0.5',
        pass: (checked - read) / read <= 0.5,
      },
    ];
  },
};

export default bench;
