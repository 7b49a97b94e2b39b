/**
 * Runs in a browser Web Worker (bundled by configurationBrowser.bench.ts): times validateConfiguration on the bytes
 * it is sent, after a warm-up, and answers every run's time in ms. The engine is the one the UI's worker ships.
 */
import { validateConfiguration } from '../../../src/domain/configuration/index.ts';

interface Request {
  bytes: Uint8Array;
  fileName: string;
  warmUp: number;
  runs: number;
}

self.onmessage = (event: MessageEvent<Request>) => {
  const { bytes, fileName, warmUp, runs } = event.data;
  let valid = true;
  for (let index = 0; index < warmUp; index += 1) valid = validateConfiguration(bytes, fileName).ok && valid;
  const times: number[] = [];
  for (let index = 0; index < runs; index += 1) {
    const start = performance.now();
    valid = validateConfiguration(bytes, fileName).ok && valid;
    times.push(performance.now() - start);
  }
  self.postMessage({ valid, times, userAgent: navigator.userAgent });
};
