/**
 * The pre-commit check (`.githooks/pre-commit`): Prettier and ESLint on the files a commit adds or changes, so a
 * format or architecture slip is caught before CI, in seconds rather than the minutes of `npm run lint` on the
 * whole package. The files are checked as they are on disk: a file staged only in part is checked whole.
 */
import { spawnSync } from 'node:child_process';

const LINTED = /\.(ts|tsx|js|mjs)$/;

const staged = spawnSync('git', ['diff', '--cached', '--name-only', '--diff-filter=ACMR', '-z'], { encoding: 'utf8' });
if (staged.status !== 0) {
  console.error(staged.stderr);
  process.exit(1);
}
const files = staged.stdout.split('\0').filter(Boolean);

/** Runs a tool of node_modules/.bin on the files; answers whether it passed. */
function check(tool, args, paths) {
  if (paths.length === 0) return true;
  return spawnSync('npx', ['--no-install', tool, ...args, ...paths], { stdio: 'inherit' }).status === 0;
}

// Both run even when the first fails: one commit attempt shows every problem.
const formatted = check('prettier', ['--check', '--ignore-unknown'], files);
const linted = check(
  'eslint',
  ['--no-warn-ignored'],
  files.filter((file) => LINTED.test(file)),
);
if (!formatted || !linted) {
  if (!formatted) console.error('\npre-commit: `npx prettier --write <files>` formats the files listed above.');
  console.error('pre-commit: the commit is refused; `git commit --no-verify` skips the check.');
  process.exit(1);
}
