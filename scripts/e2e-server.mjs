// Starts the server for the end-to-end tests on a fresh data folder (the UI must be built already). Its log goes to
// E2E_SERVER_LOG, where the failure reporter reads what the server did while a failed test ran.
import { createWriteStream, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { serverNodeArgs } from './serverNode.mjs';

rmSync(process.env.DATA_DIR, { recursive: true, force: true });
const child = spawn(process.execPath, serverNodeArgs(), {
  stdio: ['ignore', 'pipe', 'inherit'],
  env: { ...process.env, LOG_LEVEL: 'debug' },
});
// A fresh clone has no test-results folder yet.
mkdirSync(path.dirname(process.env.E2E_SERVER_LOG), { recursive: true });
child.stdout.pipe(createWriteStream(process.env.E2E_SERVER_LOG));
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
