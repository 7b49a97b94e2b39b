import type { MessageDescriptor } from '@lingui/core';
import type { ConfigurationErrorCode } from '../../domain/configuration/errorCodes';

/**
 * Texts of the configuration error codes (`configurationError.<CODE>`), English as the source language; French in
 * `locales/fr/errors.po`. Plain descriptors marked with i18n comments, so that `lingui extract` collects them and
 * they work without the macro in the worker, the server and tests. Lists in params are shown joined by commas:
 * give `i18n._` the values of {@link configurationErrorValues}.
 */
export const configurationErrorMessages: Record<ConfigurationErrorCode, MessageDescriptor> = {
  EMPTY_FILE: /*i18n*/ { id: 'configurationError.EMPTY_FILE', message: 'The configuration file is empty.' },
  INVALID_CONFIGURATION_FILE: /*i18n*/ {
    id: 'configurationError.INVALID_CONFIGURATION_FILE',
    message:
      '{reason, select, notUtf8 {The file is not UTF-8 text (first wrong byte at offset {byteOffset}).} rootNotMap {The file does not describe a configuration: its top level must be a map of sections (OA_version, OA_application…).} tooLarge {The file is too large (at most {maxBytes} bytes).} tooManyNodes {The file expands to too many values (at most {maxNodes}); check its aliases.} tooDeep {The file nests too deeply (at most {maxDepth} levels).} tooManyAliases {The file uses too many aliases (at most {maxAliases}).} zipTooManyEntries {The archive holds too many files (at most {maxEntries}).} zipUnsafeEntry {The archive holds a file outside its own folder: {entry}.} zipTooLarge {The archive is too large once uncompressed (at most {maxUncompressedBytes} bytes).} zipEntrySizeMismatch {The file {entry} in the archive does not hold the {declaredBytes} bytes it declares: the archive is damaged or forged.} zipWithoutYaml {The archive holds no YAML file.} zipAmbiguousRoot {The archive holds several YAML files at its top ({files}) and none is named {expected}: rename to {expected} the one that holds OA_version and OA_application.} invalidZip {The archive cannot be read: {message}} other {The file cannot be read as a configuration.}}',
  },
  DUPLICATE_KEY: /*i18n*/ { id: 'configurationError.DUPLICATE_KEY', message: 'The same key appears twice in one map.' },
  UNEXPECTED_CHARACTER: /*i18n*/ {
    id: 'configurationError.UNEXPECTED_CHARACTER',
    message:
      '{kind, select, TAB_AS_INDENT {A tab is used to indent: YAML indents with spaces only.} BAD_DQ_ESCAPE {This escape sequence (after \\) is not valid in a text between double quotes.} other {Unexpected character: a value cannot start with this character; put the value between quotes.}}',
  },
  INVALID_TOKEN: /*i18n*/ {
    id: 'configurationError.INVALID_TOKEN',
    message:
      '{kind, select, BAD_ALIAS {The YAML is not well formed: the alias *{alias} names no anchor defined before it.} NON_STRING_KEY {The YAML is not well formed: a map key must be a plain text.} BAD_INDENT {The YAML is not well formed: the indentation is wrong here.} MULTIPLE_DOCS {The YAML is not well formed: the file holds several documents (---), a configuration is one document.} BLOCK_AS_IMPLICIT_KEY {The YAML is not well formed: a key cannot be a list or a map; is a colon missing, or an indentation wrong?} MULTILINE_IMPLICIT_KEY {The YAML is not well formed: a key cannot span several lines; is a colon or a quote missing?} KEY_OVER_1024_CHARS {The YAML is not well formed: a key is longer than 1024 characters.} MISSING_CHAR {The YAML is not well formed: a character is missing here (a comma, a colon or a closing bracket).} TAG_RESOLVE_FAILED {The YAML is not well formed: this tag (!!…) is not known.} BLOCK_IN_FLOW {The YAML is not well formed: a block cannot stand between brackets or braces.} other {The YAML is not well formed here.}}',
  },
  UNEXPECTED_EOF: /*i18n*/ {
    id: 'configurationError.UNEXPECTED_EOF',
    message: 'The file ends too early: a value, a closing bracket or a closing brace is missing.',
  },
  MALFORMED_NUMBER: /*i18n*/ {
    id: 'configurationError.MALFORMED_NUMBER',
    message: '{tag, select, int {This value is not a valid integer.} other {This value is not a valid number.}}',
  },
  UNTERMINATED_STRING: /*i18n*/ {
    id: 'configurationError.UNTERMINATED_STRING',
    message: 'A text between quotes is never closed.',
  },
  MALFORMED_COMMENT: /*i18n*/ {
    id: 'configurationError.MALFORMED_COMMENT',
    message: 'A comment (#) must be preceded by a space.',
  },
  UNKNOWN: /*i18n*/ {
    id: 'configurationError.UNKNOWN',
    message:
      '{reason, select, invalidRegularExpression {The regular expression {pattern} is not valid: {message}} other {The file cannot be read: {message}}}',
  },
  MISSING_VERSION_APPLICATION: /*i18n*/ {
    id: 'configurationError.MISSING_VERSION_APPLICATION',
    message: 'The root OA_version is missing: it must be {expectedVersion}.',
  },
  UNSUPPORTED_OPENADOM_VERSION: /*i18n*/ {
    id: 'configurationError.UNSUPPORTED_OPENADOM_VERSION',
    message: 'The configuration format version {actualVersion} is not supported: it must be {expectedVersion}.',
  },
  EXISTING_OPENADOM_VERSION: /*i18n*/ {
    id: 'configurationError.EXISTING_OPENADOM_VERSION',
    message: 'This configuration version already exists.',
  },
  MISSING_OA_APPLICATION: /*i18n*/ {
    id: 'configurationError.MISSING_OA_APPLICATION',
    message: 'The OA_application section is missing.',
  },
  MISSING_NAME_APPLICATION: /*i18n*/ {
    id: 'configurationError.MISSING_NAME_APPLICATION',
    message: 'The application name (OA_application > OA_name) is missing.',
  },
  UNSUPPORTED_NAME_APPLICATION: /*i18n*/ {
    id: 'configurationError.UNSUPPORTED_NAME_APPLICATION',
    message:
      'The application name {nameApplication} is not valid: 2 to 40 characters, a lowercase letter first, then lowercase letters, digits or _.',
  },
  UNSUPPORTED_VERSION_APPLICATION: /*i18n*/ {
    id: 'configurationError.UNSUPPORTED_VERSION_APPLICATION',
    message: 'This application version is not accepted.',
  },
  BAD_VERSION_PATTERN: /*i18n*/ {
    id: 'configurationError.BAD_VERSION_PATTERN',
    message: 'The application version {givenVersion} is not valid: numbers separated by dots, such as 1.0.5.',
  },
  UNEXPECTED_SECTIONS: /*i18n*/ {
    id: 'configurationError.UNEXPECTED_SECTIONS',
    message: 'Unexpected key(s) {unexpectedSections}. Expected: {expectedSections}.',
  },
  UNEXPECTED_SECTION_WITH_APPROACHING_LABEL_SECTION: /*i18n*/ {
    id: 'configurationError.UNEXPECTED_SECTION_WITH_APPROACHING_LABEL_SECTION',
    message: 'Unexpected key {unexpectedSection}: did you mean {approachingSection}?',
  },
  MISSING_MANDATORIES_SECTIONS: /*i18n*/ {
    id: 'configurationError.MISSING_MANDATORIES_SECTIONS',
    message: 'Mandatory key(s) missing: {missingMandatoriesSections}.',
  },
  MISSING_ANY_MANDATORIES_SECTIONS: /*i18n*/ {
    id: 'configurationError.MISSING_ANY_MANDATORIES_SECTIONS',
    message: 'At least one of these keys is needed: {anyMandatorySections}.',
  },
  MISSING_REQUIRED_VALUE: /*i18n*/ {
    id: 'configurationError.MISSING_REQUIRED_VALUE',
    message: 'A value is required here.',
  },
  MISSING_REQUIRED_ENUM_VALUE: /*i18n*/ {
    id: 'configurationError.MISSING_REQUIRED_ENUM_VALUE',
    message: 'A value is required here, one of: {acceptedValues}.',
  },
  BAD_ENUM_SECTION_TYPE: /*i18n*/ {
    id: 'configurationError.BAD_ENUM_SECTION_TYPE',
    message: '{givenValue} is not allowed here. Allowed values: {acceptedValues}.',
  },
  BAD_BOOLEAN_REQUIRED_SECTIONS: /*i18n*/ {
    id: 'configurationError.BAD_BOOLEAN_REQUIRED_SECTIONS',
    message: '{givenValue} is not a boolean: write true or false.',
  },
  BAD_INTEGER_REQUIRED_SECTIONS: /*i18n*/ {
    id: 'configurationError.BAD_INTEGER_REQUIRED_SECTIONS',
    message:
      '{reason, select, belowMinimum {{givenValue} is too small here: at least {minValue}.} other {{givenValue} is not a whole number.}}',
  },
  BAD_FLOAT_REQUIRED_SECTIONS: /*i18n*/ {
    id: 'configurationError.BAD_FLOAT_REQUIRED_SECTIONS',
    message: '{givenValue} is not a number.',
  },
  NULL_REQUIRED_SECTIONS: /*i18n*/ {
    id: 'configurationError.NULL_REQUIRED_SECTIONS',
    message: 'This section may not be empty.',
  },
  BAD_ARRAY_REQUIRED_SECTIONS: /*i18n*/ {
    id: 'configurationError.BAD_ARRAY_REQUIRED_SECTIONS',
    message: 'A list is expected here.',
  },
  BAD_OBJECT_REQUIRED_SECTIONS: /*i18n*/ {
    id: 'configurationError.BAD_OBJECT_REQUIRED_SECTIONS',
    message:
      '{expectedType, select, map {A map of keys is expected here, not {givenValue}.} other {A single value is expected here, not {givenValue}.}}',
  },
  EMPTY_ARRAY: /*i18n*/ { id: 'configurationError.EMPTY_ARRAY', message: 'This list may not be empty.' },
  EXPECTED_ARRAY: /*i18n*/ {
    id: 'configurationError.EXPECTED_ARRAY',
    message: 'A list is expected here, such as [a, b], not {givenValue}.',
  },
  INVALID_IDENTIFICATEURS: /*i18n*/ {
    id: 'configurationError.INVALID_IDENTIFICATEURS',
    message:
      'Invalid name(s) {invalidIdentificateurs}: 2 to 50 characters, a lowercase letter first, then letters, digits or _.',
  },
  BAD_LOCALE_LABELS: /*i18n*/ {
    id: 'configurationError.BAD_LOCALE_LABELS',
    message: 'These keys are not language codes: {badLocalLabels}.',
  },
  BAD_LOCALE_SECTION_TYPE: /*i18n*/ {
    id: 'configurationError.BAD_LOCALE_SECTION_TYPE',
    message: 'The text for language {locale} must be a plain text.',
  },
  BAD_LOCALE: /*i18n*/ {
    id: 'configurationError.BAD_LOCALE',
    message: '{locale} is not a language code (such as fr or en).',
  },
  UNSUPORTED_I18N_KEY_LANGUAGE: /*i18n*/ {
    id: 'configurationError.UNSUPORTED_I18N_KEY_LANGUAGE',
    message: '{locale} is not a language code (such as fr or en).',
  },
  BAD_DOMAIN_TAG_PATTERN: /*i18n*/ {
    id: 'configurationError.BAD_DOMAIN_TAG_PATTERN',
    message:
      'The tag name {tagName} is not valid: lowercase letters, digits and _, starting with a letter and not ending with _ (pattern {domainTagPattern}). No declared tag is taken into account until it is fixed.',
  },
  ILLEGAL_DOMAIN_TAG_PATTERN: /*i18n*/ {
    id: 'configurationError.ILLEGAL_DOMAIN_TAG_PATTERN',
    message:
      'Reserved tags cannot be declared as domain tags ({reservedTagNames}); a domain tag must match {expectedPattern}.',
  },
  NOT_EXPECTED_DOMAIN_TAGS: /*i18n*/ {
    id: 'configurationError.NOT_EXPECTED_DOMAIN_TAGS',
    message: 'Undeclared tag(s) {notExpectedDomainTags}. Declared tags: {expectedDomainTags}.',
  },
  BAD_TAGS_PATTERNS: /*i18n*/ {
    id: 'configurationError.BAD_TAGS_PATTERNS',
    message: 'The tag {badTag} is neither declared nor reserved. Accepted: {acceptedTagPatterns}.',
  },
  RESERVED_TAG_NAME: /*i18n*/ { id: 'configurationError.RESERVED_TAG_NAME', message: 'This tag name is reserved.' },
  BAD_ORDER_TAG_PATTERN: /*i18n*/ {
    id: 'configurationError.BAD_ORDER_TAG_PATTERN',
    message: 'The order tag must be written __ORDER_<number>__.',
  },
  BAD_ORDER_FOR_ORDER_TAG: /*i18n*/ {
    id: 'configurationError.BAD_ORDER_FOR_ORDER_TAG',
    message: 'The order of this order tag is not valid.',
  },
  INVALID_NATURAL_KEY: /*i18n*/ {
    id: 'configurationError.INVALID_NATURAL_KEY',
    message:
      'The natural key names unknown component(s) {invalidNaturalKeyElements}. Components: {expectedComponentLabel}.',
  },
  MISSING_COMPONENT_FOR_NATURAL_KEY_COMPUTATION: /*i18n*/ {
    id: 'configurationError.MISSING_COMPONENT_FOR_NATURAL_KEY_COMPUTATION',
    message: 'Unknown component(s) {missingComponents} in OA_withNaturalKeyComponents. Components: {knownComponents}.',
  },
  DUPLICATED_COMPONENT_NAME: /*i18n*/ {
    id: 'configurationError.DUPLICATED_COMPONENT_NAME',
    message: 'The same component name is declared twice: {duplicatedPathes}.',
  },
  DUPLICATED_COMPONENT_HEADER: /*i18n*/ {
    id: 'configurationError.DUPLICATED_COMPONENT_HEADER',
    message: 'In {data}, the components {duplicatedImportHeader} all read the column {duplicatedHeader}.',
  },
  DUPLICATED_COMPONENT_HEADER_IN_PATTERN_COMPONENT: /*i18n*/ {
    id: 'configurationError.DUPLICATED_COMPONENT_HEADER_IN_PATTERN_COMPONENT',
    message:
      'In {data}, the pattern component {patternComponent} uses the name {qualifierName} twice: {duplicatedPathes}.',
  },
  MISSING_IMPORT_HEADER_PATTERN: /*i18n*/ {
    id: 'configurationError.MISSING_IMPORT_HEADER_PATTERN',
    message: 'The adjacent column {adjacentName} needs an OA_importHeaderPattern.',
  },
  MISSING_CONSTANT_IMPORT_HEADER_ROW_NUMBER: /*i18n*/ {
    id: 'configurationError.MISSING_CONSTANT_IMPORT_HEADER_ROW_NUMBER',
    message: 'The constant needs the line number of its cell (OA_rowNumber).',
  },
  NEGATIVE_CONSTANT_IMPORT_HEADER_ROW_NUMBER: /*i18n*/ {
    id: 'configurationError.NEGATIVE_CONSTANT_IMPORT_HEADER_ROW_NUMBER',
    message: 'The line number {givenRowNumber} must be 1 or more.',
  },
  NEGATIVE_CONSTANT_IMPORT_HEADER_COLUMN_NUMBER: /*i18n*/ {
    id: 'configurationError.NEGATIVE_CONSTANT_IMPORT_HEADER_COLUMN_NUMBER',
    message: 'The column number {givenColumnNumber} must be 1 or more.',
  },
  BAD_CONSTANT_IMPORT_HEADER_ROW_NUMBER: /*i18n*/ {
    id: 'configurationError.BAD_CONSTANT_IMPORT_HEADER_ROW_NUMBER',
    message: "The constant's line {givenRowNumber} must come before the first data line ({firstRowLine}).",
  },
  MISSING_CONSTANT_IMPORT_HEADER_COLUMN_NUMBER: /*i18n*/ {
    id: 'configurationError.MISSING_CONSTANT_IMPORT_HEADER_COLUMN_NUMBER',
    message:
      'Line {givenRowNumber} is above the header (line {headerLine}): its cell needs a column number, not the column name {columnName}.',
  },
  MISSING_CONSTANT_IMPORT_HEADER_COLUMN_OR_ROW_NUMBER: /*i18n*/ {
    id: 'configurationError.MISSING_CONSTANT_IMPORT_HEADER_COLUMN_OR_ROW_NUMBER',
    message: 'The constant needs a column number or a column name.',
  },
  MISSING_CHECKER_NAME: /*i18n*/ {
    id: 'configurationError.MISSING_CHECKER_NAME',
    message: 'The checker has no name (OA_name). Checkers: {acceptedCheckerNames}.',
  },
  UNKNOWN_CHECKER_NAME: /*i18n*/ {
    id: 'configurationError.UNKNOWN_CHECKER_NAME',
    message: 'Unknown checker {checkerName}. Checkers: {acceptedCheckerNames}.',
  },
  MISSING_REFERENCE_NAME: /*i18n*/ {
    id: 'configurationError.MISSING_REFERENCE_NAME',
    message: 'The name of the reference is missing. Data: {allDataNames}.',
  },
  UNKNOWN_REFERENCE_NAME: /*i18n*/ {
    id: 'configurationError.UNKNOWN_REFERENCE_NAME',
    message: '{referenceName} is not a data entry of this configuration. Data: {allDataNames}.',
  },
  MISSING_REFERENCE_AND_COMPONENT_NAME: /*i18n*/ {
    id: 'configurationError.MISSING_REFERENCE_AND_COMPONENT_NAME',
    message:
      'The scope needs a reference (OA_reference) and a component (OA_component). Data: {allDataNames}; components: {knownComponents}.',
  },
  UNKNOWN_REFERENCE_COLUMN_TO_LOOK_FOR_HEADER: /*i18n*/ {
    id: 'configurationError.UNKNOWN_REFERENCE_COLUMN_TO_LOOK_FOR_HEADER',
    message:
      'The reference {referenceName} has no component {columnNameReference}. Its components: {listColumnsNameReference}.',
  },
  MISSING_PATTERN_FOR_CHECKER_DATE: /*i18n*/ {
    id: 'configurationError.MISSING_PATTERN_FOR_CHECKER_DATE',
    message: 'A date checker needs a pattern (OA_pattern), such as dd/MM/yyyy.',
  },
  INVALID_PATTERN_FOR_CHECKER_DATE: /*i18n*/ {
    id: 'configurationError.INVALID_PATTERN_FOR_CHECKER_DATE',
    message:
      '{reason, select, tooLong {The date pattern is {length} characters long: at most {maxLength} are accepted.} other {The date pattern {badPattern} is not valid: {message}}}',
  },
  INVALID_MIN_MAX_FOR_CHECKER_DATE: /*i18n*/ {
    id: 'configurationError.INVALID_MIN_MAX_FOR_CHECKER_DATE',
    message:
      'The date bounds (min {declaredMinValue}, max {declaredMaxValue}) must be written with the pattern {declaredPattern}.',
  },
  INVALID_DURATION_CHECKER_DATE: /*i18n*/ {
    id: 'configurationError.INVALID_DURATION_CHECKER_DATE',
    message:
      '{reason, select, textTooLong {The duration is written in {length} characters: at most {maxLength} are accepted.} spanTooLong {The duration {declaredDuration} spans more than {maxYears} years, the longest period a date may stand for.} other {The duration {declaredDuration} is not valid: write for example 1 month, 30 minutes or 1 day 12 hours.}}',
  },
  BAD_GROOVY_EXPRESSION: /*i18n*/ {
    id: 'configurationError.BAD_GROOVY_EXPRESSION',
    message:
      'The expression does not compile (line {expressionLine}, column {expressionColumn} of the expression): {message}',
  },
  MISSING_COLUMN_NAME_VALIDATION: /*i18n*/ {
    id: 'configurationError.MISSING_COLUMN_NAME_VALIDATION',
    message: 'The validation {validationName} must list the components it checks (OA_components).',
  },
  MISSING_COMPONENT_FOR_COMPONENT_NAME: /*i18n*/ {
    id: 'configurationError.MISSING_COMPONENT_FOR_COMPONENT_NAME',
    message: 'A component name is required here. Components: {knownComponents}.',
  },
  UNKNOWN_COMPONENT_FOR_COMPONENT_NAME: /*i18n*/ {
    id: 'configurationError.UNKNOWN_COMPONENT_FOR_COMPONENT_NAME',
    message: '{unknownComponent} is not a suitable component here. Components: {knownComponents}.',
  },
  MISSING_COMPONENT_FOR_DISPLAY_PATTERN: /*i18n*/ {
    id: 'configurationError.MISSING_COMPONENT_FOR_DISPLAY_PATTERN',
    message: 'The display pattern uses {badGroup}, which is not a component. Components: {expectedComponent}.',
  },
  UNEXPECTED_SUBMISSION: /*i18n*/ {
    id: 'configurationError.UNEXPECTED_SUBMISSION',
    message: 'Versioned deposits (OA_VERSIONING) are for data types only: add __DATA__ to the tags of this entry.',
  },
  UNKNOWN_STRATEGY_SUBMISSION: /*i18n*/ {
    id: 'configurationError.UNKNOWN_STRATEGY_SUBMISSION',
    message: 'The strategy must be one of {allStrategy}.',
  },
  MISSING_COMPONENT_FOR_TIMESCOPE_SUBMISSION: /*i18n*/ {
    id: 'configurationError.MISSING_COMPONENT_FOR_TIMESCOPE_SUBMISSION',
    message: 'The time scope needs a date component (OA_component). Date components: {knownComponents}.',
  },
  UNKNOWN_NAME_REFERENCE_SCOPE: /*i18n*/ {
    id: 'configurationError.UNKNOWN_NAME_REFERENCE_SCOPE',
    message:
      '{unknownAuthorizationScope} is not a scope of the deposit. Scopes: {knownAuthorizationScope}, __START_DATE__, __END_DATE__.',
  },
  INVALID_COMPONENT_REFERENCE_FOR_SUBMISSION_SCOPE_REFERENCE: /*i18n*/ {
    id: 'configurationError.INVALID_COMPONENT_REFERENCE_FOR_SUBMISSION_SCOPE_REFERENCE',
    message: 'The scope names the reference {componentReference}, but its component refers to {submissionReference}.',
  },
  UNDEFINED_COMPONENT_FOR_REFERENCE_SCOPE_AUTHORIZATION: /*i18n*/ {
    id: 'configurationError.UNDEFINED_COMPONENT_FOR_REFERENCE_SCOPE_AUTHORIZATION',
    message: 'The component of this scope is not defined.',
  },
  INVALID_COMPONENT_REFERENCE_FOR_AUTHORIZATION_SCOPE_COMPONENT_NAME: /*i18n*/ {
    id: 'configurationError.INVALID_COMPONENT_REFERENCE_FOR_AUTHORIZATION_SCOPE_COMPONENT_NAME',
    message:
      'The scope component {component} must have a reference checker. Components with one: {referenceComponents}.',
  },
  INVALID_COMPONENT_DATE_FOR_TIMESCOPE_COMPONENT_NAME: /*i18n*/ {
    id: 'configurationError.INVALID_COMPONENT_DATE_FOR_TIMESCOPE_COMPONENT_NAME',
    message: 'The time scope component {component} must have a date checker. Date components: {dateComponents}.',
  },
  ADDING_AUTHORIZATION_SCOPE_ATTRIBUTES_ERROR: /*i18n*/ {
    id: 'configurationError.ADDING_AUTHORIZATION_SCOPE_ATTRIBUTES_ERROR',
    message: 'The new authorization scopes {newIdentifiers} could not be added: {message}',
  },
  REMOVING_AUTHORIZATION_SCOPE_ATTRIBUTES_ERROR: /*i18n*/ {
    id: 'configurationError.REMOVING_AUTHORIZATION_SCOPE_ATTRIBUTES_ERROR',
    message: 'Authorization scopes cannot be removed from an existing application: {removedIdentifiers}.',
  },
  DUPLICATED_REFERENCE_IN_HIERARCHIC_DEPENDENCIES: /*i18n*/ {
    id: 'configurationError.DUPLICATED_REFERENCE_IN_HIERARCHIC_DEPENDENCIES',
    message: "These references are each other's parents: {cycle}.",
  },
  DUPLICATED_REFERENCE_IN_DEPENDENCIES: /*i18n*/ {
    id: 'configurationError.DUPLICATED_REFERENCE_IN_DEPENDENCIES',
    message: 'These data entries depend on each other, so none can be loaded first: {cycle}.',
  },
  TOO_MANY_DATA_ENTRIES: /*i18n*/ {
    id: 'configurationError.TOO_MANY_DATA_ENTRIES',
    message: 'The configuration holds {count} data entries: at most {max} are accepted.',
  },
  IO_EXCEPTION: /*i18n*/ { id: 'configurationError.IO_EXCEPTION', message: 'The file could not be read: {message}' },
};

/** The values a message interpolates: params with lists joined, plus where the error is. */
export function configurationErrorValues(error: {
  params: Record<string, unknown>;
  path?: string;
  line?: number;
  column?: number;
  file?: string;
}): Record<string, unknown> {
  const values: Record<string, unknown> = {
    path: error.path ?? '',
    line: error.line,
    column: error.column,
    file: error.file,
  };
  for (const [key, value] of Object.entries(error.params)) {
    values[key] = Array.isArray(value)
      ? value.join(', ')
      : value === null || value === undefined
        ? ''
        : typeof value === 'object'
          ? JSON.stringify(value)
          : value;
  }
  return values;
}
