import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { DepositKit } from '../../src/domain/bundle/depositTargets.ts';

export const DEPOSIT_SCRIPT_PATH = 'deposit.mjs';

const ENTRY = new URL('../kit/deposit.ts', import.meta.url);

let bundled: Promise<string> | undefined;

/**
 * The kit's script and the `src/domain` code it reads file names with, as one plain ES module for Node, built once
 * per process: the script carries the deposit form's own reading, never a copy that could drift from it.
 */
function scriptBundle(): Promise<string> {
  bundled ??= build({
    entryPoints: [fileURLToPath(ENTRY)],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'error',
  }).then(
    (built) => built.outputFiles[0].text,
    (error: unknown) => {
      bundled = undefined;
      throw error;
    },
  );
  return bundled;
}

/** `deposit.mjs` of an application's kit: its data types and their file-name patterns above the bundled script. */
export async function depositScript(kit: DepositKit): Promise<string> {
  return [
    '#!/usr/bin/env node',
    `// Terrain upload kit of ${JSON.stringify(kit.application)}: see README.md. Needs Node 20 or later, nothing else.`,
    `const KIT = ${JSON.stringify(kit)};`,
    await scriptBundle(),
  ].join('\n');
}
