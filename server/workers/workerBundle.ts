import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

const bundles = new Map<string, string>();

/**
 * A worker's module and everything it imports (the `src/domain` code) as one plain JavaScript script, built once per
 * process. A worker started on the TypeScript module itself needs tsx's loader, which Node runs on a thread of its
 * own: each worker then cost two V8 heaps (about 45 MB at rest) and a second to start. Built here, the worker reads
 * no TypeScript and the server needs no build step for it.
 */
export function workerBundle(entry: URL): string {
  let bundle = bundles.get(entry.href);
  if (bundle === undefined) {
    const built = buildSync({
      entryPoints: [fileURLToPath(entry)],
      bundle: true,
      write: false,
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      logLevel: 'error',
    });
    bundle = built.outputFiles[0].text;
    bundles.set(entry.href, bundle);
  }
  return bundle;
}
