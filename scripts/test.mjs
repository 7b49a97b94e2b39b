/**
 * `npm test`: lint, format check and typecheck, unit tests, server integration tests, the corpus suite (when ../shared is there),
 * a production build, and the end-to-end tests in Debian's Chromium. Stops at the first failing step.
 */
import { spawn } from 'node:child_process';
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
/**
 * Each step is a list of lanes run side by side; a lane's commands run one after the other. Lanes pair work that
 * leaves a core idle (ESLint and the type checker are single-threaded; the build waits on no test), so the machine's
 * two cores are both busy.
 */
const steps = [
  [
    'lint, format and typecheck',
    [
      ['npm', 'run', 'lint'],
      ['npm', 'run', 'format:check'],
    ],
    [['npm', 'run', 'typecheck']],
  ],
  ['unit tests', [['npx', 'vitest', 'run', '--project', 'unit']]],
  ['server integration tests', [['npx', 'vitest', 'run', '--project', 'server']]],
  ['corpus suite and production build', [['npx', 'vitest', 'run', '--project', 'corpus']], [['npm', 'run', 'build']]],
  ['end-to-end tests', [['npx', 'playwright', 'test']]],
];
if (!existsSync(path.join(corpus, 'manifest.json'))) {
  console.log(`\n(corpus folder ${corpus} not found: the corpus tests will say they were not run)`);
}

/** Runs one command; resolves with its exit status. */
function run([command, ...args]) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      stdio: 'inherit',
      env: { ...process.env, CHROMIUM_PATH: chromium, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
    });
    child.on('error', () => resolve(1));
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

/** Runs a lane's commands in order; resolves with the first failing status, or 0. */
async function runLane(commands) {
  for (const command of commands) {
    const status = await run(command);
    if (status !== 0) return status;
  }
  return 0;
}

for (const [name, ...lanes] of steps) {
  console.log(`\n▶ ${name}`);
  const statuses = await Promise.all(lanes.map(runLane));
  const failed = statuses.find((status) => status !== 0);
  if (failed !== undefined) {
    console.error(`\n✘ ${name} failed`);
    process.exit(failed);
  }
}
console.log('\n✔ all tests passed');
