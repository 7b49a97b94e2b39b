import type { MessageDescriptor } from '@lingui/core';
import type { ConfigurationWarningCode } from '../../domain/configuration/warningCodes';

/**
 * Texts of the configuration warning codes (`configurationWarning.<CODE>`), English as the source language; French
 * in `locales/fr/errors.po`. Built like the error texts (`configurationErrors.ts`), and given the same values.
 */
export const configurationWarningMessages: Record<ConfigurationWarningCode, MessageDescriptor> = {
  CHECKER_IGNORED_UNDER_EXPORT_HEADER: /*i18n*/ {
    id: 'configurationWarning.CHECKER_IGNORED_UNDER_EXPORT_HEADER',
    message:
      'An OA_checker is indented under OA_exportHeader, where it is not read (as in OpenADOM): it checks nothing. To check the values with it, indent it one level less, beside OA_exportHeader.',
  },
  PART_KEYS_READ_BESIDE_NAME: /*i18n*/ {
    id: 'configurationWarning.PART_KEYS_READ_BESIDE_NAME',
    message: 'The keys written beside {name} (instead of under it) were read as its own. Indent them under {name}.',
  },
  PART_KEYS_READ_FROM_LIST: /*i18n*/ {
    id: 'configurationWarning.PART_KEYS_READ_FROM_LIST',
    message:
      'The keys of {name} are written as a list (- OA_…): they were read as its own. Write them as a map, without the dashes.',
  },
  ADJACENT_DEFAULT_VALUE_IGNORED: /*i18n*/ {
    id: 'configurationWarning.ADJACENT_DEFAULT_VALUE_IGNORED',
    message:
      'The adjacent column {adjacentName} has an OA_defaultValue: adjacent columns have no default value, it is ignored.',
  },
  VALIDATION_WITHOUT_COMPONENTS: /*i18n*/ {
    id: 'configurationWarning.VALIDATION_WITHOUT_COMPONENTS',
    message: 'The rule {validationName} lists no component (OA_components) and will not run.',
  },
  REFERENCE_LISTED_BUT_NOT_READ: /*i18n*/ {
    id: 'configurationWarning.REFERENCE_LISTED_BUT_NOT_READ',
    message:
      'OA_references lists {referenceName}, but the expression never reads references.{referenceName}: the listing only makes this data depend on {referenceName}.',
  },
  EXPRESSION_NAME_UNKNOWN: /*i18n*/ {
    id: 'configurationWarning.EXPRESSION_NAME_UNKNOWN',
    message:
      'The expression reads {name} (line {expressionLine}, column {expressionColumn}), which is neither one of its variables nor of its context (datum, references, …): the configuration is accepted, as the original accepts it, but every line that reaches it will be refused.',
  },
};
