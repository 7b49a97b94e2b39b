/**
 * The configuration engine: reads an OpenADOM v2 configuration (one YAML file or a zip of YAML files), validates
 * the whole format and returns either the application model or every problem, located in the source. The same
 * code runs in the browser worker (the "Test" button, offline) and on the server.
 */
import { compileExpression } from '../expressions';
import { createConfigurationValidator, type ConfigurationResult } from './validateConfiguration';

export type { ConfigurationResult } from './validateConfiguration';
export type * from './model';
export { DEFAULT_ORDER } from './model';
export { CONFIGURATION_ERROR_CODES, configurationMessageKey, isConfigurationErrorCode } from './errorCodes';
export type { ConfigurationError, ConfigurationErrorCode } from './errorCodes';
export { CONFIGURATION_WARNING_CODES } from './warningCodes';
export type { ConfigurationWarning, ConfigurationWarningCode } from './warningCodes';
export { serializeModel, deserializeModel } from './serializeModel';
export { readConfigurationDocument } from './readConfiguration';
export { compileJavaDatePattern } from './javaDatePattern';
export type { JavaDatePattern, DatePatternCompilation } from './javaDatePattern';
export { parseDuration, addDuration } from './duration';
export type { DurationPart, DurationUnit } from './duration';
export { toIsoLocalDateTime, compareLocalDateTime } from './localDateTime';
export type { LocalDateTime } from './localDateTime';
export { ZIP_LIMITS } from './readZip';
export { YAML_LIMITS } from './readYaml';
export { createConfigurationValidator };

/** Validates the uploaded bytes of a configuration (`.yaml` or `.zip`) named `fileName`. */
export const validateConfiguration: (bytes: Uint8Array, fileName: string) => ConfigurationResult =
  createConfigurationValidator((source) => compileExpression(source, { unknownNames: 'defer' }));
