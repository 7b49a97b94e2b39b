/**
 * `npm test`: lint, format check and typecheck, unit tests, server integration tests, the corpus suite (when ../shared is there),
 * a production build, and the end-to-end tests in Debian's Chromium. Stops at the first failing command.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { findChromium } from './chromium.mjs';

const chromium = findChromium();
if (!chromium) {
  console.error(
    'No Chromium found: install it (Debian: sudo apt-get install -y chromium) or set CHROMIUM_PATH to a Chromium binary.',
  );
  process.exit(1);
}

const corpus = path.resolve(process.env.TERRAIN_CORPUS ?? '../shared/corpus/openadom');
const steps = [
  ['lint, format and typecheck', ['npm', 'run', 'lint'], ['npm', 'run', 'format:check'], ['npm', 'run', 'typecheck']],
  ['unit tests', ['npx', 'vitest', 'run', '--project', 'unit']],
  ['server integration tests', ['npx', 'vitest', 'run', '--project', 'server']],
  ['corpus suite', ['npx', 'vitest', 'run', '--project', 'corpus']],
  ['production build', ['npm', 'run', 'build']],
  ['end-to-end tests', ['npx', 'playwright', 'test']],
];
if (!existsSync(path.join(corpus, 'manifest.json'))) {
  console.log(`\n(corpus folder ${corpus} not found: the corpus tests will say they were not run)`);
}

for (const [name, ...commands] of steps) {
  console.log(`\n▶ ${name}`);
  for (const [command, ...args] of commands) {
    const result = spawnSync(command, args, {
      stdio: 'inherit',
      env: { ...process.env, CHROMIUM_PATH: chromium, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
    });
    if (result.status !== 0) {
      console.error(`\n✘ ${name} failed`);
      process.exit(result.status ?? 1);
    }
  }
}
console.log('\n✔ all tests passed');
