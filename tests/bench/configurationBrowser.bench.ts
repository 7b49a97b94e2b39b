/**
 * Configuration engine in the browser (issue 4): the largest corpus configuration (acbb) validated inside a Web
 * Worker of Debian's Chromium, headless, as the "Test" button does offline: median time after warm-up, measured
 * in the worker. The worker script is bundled here from src/domain with Vite (no UI build needed).
 */
import path from 'node:path';
import { chromium } from 'playwright-core';
import { build, type Rollup } from 'vite';
import { CHROMIUM_ARGS, findChromium } from '../../scripts/chromium.mjs';
import { loadCorpus } from '../corpus/manifest.ts';
import type { Benchmark, BenchFigure } from './types.ts';

const TARGET_MS = 40;

async function workerScript(): Promise<string> {
  const output = (await build({
    configFile: false,
    logLevel: 'silent',
    build: {
      write: false,
      minify: true,
      lib: {
        entry: path.join(import.meta.dirname, 'browser/configurationTimer.ts'),
        formats: ['es'],
        fileName: 'timer',
      },
    },
  })) as Rollup.RollupOutput[] | Rollup.RollupOutput;
  const chunk = (Array.isArray(output) ? output[0] : output).output.find(
    (item): item is Rollup.OutputChunk => item.type === 'chunk',
  );
  if (!chunk) throw new Error('the timer worker was not bundled');
  return chunk.code;
}

const bench: Benchmark = {
  area: 'configuration',
  async run({ quick }) {
    const corpus = loadCorpus();
    const executablePath = findChromium();
    if (!corpus || !executablePath) {
      return [
        {
          name: `acbb validation in a browser worker: not measured (${!corpus ? 'no corpus folder' : 'no Chromium'})`,
          value: Number.NaN,
          unit: 'ms',
        },
      ];
    }
    const bytes = corpus.read(path.join('acbb', 'acbb_openAdom_V2.yaml'));
    const code = await workerScript();
    const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
    try {
      // A page and a worker script of one (intercepted) origin: module workers need a real origin.
      const page = await browser.newPage();
      await page.route('http://bench.terrain.test/**', (route) =>
        route.fulfill(
          route.request().url().endsWith('/timer.js')
            ? { contentType: 'text/javascript', body: code }
            : { contentType: 'text/html', body: '<!doctype html><title>bench</title>' },
        ),
      );
      await page.goto('http://bench.terrain.test/');
      const result = await page.evaluate(
        ({ data, warmUp, runs }) =>
          new Promise<{ valid: boolean; times: number[]; userAgent: string }>((resolve, reject) => {
            const worker = new Worker('/timer.js', { type: 'module' });
            worker.onmessage = (event) => resolve(event.data);
            worker.onerror = (event) => reject(new Error(`worker: ${event.message} ${event.filename}:${event.lineno}`));
            worker.postMessage({ bytes: new Uint8Array(data), fileName: 'acbb_openAdom_V2.yaml', warmUp, runs });
          }),
        { data: [...bytes], warmUp: quick ? 5 : 20, runs: quick ? 15 : 60 },
      );
      if (!result.valid) throw new Error('acbb is not valid in the browser worker');
      const sorted = [...result.times].sort((a, b) => a - b);
      const median = sorted[Math.floor(sorted.length / 2)];
      const version = result.userAgent.match(/Chrome\/([\d.]+)/)?.[1] ?? '?';
      const figures: BenchFigure[] = [
        {
          name: `acbb validation (${Math.round(bytes.length / 1000)} kB) in a Chromium ${version} Web Worker, median`,
          value: median,
          unit: 'ms',
          target: `≤ ${TARGET_MS} ms`,
          pass: median <= TARGET_MS,
        },
      ];
      return figures;
    } finally {
      await browser.close();
    }
  },
};

export default bench;
