import type { ConfigurationResult } from '../../src/domain/configuration/index.ts';

/** What the configuration worker (`configurationCheckWorker.ts`) answers: the browser's validation, as it is. */
export interface ConfigurationCheckApi {
  validate(bytes: Uint8Array, fileName: string): ConfigurationResult;
}
