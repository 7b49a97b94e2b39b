import { setFlagsFromString } from 'node:v8';
import { loadConfig } from './config.ts';
import { createLogger } from './logging.ts';
import { createServer } from './start.ts';

// V8 lets the old generation grow to about four times what survives a full collection before the next one; rows
// streamed through an upload survive a young collection or two while they wait for the database, so a 1,000,000-row
// upload held 338 MB. Twice (100 %) keeps it at 258 MB; 1.5 times (242 MB) made the full collections of a busy
// instance's caches frequent enough to triple the browsing p95 of `npm run load` (docs/benchmarks.md).
setFlagsFromString('--heap-growing-percent=100');
// The young generation's size cannot be set from here (the heap is sized already): it is on the command line,
// scripts/serverNode.mjs.

const config = loadConfig();
const server = await createServer(config, { logger: createLogger(config.logLevel) });
await server.app.listen({ port: config.port, host: config.host });
server.ctx.checks.warm();

const where = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PostgreSQL in ${config.dataDir}/db`;
console.log(`Terrain is running on http://localhost:${config.port} — database: ${where}`);
if (server.admin?.generatedPassword) {
  console.log(
    `Platform administrator created. Sign in with login "${server.admin.login}" and password "${server.admin.generatedPassword}"`,
  );
  console.log(`(shown once; also written to ${server.admin.credentialsFile}, readable by you only)`);
} else if (server.admin) {
  console.log(`Platform administrator "${server.admin.login}" created from TERRAIN_ADMIN_* settings.`);
} else {
  console.log('Sign in with your platform administrator account (see data/admin-credentials.txt if it was generated).');
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void server.close().finally(() => process.exit(0));
  });
}
