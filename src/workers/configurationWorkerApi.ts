import type { ConfigurationResult } from '../domain/configuration';

/**
 * What the configuration worker offers the page; through `Comlink.wrap<ConfigurationWorkerApi>` every call returns
 * a promise. The result is plain data (the model or the error list) and crosses the worker boundary as it is.
 */
export interface ConfigurationWorkerApi {
  validateConfiguration(bytes: Uint8Array, fileName: string): ConfigurationResult;
}
