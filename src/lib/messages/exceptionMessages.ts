import type { MessageDescriptor } from '@lingui/core';

/**
 * Texts of the codes the server answers with (`exceptionMessage.<code>`). Marked with i18n comments so that
 * `lingui extract` collects them without the macro: this module is plain data, usable anywhere.
 */
export const exceptionMessages: Record<string, MessageDescriptor> = {
  BAD_LOGIN_PASSWORD: /*i18n*/ {
    id: 'exceptionMessage.BAD_LOGIN_PASSWORD',
    message: 'The username or password is incorrect.',
  },
  BAD_LOGIN_OR_EMAIL_PASSWORD: /*i18n*/ {
    id: 'exceptionMessage.BAD_LOGIN_OR_EMAIL_PASSWORD',
    message: 'The login, e-mail or password is missing or incorrect.',
  },
  BAD_CURRENT_PASSWORD: /*i18n*/ {
    id: 'exceptionMessage.BAD_CURRENT_PASSWORD',
    message: 'Your current password is incorrect.',
  },
  BAD_PASSWORDS: /*i18n*/ {
    id: 'exceptionMessage.BAD_PASSWORDS',
    message: 'The new password is empty or differs from its confirmation.',
  },
  BAD_VALIDATION_KEY: /*i18n*/ {
    id: 'exceptionMessage.BAD_VALIDATION_KEY',
    message: 'This key is not valid. A new key has been sent to you by e-mail.',
  },
  EXPIRED_VALIDATION_KEY: /*i18n*/ {
    id: 'exceptionMessage.EXPIRED_VALIDATION_KEY',
    message: 'This key has expired. A new key has been sent to you by e-mail.',
  },
  INACTIVE_ACCOUNT: /*i18n*/ {
    id: 'exceptionMessage.INACTIVE_ACCOUNT',
    message: 'Your account is not activated yet. A new activation key has been sent to you by e-mail.',
  },
  PENDING_ACCOUNT: /*i18n*/ {
    id: 'exceptionMessage.PENDING_ACCOUNT',
    message: 'Your account is waiting for activation. A new activation key has been sent to you by e-mail.',
  },
  CLOSED_ACCOUNT: /*i18n*/ { id: 'exceptionMessage.CLOSED_ACCOUNT', message: 'This account is closed.' },
  INVALID_ACCOUNT: /*i18n*/ {
    id: 'exceptionMessage.INVALID_ACCOUNT',
    message: 'This login and this e-mail address do not belong to the same account.',
  },
  EXISTING_LOGIN: /*i18n*/ { id: 'exceptionMessage.EXISTING_LOGIN', message: 'This login is already used.' },
  EXISTING_EMAIL: /*i18n*/ {
    id: 'exceptionMessage.EXISTING_EMAIL',
    message: 'This e-mail address is already used by an account.',
  },
  EMAIL_UNCHANGED: /*i18n*/ { id: 'exceptionMessage.EMAIL_UNCHANGED', message: 'This is already your e-mail address.' },
  NO_PENDING_EMAIL_CHANGE: /*i18n*/ {
    id: 'exceptionMessage.NO_PENDING_EMAIL_CHANGE',
    message: 'No e-mail change is waiting for a key.',
  },
  STATE_ERROR: /*i18n*/ {
    id: 'exceptionMessage.STATE_ERROR',
    message: 'The account is in a state that does not allow this operation.',
  },
  INVALID_FIELDS: /*i18n*/ {
    id: 'exceptionMessage.INVALID_FIELDS',
    message: 'Some fields are not filled in correctly.',
  },
  BAD_LOGIN_FOR_ACTION: /*i18n*/ {
    id: 'exceptionMessage.BAD_LOGIN_FOR_ACTION',
    message: 'You may not do this for another account.',
  },
  UNKNOWN_USER: /*i18n*/ { id: 'exceptionMessage.UNKNOWN_USER', message: 'This user does not exist.' },
  UNKNOWN_USERS: /*i18n*/ {
    id: 'exceptionMessage.UNKNOWN_USERS',
    message: '{count, plural, one {This user does not exist: {users}.} other {These # users do not exist: {users}.}}',
  },
  NOT_AUTHENTICATED: /*i18n*/ {
    id: 'exceptionMessage.NOT_AUTHENTICATED',
    message: 'You are not signed in, or your session has expired.',
  },
  TOO_MANY_ATTEMPTS: /*i18n*/ {
    id: 'exceptionMessage.TOO_MANY_ATTEMPTS',
    message:
      'Too many failed attempts. Try again in {unit, select, seconds {{wait, plural, one {# second} other {# seconds}}} other {{wait, plural, one {# minute} other {# minutes}}}}.',
  },
  TOO_MANY_REQUESTS: /*i18n*/ {
    id: 'exceptionMessage.TOO_MANY_REQUESTS',
    message: 'Too many requests. Wait a few minutes before trying again.',
  },
  CSRF_REFUSED: /*i18n*/ {
    id: 'exceptionMessage.CSRF_REFUSED',
    message: 'This request comes from another site and was refused.',
  },
  PAYLOAD_TOO_LARGE: /*i18n*/ { id: 'exceptionMessage.PAYLOAD_TOO_LARGE', message: 'What you sent is too large.' },
  UNSUPPORTED_MEDIA_TYPE: /*i18n*/ {
    id: 'exceptionMessage.UNSUPPORTED_MEDIA_TYPE',
    message: 'This kind of content is not accepted here.',
  },
  BAD_REQUEST: /*i18n*/ { id: 'exceptionMessage.BAD_REQUEST', message: 'The request is not well formed.' },
  NOT_FOUND: /*i18n*/ { id: 'exceptionMessage.NOT_FOUND', message: 'Nothing was found at this address.' },
  INTERNAL_ERROR: /*i18n*/ {
    id: 'exceptionMessage.INTERNAL_ERROR',
    message: 'The server met an error. Try again later.',
  },
  NO_SUCH_APPLICATION: /*i18n*/ {
    id: 'exceptionMessage.NO_SUCH_APPLICATION',
    message: 'The application {name} does not exist.',
  },
  NO_RIGHT_FOR_APPLICATION_CREATION: /*i18n*/ {
    id: 'exceptionMessage.NO_RIGHT_FOR_APPLICATION_CREATION',
    message: 'You may not create an application named {name}.',
  },
  NO_RIGHT_FOR_APPLICATION_MANAGEMENT: /*i18n*/ {
    id: 'exceptionMessage.NO_RIGHT_FOR_APPLICATION_MANAGEMENT',
    message: 'You have no right to manage the application {name}.',
  },
  BAD_APPLICATION_NAME: /*i18n*/ {
    id: 'exceptionMessage.BAD_APPLICATION_NAME',
    message: 'The name {name} is not a valid application name.',
  },
  APPLICATION_EXISTS_ON_CREATION: /*i18n*/ {
    id: 'exceptionMessage.APPLICATION_EXISTS_ON_CREATION',
    message: 'An application named {name} already exists.',
  },
  APPLICATION_VERSION_EXISTS: /*i18n*/ {
    id: 'exceptionMessage.APPLICATION_VERSION_EXISTS',
    message: 'The application {name} already exists in version {version}.',
  },
  APPLICATION_CHANGED_MEANWHILE: /*i18n*/ {
    id: 'exceptionMessage.APPLICATION_CHANGED_MEANWHILE',
    message: 'The application was changed by someone else meanwhile; reload and try again.',
  },
  NO_SUCH_CONFIGURATION_VERSION: /*i18n*/ {
    id: 'exceptionMessage.NO_SUCH_CONFIGURATION_VERSION',
    message: 'The application {name} has no version {version}.',
  },
  BAD_CONFIGURATION_FILE_TYPE: /*i18n*/ {
    id: 'exceptionMessage.BAD_CONFIGURATION_FILE_TYPE',
    message: 'The file {fileName} is not a .yaml or .zip file.',
  },
  EMPTY_FILE: /*i18n*/ { id: 'exceptionMessage.EMPTY_FILE', message: 'The file is empty.' },
  MISSING_FILE: /*i18n*/ { id: 'exceptionMessage.MISSING_FILE', message: 'No file was sent.' },
  FILE_TOO_LARGE: /*i18n*/ {
    id: 'exceptionMessage.FILE_TOO_LARGE',
    message: 'The file is too large (at most {maxBytes} bytes).',
  },
  MULTIPART_REQUIRED: /*i18n*/ {
    id: 'exceptionMessage.MULTIPART_REQUIRED',
    message: 'A file upload form was expected.',
  },
  MALFORMED_MULTIPART: /*i18n*/ {
    id: 'exceptionMessage.MALFORMED_MULTIPART',
    message: 'The upload form could not be read (it was cut short or is malformed). Send it again.',
  },
  COMMENT_TOO_LONG: /*i18n*/ {
    id: 'exceptionMessage.COMMENT_TOO_LONG',
    message: 'The comment is too long (at most {max} characters).',
  },
  REMOVED_DATA_WITH_ROWS: /*i18n*/ {
    id: 'exceptionMessage.REMOVED_DATA_WITH_ROWS',
    message: 'The data {dataName} holds {rows} rows: it cannot be removed from the configuration.',
  },
  CHANGED_DATA_KIND_WITH_ROWS: /*i18n*/ {
    id: 'exceptionMessage.CHANGED_DATA_KIND_WITH_ROWS',
    message: 'The data {dataName} holds {rows} rows: it cannot change from {before} to {after}.',
  },
  REMOVED_COMPONENT_WITH_ROWS: /*i18n*/ {
    id: 'exceptionMessage.REMOVED_COMPONENT_WITH_ROWS',
    message: 'The component {component} of {dataName} holds values in {rows} rows: it cannot be removed.',
  },
  CHANGED_NATURAL_KEY_WITH_ROWS: /*i18n*/ {
    id: 'exceptionMessage.CHANGED_NATURAL_KEY_WITH_ROWS',
    message: 'The natural key of {dataName} cannot change while it holds {rows} rows.',
  },
  CHANGED_TIME_SCOPE_WITH_ROWS: /*i18n*/ {
    id: 'exceptionMessage.CHANGED_TIME_SCOPE_WITH_ROWS',
    message: 'The time scope of {dataName} cannot change while it holds {rows} rows: their periods depend on it.',
  },
  REMOVING_AUTHORIZATION_SCOPE_ATTRIBUTES_ERROR: /*i18n*/ {
    id: 'exceptionMessage.REMOVING_AUTHORIZATION_SCOPE_ATTRIBUTES_ERROR',
    message: 'The authorization scope {component} of {dataName} cannot be removed: data and rights depend on it.',
  },
  UPDATE_LOSES_DATA: /*i18n*/ {
    id: 'exceptionMessage.UPDATE_LOSES_DATA',
    message:
      'This update deletes stored data (rows of removed entries: {rows}; rows losing the values of removed components: {values}). Confirm the deletion to apply it.',
  },
  TERRAIN_ADMIN_REQUIRED_FOR_OPERATION: /*i18n*/ {
    id: 'exceptionMessage.TERRAIN_ADMIN_REQUIRED_FOR_OPERATION',
    message: 'Only the platform administrator may do this.',
  },
  CANT_SELF_REVOKE_ADMIN: /*i18n*/ {
    id: 'exceptionMessage.CANT_SELF_REVOKE_ADMIN',
    message: 'You cannot remove your own platform administrator role.',
  },
  CANT_SELF_REVOKE_APPLICATION_ROLE: /*i18n*/ {
    id: 'exceptionMessage.CANT_SELF_REVOKE_APPLICATION_ROLE',
    message: 'You cannot remove your own role {role}.',
  },
  BAD_APPLICATION_PATTERN: /*i18n*/ {
    id: 'exceptionMessage.BAD_APPLICATION_PATTERN',
    message: '{pattern} is not a valid regular expression.',
  },
  MISSING_APPLICATION: /*i18n*/ {
    id: 'exceptionMessage.MISSING_APPLICATION',
    message: 'The role {role} needs an application.',
  },
  IDEMPOTENCY_KEY_REUSED: /*i18n*/ {
    id: 'exceptionMessage.IDEMPOTENCY_KEY_REUSED',
    message: 'This change was already sent with other content; send it again as a new change.',
  },
  IDEMPOTENCY_KEY_IN_PROGRESS: /*i18n*/ {
    id: 'exceptionMessage.IDEMPOTENCY_KEY_IN_PROGRESS',
    message: 'This change is still being applied; it will be checked again shortly.',
  },
  ALREADY_APPLIED: /*i18n*/ {
    id: 'exceptionMessage.ALREADY_APPLIED',
    message: 'This change was applied when it was first sent; its answer is no longer kept.',
  },
  BAD_IDEMPOTENCY_KEY: /*i18n*/ {
    id: 'exceptionMessage.BAD_IDEMPOTENCY_KEY',
    message: 'The change carries an unusable identifier.',
  },
  STREAM_ENDED_WITHOUT_RESULT: /*i18n*/ {
    id: 'exceptionMessage.STREAM_ENDED_WITHOUT_RESULT',
    message: 'The server stopped before finishing; nothing was applied.',
  },
  INVALID_CSV: /*i18n*/ {
    id: 'exceptionMessage.INVALID_CSV',
    message:
      '{errorCount, plural, one {The file has # error; nothing was stored.} other {The file has # errors; nothing was stored.}}',
  },
  CHECK_BUDGET_EXCEEDED: /*i18n*/ {
    id: 'exceptionMessage.CHECK_BUDGET_EXCEEDED',
    message:
      'Checking this file takes too long: the server stopped at line {lineNumber}, after {budgetSeconds} seconds, the most a file may take. Nothing was stored. The expressions of the configuration are probably too costly for this many lines.',
  },
  UPLOAD_STALLED: /*i18n*/ {
    id: 'exceptionMessage.UPLOAD_STALLED',
    message:
      'The file stopped arriving: nothing came for {idleSeconds} seconds, so the upload was abandoned and nothing was stored. Send it again once the network is back.',
  },
  CONFIGURATION_CHECK_BUDGET_EXCEEDED: /*i18n*/ {
    id: 'exceptionMessage.CONFIGURATION_CHECK_BUDGET_EXCEEDED',
    message:
      'Checking this configuration takes too long: the server stopped after {budgetSeconds} seconds, the most a configuration may take. Nothing was stored. Make the configuration smaller, or split its largest sections.',
  },
  CHECK_INTERRUPTED: /*i18n*/ {
    id: 'exceptionMessage.CHECK_INTERRUPTED',
    message: 'The checking of the file stopped on the server before its end. Nothing was stored: send it again.',
  },
  NO_SUCH_REFERENCE: /*i18n*/ {
    id: 'exceptionMessage.NO_SUCH_REFERENCE',
    message: 'The application {name} has no reference {reference}.',
  },
  NO_RIGHT_FOR_USER_DATA_WRITER: /*i18n*/ {
    id: 'exceptionMessage.NO_RIGHT_FOR_USER_DATA_WRITER',
    message: 'You may not change the data of {name}.',
  },
  REFERENCED_ROWS: /*i18n*/ {
    id: 'exceptionMessage.REFERENCED_ROWS',
    message: 'Other data point to these lines: they cannot be deleted.',
  },
  MOVED_REFERENCED_ROWS: /*i18n*/ {
    id: 'exceptionMessage.MOVED_REFERENCED_ROWS',
    message:
      'This file moves lines under another parent while other data point to them ({rows}{more, select, yes {, …} other {}}): those data would go on pointing to where these lines were. Nothing was stored. Keep these lines under their parent, or first change the data pointing to them.',
  },
  POINTED_ROWS_CHANGED: /*i18n*/ {
    id: 'exceptionMessage.POINTED_ROWS_CHANGED',
    message:
      'Lines this file refers to were deleted or moved under another parent while it was being stored ({keys}{more, select, yes {, …} other {}}). Nothing was stored. Check the file against them and send it again.',
  },
  UPLOAD_FORM_NOT_SPREADSHEET_SAFE: /*i18n*/ {
    id: 'exceptionMessage.UPLOAD_FORM_NOT_SPREADSHEET_SAFE',
    message: 'A file to load again keeps the exact values: it cannot also be safe for spreadsheets.',
  },
  UPLOAD_FORM_SEVERAL_FILES: /*i18n*/ {
    id: 'exceptionMessage.UPLOAD_FORM_SEVERAL_FILES',
    message:
      'These lines were loaded from {files} files with different columns or lines above the header: they load again from as many files. Download the zip, which holds one file for each.',
  },
  UPLOAD_FORM_TOO_MANY_SHAPES: /*i18n*/ {
    id: 'exceptionMessage.UPLOAD_FORM_TOO_MANY_SHAPES',
    message:
      'These lines were loaded from files of more than {max} different columns or lines above the header: loading them again would take more than {max} files. Keep fewer of them with a filter (on a value read above the header, for example), or download them to read.',
  },
  NO_SUCH_ROWS: /*i18n*/ { id: 'exceptionMessage.NO_SUCH_ROWS', message: 'These lines do not exist.' },
  UNKNOWN_COMPONENT: /*i18n*/ {
    id: 'exceptionMessage.UNKNOWN_COMPONENT',
    message: 'There is no column {component} here.',
  },
  BAD_ROW_QUERY: /*i18n*/ {
    id: 'exceptionMessage.BAD_ROW_QUERY',
    message:
      '{reason, select, limitTooLarge {A page holds at most {max, number} rows; without a limit, every row is sent.} unusableInterval {{state, select, reversed {The interval on {componentKey} ends before it starts.} notNumbers {The ends of the interval on {componentKey} must be numbers.} notDates {The ends of the interval on {componentKey} must be dates, such as 2024-02-29 or 2024-02-29 23:59:59, or written as the column writes them.} other {The interval on {componentKey} cannot be read.}} Nothing was read.} badFilterValue {{expected, select, number {“{value}” is not a number, and {componentKey} holds numbers.} other {“{value}” is not a date, and {componentKey} holds dates: write it as 2024-02-29, or as the column writes them.}} Nothing was read.} badInterval {The interval on {componentKey} must be one from and one to, each a text or a number.} badOrder {A sort order is ASC or DESC.} severalIntervals {The filter on {componentKey} holds several intervals: Terrain answers the rows of one interval per filter.} other {The query is not well formed.}}',
  },
  MISSING_COMPONENT_KEY_COMPONENT: /*i18n*/ {
    id: 'exceptionMessage.MISSING_COMPONENT_KEY_COMPONENT',
    message: 'A filter names no column.',
  },
  FILTER_MISSING_FILTER_OR_INTERVAL: /*i18n*/ {
    id: 'exceptionMessage.FILTER_MISSING_FILTER_OR_INTERVAL',
    message: 'The filter on {componentKey} has neither values nor interval.',
  },
  NO_SUCH_DATA_TYPE: /*i18n*/ {
    id: 'exceptionMessage.NO_SUCH_DATA_TYPE',
    message: 'The application {name} has no data type {dataType}.',
  },
  BAD_DEPOSIT_PARAMS: /*i18n*/ {
    id: 'exceptionMessage.BAD_DEPOSIT_PARAMS',
    message: "The deposit's description is not well formed.",
  },
  BAD_DEPOSIT_PERIOD: /*i18n*/ { id: 'exceptionMessage.BAD_DEPOSIT_PERIOD', message: 'The date {value} is not valid.' },
  MISSING_SCOPE: /*i18n*/ { id: 'exceptionMessage.MISSING_SCOPE', message: 'Choose a value for {component}.' },
  UNKNOWN_SCOPE_VALUE: /*i18n*/ {
    id: 'exceptionMessage.UNKNOWN_SCOPE_VALUE',
    message: '{value} is not a known value of {component}.',
  },
  VALUE_TOO_LARGE: /*i18n*/ {
    id: 'exceptionMessage.VALUE_TOO_LARGE',
    message: 'A value sent is larger than the database can hold or index: shorten it, then send it again.',
  },
  UNKNOWN_SCOPE_KEYS: /*i18n*/ {
    id: 'exceptionMessage.UNKNOWN_SCOPE_KEYS',
    message:
      '{count, plural, one {This key names no place of the scope of {dataName}: {keys}.} other {These # keys name no place of the scope of {dataName}: {keys}.}}',
  },
  MISSING_PERIOD: /*i18n*/ {
    id: 'exceptionMessage.MISSING_PERIOD',
    message: 'The deposit needs a start and an end date.',
  },
  NO_SUCH_FILE: /*i18n*/ { id: 'exceptionMessage.NO_SUCH_FILE', message: 'This file does not exist.' },
  WORKFLOW_ALREADY_IN_PROGRESS: /*i18n*/ {
    id: 'exceptionMessage.WORKFLOW_ALREADY_IN_PROGRESS',
    message: 'This version is already being published or unpublished.',
  },
  DELETE_ON_REPOSITORY_APPLICATION_NOT_ALLOWED_EXCEPTION: /*i18n*/ {
    id: 'exceptionMessage.DELETE_ON_REPOSITORY_APPLICATION_NOT_ALLOWED_EXCEPTION',
    message: 'Lines of a versioned data type are deleted with their version.',
  },
  overlappingpublishedversion: /*i18n*/ {
    id: 'exceptionMessage.overlappingpublishedversion',
    message: 'A published version of this dataset covers part of this period: {files}.',
  },
  overlappingunreadablepublishedversion: /*i18n*/ {
    id: 'exceptionMessage.overlappingunreadablepublishedversion',
    message:
      '{count, plural, one {A published version of this dataset that you may not read covers part of this period} other {# published versions of this dataset that you may not read cover part of this period}}{named, plural, =0 {.} one {, as does {files}.} other {, as do {files}.}}',
  },
  INJECTED_FAILURE: /*i18n*/ {
    id: 'exceptionMessage.INJECTED_FAILURE',
    message: 'The publication was stopped on purpose (test).',
  },
  UNKNOWN_JOB: /*i18n*/ { id: 'exceptionMessage.UNKNOWN_JOB', message: 'Unknown kind of work: {kind}.' },
  NO_RIGHT_FOR_USER_DATA_READER: /*i18n*/ {
    id: 'exceptionMessage.NO_RIGHT_FOR_USER_DATA_READER',
    message: 'You have no right to read {dataName}.',
  },
  NO_RIGHT_FOR_WHOLE_VERSION: /*i18n*/ {
    id: 'exceptionMessage.NO_RIGHT_FOR_WHOLE_VERSION',
    message:
      'Your rights do not cover the whole of this version (its scope and its period): download the rows of it you may read instead.',
  },
  NO_RIGHT_FOR_USER_DATA_WRITER_FOR_DEPOSIT: /*i18n*/ {
    id: 'exceptionMessage.NO_RIGHT_FOR_USER_DATA_WRITER_FOR_DEPOSIT',
    message: 'You have no right to deposit into {dataName} here.',
  },
  NO_RIGHT_FOR_USER_DATA_WRITER_FOR_PUBLISH: /*i18n*/ {
    id: 'exceptionMessage.NO_RIGHT_FOR_USER_DATA_WRITER_FOR_PUBLISH',
    message: 'You have no right to publish {dataName} here.',
  },
  NO_RIGHT_FOR_DELETE_RIGHTS_APPLICATION: /*i18n*/ {
    id: 'exceptionMessage.NO_RIGHT_FOR_DELETE_RIGHTS_APPLICATION',
    message: 'You have no right to delete this.',
  },
  NO_RIGHT_FOR_SET_RIGHTS_APPLICATION: /*i18n*/ {
    id: 'exceptionMessage.NO_RIGHT_FOR_SET_RIGHTS_APPLICATION',
    message: 'You may not grant these rights.',
  },
  NO_RIGHT_FOR_AUTHORIZATION_CHANGE: /*i18n*/ {
    id: 'exceptionMessage.NO_RIGHT_FOR_AUTHORIZATION_CHANGE',
    message: 'This authorization gives rights you may not give: only someone who may give all of them can change it.',
  },
  NO_AUTHORIZATION_NAME: /*i18n*/ {
    id: 'exceptionMessage.NO_AUTHORIZATION_NAME',
    message: 'The authorization needs a name.',
  },
  DESCRIPTION_TOO_LONG: /*i18n*/ {
    id: 'exceptionMessage.DESCRIPTION_TOO_LONG',
    message: 'The description is too long (at most {max} characters).',
  },
  UNKNOWN_DATA: /*i18n*/ {
    id: 'exceptionMessage.UNKNOWN_DATA',
    message: '{dataName} is not data of this application.',
  },
  UNKNOWN_OPERATION: /*i18n*/ {
    id: 'exceptionMessage.UNKNOWN_OPERATION',
    message: '{operation} is not a known right.',
  },
  UNKNOWN_SCOPE: /*i18n*/ {
    id: 'exceptionMessage.UNKNOWN_SCOPE',
    message: 'This scope does not exist for {dataName}.',
  },
  BAD_PERIOD: /*i18n*/ { id: 'exceptionMessage.BAD_PERIOD', message: 'The period of {dataName} is not valid.' },
  NOTHING_GRANTED: /*i18n*/ { id: 'exceptionMessage.NOTHING_GRANTED', message: 'The authorization grants nothing.' },
  NO_AUTHORIZATION_USER: /*i18n*/ {
    id: 'exceptionMessage.NO_AUTHORIZATION_USER',
    message: 'Choose at least one user.',
  },
  NO_SUCH_AUTHORIZATION: /*i18n*/ {
    id: 'exceptionMessage.NO_SUCH_AUTHORIZATION',
    message: 'This authorization does not exist.',
  },
  norightfordepot: /*i18n*/ {
    id: 'exceptionMessage.norightfordepot',
    message: 'Line {lineNumber}: you have no right to deposit this line.',
  },
  norightforpublish: /*i18n*/ {
    id: 'exceptionMessage.norightforpublish',
    message: 'You have no right to publish some lines of this version.',
  },
  STORAGE_FULL: /*i18n*/ {
    id: 'exceptionMessage.STORAGE_FULL',
    message:
      "The server's storage is full: nothing of this was kept. Try again once an administrator has made room (changes waiting on this device are sent again by themselves).",
  },
  DATABASE_UNAVAILABLE: /*i18n*/ {
    id: 'exceptionMessage.DATABASE_UNAVAILABLE',
    message: 'The database is unavailable for a moment: try again in {retryAfterSeconds} seconds.',
  },
  WRITE_CONFLICT: /*i18n*/ {
    id: 'exceptionMessage.WRITE_CONFLICT',
    message:
      'Another change met this one in the database, which stopped it: nothing of it was kept. Send it again in {retryAfterSeconds} seconds.',
  },
  WRITES_UNDER_WAY: /*i18n*/ {
    id: 'exceptionMessage.WRITES_UNDER_WAY',
    message:
      'Files are being stored in this application: the configuration was not updated while they are, and nothing was changed. Try again in {retryAfterSeconds} seconds.',
  },
  CHARTER_NOT_SIGNED: /*i18n*/ {
    id: 'exceptionMessage.CHARTER_NOT_SIGNED',
    message: 'Accept the usage charter of {name} before using its data.',
  },
  CHARTER_CHANGED: /*i18n*/ {
    id: 'exceptionMessage.CHARTER_CHANGED',
    message: 'The charter of {name} was replaced since you read it: read the new one and accept it.',
  },
  CHARTER_NOT_PDF: /*i18n*/ {
    id: 'exceptionMessage.CHARTER_NOT_PDF',
    message: 'The file {fileName} is not a PDF: the charter must be a PDF file.',
  },
  CHANGE_OF_ANOTHER_USER: /*i18n*/ {
    id: 'exceptionMessage.CHANGE_OF_ANOTHER_USER',
    message: 'This change was made by someone else than the person signed in: it waits for them to sign in again.',
  },
  NO_CHARTER: /*i18n*/ { id: 'exceptionMessage.NO_CHARTER', message: 'The application {name} has no usage charter.' },
  RIGHTS_REQUEST_COMMENT_REQUIRED: /*i18n*/ {
    id: 'exceptionMessage.RIGHTS_REQUEST_COMMENT_REQUIRED',
    message: 'Write a comment ({min} to {max} characters).',
  },
  RIGHTS_REQUEST_COMMENT_LENGTH: /*i18n*/ {
    id: 'exceptionMessage.RIGHTS_REQUEST_COMMENT_LENGTH',
    message: 'The comment must hold {min} to {max} characters.',
  },
  UNKNOWN_RIGHTS_REQUEST_FIELD: /*i18n*/ {
    id: 'exceptionMessage.UNKNOWN_RIGHTS_REQUEST_FIELD',
    message: 'The request form has no field {field}.',
  },
  INVALID_RIGHTS_REQUEST_FIELD: /*i18n*/ {
    id: 'exceptionMessage.INVALID_RIGHTS_REQUEST_FIELD',
    message: 'The field {field} of the request is missing or not valid.',
  },
  RIGHTS_REQUEST_OPERATION_NOT_ALLOWED: /*i18n*/ {
    id: 'exceptionMessage.RIGHTS_REQUEST_OPERATION_NOT_ALLOWED',
    message: 'A request may only ask to read data ({operation} asked on {dataName}).',
  },
  NOTHING_REQUESTED: /*i18n*/ {
    id: 'exceptionMessage.NOTHING_REQUESTED',
    message: 'Check at least one right to ask for.',
  },
  NO_RIGHT_FOR_RIGHTS_REQUEST_TREATMENT: /*i18n*/ {
    id: 'exceptionMessage.NO_RIGHT_FOR_RIGHTS_REQUEST_TREATMENT',
    message: 'Only the managers and user managers of {name} grant or close rights requests.',
  },
  NO_SUCH_RIGHTS_REQUEST: /*i18n*/ {
    id: 'exceptionMessage.NO_SUCH_RIGHTS_REQUEST',
    message: 'This rights request does not exist.',
  },
  NO_SUCH_DEVICE: /*i18n*/ {
    id: 'exceptionMessage.NO_SUCH_DEVICE',
    message: 'This device is no longer signed in.',
  },
  NO_RIGHT_FOR_RIGHTS_REQUEST: /*i18n*/ {
    id: 'exceptionMessage.NO_RIGHT_FOR_RIGHTS_REQUEST',
    message: "This rights request is someone else's.",
  },
  RIGHTS_REQUEST_ALREADY_TREATED: /*i18n*/ {
    id: 'exceptionMessage.RIGHTS_REQUEST_ALREADY_TREATED',
    message: 'This rights request has already been granted or closed.',
  },
  NO_RIGHT_FOR_ADDITIONAL_FILES: /*i18n*/ {
    id: 'exceptionMessage.NO_RIGHT_FOR_ADDITIONAL_FILES',
    message: 'You are not a user of {name}: its additional files are not open to you.',
  },
  NO_RIGHT_FOR_ADDITIONAL_FILE_DEPOSIT: /*i18n*/ {
    id: 'exceptionMessage.NO_RIGHT_FOR_ADDITIONAL_FILE_DEPOSIT',
    message: 'You have no right to add files of the type {fileType}.',
  },
  NO_RIGHT_FOR_ADDITIONAL_FILE_CHANGE: /*i18n*/ {
    id: 'exceptionMessage.NO_RIGHT_FOR_ADDITIONAL_FILE_CHANGE',
    message: 'You have no right to change the file {fileName}.',
  },
  NO_RIGHT_FOR_ADDITIONAL_FILE_DELETE: /*i18n*/ {
    id: 'exceptionMessage.NO_RIGHT_FOR_ADDITIONAL_FILE_DELETE',
    message: 'You have no right to delete the file {fileName}: nothing was deleted.',
  },
  NO_RIGHT_FOR_ADDITIONAL_FILES_RIGHTS: /*i18n*/ {
    id: 'exceptionMessage.NO_RIGHT_FOR_ADDITIONAL_FILES_RIGHTS',
    message: 'You may not give these rights on additional files.',
  },
  NO_SUCH_ADDITIONAL_FILE_TYPE: /*i18n*/ {
    id: 'exceptionMessage.NO_SUCH_ADDITIONAL_FILE_TYPE',
    message: 'The application {name} has no additional files of the type {fileType}.',
  },
  NO_SUCH_ADDITIONAL_FILE: /*i18n*/ {
    id: 'exceptionMessage.NO_SUCH_ADDITIONAL_FILE',
    message: 'This additional file does not exist.',
  },
  CHARTER_TYPE_RESERVED: /*i18n*/ {
    id: 'exceptionMessage.CHARTER_TYPE_RESERVED',
    message: "The charter is not an additional file: it is uploaded from the application's page.",
  },
  ADDITIONAL_FILE_REQUIRED: /*i18n*/ {
    id: 'exceptionMessage.ADDITIONAL_FILE_REQUIRED',
    message: 'You must provide a file.',
  },
  INVALID_ADDITIONAL_FILE_NAME: /*i18n*/ {
    id: 'exceptionMessage.INVALID_ADDITIONAL_FILE_NAME',
    message: 'You must provide a valid file name.',
  },
  ADDITIONAL_FILE_EXISTS: /*i18n*/ {
    id: 'exceptionMessage.ADDITIONAL_FILE_EXISTS',
    message: 'An additional file "{name}" already exists.',
  },
  ADDITIONAL_FILE_COMMENT_REQUIRED: /*i18n*/ {
    id: 'exceptionMessage.ADDITIONAL_FILE_COMMENT_REQUIRED',
    message: 'Write a comment about the file.',
  },
  INVALID_ADDITIONAL_FILE_FIELD: /*i18n*/ {
    id: 'exceptionMessage.INVALID_ADDITIONAL_FILE_FIELD',
    message: 'The field {field} is missing or not valid.',
  },
  UNKNOWN_ADDITIONAL_FILE_FIELD: /*i18n*/ {
    id: 'exceptionMessage.UNKNOWN_ADDITIONAL_FILE_FIELD',
    message: 'The form of this file type has no field {field}.',
  },
  UNKNOWN_ADDITIONAL_FILE_TYPE: /*i18n*/ {
    id: 'exceptionMessage.UNKNOWN_ADDITIONAL_FILE_TYPE',
    message: '{fileType} is not a type of additional file of this application.',
  },
  BAD_ADDITIONAL_FILE_PARAMS: /*i18n*/ {
    id: 'exceptionMessage.BAD_ADDITIONAL_FILE_PARAMS',
    message: 'The description of the file is not well formed.',
  },
  BAD_FILES_QUERY: /*i18n*/ {
    id: 'exceptionMessage.BAD_FILES_QUERY',
    message: 'The selection of files is not well formed.',
  },
  BAD_ASSOCIATES: /*i18n*/ {
    id: 'exceptionMessage.BAD_ASSOCIATES',
    message: 'The data the file is attached to are not well described.',
  },
  unknownFormField: /*i18n*/ { id: 'exceptionMessage.unknownFormField', message: 'The form has no field {field}.' },
  formValueTooLong: /*i18n*/ {
    id: 'exceptionMessage.formValueTooLong',
    message: 'This value is too long: at most {max} characters.',
  },
  formCheckBudget: /*i18n*/ {
    id: 'exceptionMessage.formCheckBudget',
    message:
      "Checking this value against its pattern takes too long: shorten it, or ask the application's managers for a simpler pattern.",
  },
  FORM_CHECK_BUDGET_EXCEEDED: /*i18n*/ {
    id: 'exceptionMessage.FORM_CHECK_BUDGET_EXCEEDED',
    message:
      "Checking the form against its patterns takes too long (field {field}): shorten the values, or ask the application's managers for simpler patterns.",
  },
  BUNDLE_ALREADY_RUNNING: /*i18n*/ {
    id: 'exceptionMessage.BUNDLE_ALREADY_RUNNING',
    message: 'A download of yours is already being prepared: wait for it to end before starting another.',
  },
  INVALID_BUNDLE: /*i18n*/ {
    id: 'exceptionMessage.INVALID_BUNDLE',
    message:
      '{reason, select, invalidZip {The file is not a zip, or the zip is damaged.} notABundle {This zip is not a Terrain backup: it has no manifest.json.} zipUnsafeEntry {The zip holds an entry that points outside of it ({entry}): it is refused.} zipTooLarge {The zip would inflate to more than {maxInflatedBytes} bytes: it is refused.} zipTooManyEntries {The zip holds too many files.} zipEntryLargerThanDeclared {The file {entry} inflates to more than the zip declares: it is refused.} checksumMismatch {The file {entry} is not the one the backup describes (damaged or edited).} missingEntry {The file {entry} listed by the backup is missing.} fileListedTwice {The backup lists the file {entry} twice: it is refused.} other {This backup cannot be restored ({reason}).}}',
  },
  BUNDLE_INVALID_CSV: /*i18n*/ {
    id: 'exceptionMessage.BUNDLE_INVALID_CSV',
    message: 'The file {entry} of the backup is refused by the checks of {dataName} ({errorCount} errors).',
  },
  NETWORK_ERROR: /*i18n*/ {
    id: 'exceptionMessage.NETWORK_ERROR',
    message: 'The server cannot be reached. Check the network and try again.',
  },
  DEVICE_FULL: /*i18n*/ {
    id: 'exceptionMessage.DEVICE_FULL',
    message:
      'This device has no room left to keep the change: nothing was saved. Free some space (or send the pending changes) and try again.',
  },
  DEVICE_STORAGE_FAILED: /*i18n*/ {
    id: 'exceptionMessage.DEVICE_STORAGE_FAILED',
    message:
      'This device could not keep the change: nothing was saved. Reload the page and try again; if it goes on, restart the browser.',
  },
  DOWNLOAD_DEVICE_FULL: /*i18n*/ {
    id: 'exceptionMessage.DOWNLOAD_DEVICE_FULL',
    message: 'This device has no room left for the download: nothing was saved. Free some space and try again.',
  },
  DOWNLOAD_CUT: /*i18n*/ {
    id: 'exceptionMessage.DOWNLOAD_CUT',
    message:
      'The download stopped before its end: nothing was saved. The network may have dropped, or your rights or the data changed meanwhile. Try again.',
  },
  DOWNLOAD_NOT_STORED: /*i18n*/ {
    id: 'exceptionMessage.DOWNLOAD_NOT_STORED',
    message:
      'The browser could not write the download on this device: nothing was saved. Reload the page and try again.',
  },
  FILE_UNREADABLE: /*i18n*/ {
    id: 'exceptionMessage.FILE_UNREADABLE',
    message:
      'This device can no longer read the file {fileName} kept with the change: it cannot be sent. Choose the file again (Edit), or discard the change.',
  },
  CHANGE_SENT_MEANWHILE: /*i18n*/ {
    id: 'exceptionMessage.CHANGE_SENT_MEANWHILE',
    message:
      'The change you were correcting was sent again meanwhile: it may already be applied. Nothing was saved; see the pending changes before making it again.',
  },
  UNSUPPORTED_PARAMETER: /*i18n*/ {
    id: 'exceptionMessage.UNSUPPORTED_PARAMETER',
    message:
      'This server does not read {parameter}: the request was refused rather than answered without it. Nothing was read or changed.',
  },
  CONFLICTING_PARAMETERS: /*i18n*/ {
    id: 'exceptionMessage.CONFLICTING_PARAMETERS',
    message: 'The request gives {first} and {second} with different values: send only one of them.',
  },
  DELETION_NEEDS_ROW_IDS_OR_NATURAL_KEYS: /*i18n*/ {
    id: 'exceptionMessage.DELETION_NEEDS_ROW_IDS_OR_NATURAL_KEYS',
    message:
      'Lines are deleted by their ids (rowIds) or by their natural keys (naturalKeys), one of the two, not by filters: nothing was deleted.',
  },
};

export const translationMissing: MessageDescriptor = /*i18n*/ {
  id: 'exceptionMessage.translationMissing',
  message: 'Translation missing for the message "{code}".',
};

export const genericServerError: MessageDescriptor = /*i18n*/ {
  id: 'exceptionMessage.genericServerError',
  message: 'The server answered with an error.',
};
