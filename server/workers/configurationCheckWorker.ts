/**
 * The worker thread that validates configurations for the server, with the engine the browser's worker uses
 * (`src/workers/configuration.worker.ts`). One call validates one file; its time is bounded by the pool's
 * watchdog, which stops the thread (validation has no point between two steps where it could stop itself).
 */
import { validateConfiguration } from '../../src/domain/configuration/index.ts';
import type { ConfigurationCheckApi } from './configurationCheckApi.ts';
import { serveHandlers } from './serveHandlers.ts';

const handlers: ConfigurationCheckApi = { validate: validateConfiguration };

serveHandlers(handlers);
