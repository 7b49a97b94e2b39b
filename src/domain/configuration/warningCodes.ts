import type { DomainError } from '../errors';

/**
 * Codes of the configuration warnings: layouts the original accepts that Terrain reads too, saying how, and rules
 * that are accepted but will not act. They are Terrain's own (the original has no warnings) and never block: a
 * configuration with warnings only is valid.
 */
export const CONFIGURATION_WARNING_CODES = [
  'CHECKER_IGNORED_UNDER_EXPORT_HEADER',
  'PART_KEYS_READ_BESIDE_NAME',
  'PART_KEYS_READ_FROM_LIST',
  'ADJACENT_DEFAULT_VALUE_IGNORED',
  'VALIDATION_WITHOUT_COMPONENTS',
  'REFERENCE_LISTED_BUT_NOT_READ',
  'EXPRESSION_NAME_UNKNOWN',
] as const;

export type ConfigurationWarningCode = (typeof CONFIGURATION_WARNING_CODES)[number];

/** A configuration warning: located like an error, `path` always set. */
export interface ConfigurationWarning extends DomainError<ConfigurationWarningCode> {
  path: string;
}
