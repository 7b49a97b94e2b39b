/**
 * `npm run audit`: the packages the server and the UI ship with (`npm audit --omit=dev`) must have no high or
 * critical advisory. Fails when one is found. When the registry offers no audit service (mirrors often refuse
 * it), says plainly that the audit was NOT run and why, and does not fail: there is nothing to judge.
 */
import { spawnSync } from 'node:child_process';

const run = spawnSync('npm', ['audit', '--omit=dev', '--json'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
let report;
try {
  report = JSON.parse(run.stdout);
} catch {
  console.error(`npm audit gave no readable report (exit ${run.status}):\n${run.stdout}\n${run.stderr}`);
  process.exit(1);
}

const counts = report.metadata?.vulnerabilities;
if (!counts) {
  const why = report.message ?? report.error?.summary ?? 'no report';
  console.log(
    `npm audit NOT RUN: the registry's audit service did not answer (${why}). Run \`npm audit --omit=dev\` where it does.`,
  );
  process.exit(0);
}

const serious = Object.values(report.vulnerabilities ?? {}).filter(
  (v) => v.severity === 'high' || v.severity === 'critical',
);
console.log(
  `npm audit --omit=dev: ${['critical', 'high', 'moderate', 'low', 'info'].map((level) => `${counts[level] ?? 0} ${level}`).join(', ')}`,
);
for (const finding of serious) {
  const via = finding.via.map((v) => (typeof v === 'string' ? v : `${v.title} (${v.url})`)).join('; ');
  console.log(
    `  ${finding.severity}: ${finding.name} ${finding.range} — ${via}${finding.fixAvailable ? ' — a fix is available' : ''}`,
  );
}
process.exit(serious.length > 0 ? 1 : 0);
