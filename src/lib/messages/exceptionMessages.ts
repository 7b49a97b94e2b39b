import type { MessageDescriptor } from '@lingui/core';

/**
 * Texts of the codes the server answers with (`exceptionMessage.<code>`). Marked with i18n comments so that
 * `lingui extract` collects them without the macro: this module is plain data, usable anywhere.
 */
export const exceptionMessages: Record<string, MessageDescriptor> = {
  BAD_LOGIN_PASSWORD: /*i18n*/ { id: 'exceptionMessage.BAD_LOGIN_PASSWORD', message: 'The username or password is incorrect.' },
  BAD_LOGIN_OR_EMAIL_PASSWORD: /*i18n*/ { id: 'exceptionMessage.BAD_LOGIN_OR_EMAIL_PASSWORD', message: 'The login, e-mail or password is missing or incorrect.' },
  BAD_PASSWORDS: /*i18n*/ { id: 'exceptionMessage.BAD_PASSWORDS', message: 'The new password is empty or differs from its confirmation.' },
  BAD_VALIDATION_KEY: /*i18n*/ { id: 'exceptionMessage.BAD_VALIDATION_KEY', message: 'This key is not valid. A new key has been sent to you by e-mail.' },
  EXPIRED_VALIDATION_KEY: /*i18n*/ { id: 'exceptionMessage.EXPIRED_VALIDATION_KEY', message: 'This key has expired. A new key has been sent to you by e-mail.' },
  INACTIVE_ACCOUNT: /*i18n*/ { id: 'exceptionMessage.INACTIVE_ACCOUNT', message: 'Your account is not activated yet. A new activation key has been sent to you by e-mail.' },
  PENDING_ACCOUNT: /*i18n*/ { id: 'exceptionMessage.PENDING_ACCOUNT', message: 'Your account is waiting for activation. A new activation key has been sent to you by e-mail.' },
  CLOSED_ACCOUNT: /*i18n*/ { id: 'exceptionMessage.CLOSED_ACCOUNT', message: 'This account is closed.' },
  INVALID_ACCOUNT: /*i18n*/ { id: 'exceptionMessage.INVALID_ACCOUNT', message: 'This login and this e-mail address do not belong to the same account.' },
  EXISTING_LOGIN: /*i18n*/ { id: 'exceptionMessage.EXISTING_LOGIN', message: 'This login is already used.' },
  EXISTING_EMAIL: /*i18n*/ { id: 'exceptionMessage.EXISTING_EMAIL', message: 'This e-mail address is already used by an account.' },
  EMAIL_UNCHANGED: /*i18n*/ { id: 'exceptionMessage.EMAIL_UNCHANGED', message: 'This is already your e-mail address.' },
  NO_PENDING_EMAIL_CHANGE: /*i18n*/ { id: 'exceptionMessage.NO_PENDING_EMAIL_CHANGE', message: 'No e-mail change is waiting for a key.' },
  STATE_ERROR: /*i18n*/ { id: 'exceptionMessage.STATE_ERROR', message: 'The account is in a state that does not allow this operation.' },
  INVALID_FIELDS: /*i18n*/ { id: 'exceptionMessage.INVALID_FIELDS', message: 'Some fields are not filled in correctly.' },
  BAD_LOGIN_FOR_ACTION: /*i18n*/ { id: 'exceptionMessage.BAD_LOGIN_FOR_ACTION', message: 'You may not do this for another account.' },
  UNKNOWN_USER: /*i18n*/ { id: 'exceptionMessage.UNKNOWN_USER', message: 'This user does not exist.' },
  NOT_AUTHENTICATED: /*i18n*/ { id: 'exceptionMessage.NOT_AUTHENTICATED', message: 'You are not signed in, or your session has expired.' },
  TOO_MANY_ATTEMPTS: /*i18n*/ { id: 'exceptionMessage.TOO_MANY_ATTEMPTS', message: 'Too many sign-in attempts. Wait a few minutes before trying again.' },
  TOO_MANY_REQUESTS: /*i18n*/ { id: 'exceptionMessage.TOO_MANY_REQUESTS', message: 'Too many requests. Wait a few minutes before trying again.' },
  CSRF_REFUSED: /*i18n*/ { id: 'exceptionMessage.CSRF_REFUSED', message: 'This request comes from another site and was refused.' },
  PAYLOAD_TOO_LARGE: /*i18n*/ { id: 'exceptionMessage.PAYLOAD_TOO_LARGE', message: 'What you sent is too large.' },
  UNSUPPORTED_MEDIA_TYPE: /*i18n*/ { id: 'exceptionMessage.UNSUPPORTED_MEDIA_TYPE', message: 'This kind of content is not accepted here.' },
  BAD_REQUEST: /*i18n*/ { id: 'exceptionMessage.BAD_REQUEST', message: 'The request is not well formed.' },
  NOT_FOUND: /*i18n*/ { id: 'exceptionMessage.NOT_FOUND', message: 'Nothing was found at this address.' },
  INTERNAL_ERROR: /*i18n*/ { id: 'exceptionMessage.INTERNAL_ERROR', message: 'The server met an error. Try again later.' },
  NO_SUCH_APPLICATION: /*i18n*/ { id: 'exceptionMessage.NO_SUCH_APPLICATION', message: "The application {name} does not exist." },
  NO_RIGHT_FOR_APPLICATION_CREATION: /*i18n*/ { id: 'exceptionMessage.NO_RIGHT_FOR_APPLICATION_CREATION', message: "You may not create an application named {name}." },
  NO_RIGHT_FOR_APPLICATION_MANAGEMENT: /*i18n*/ { id: 'exceptionMessage.NO_RIGHT_FOR_APPLICATION_MANAGEMENT', message: "You have no right to manage the application {name}." },
  BAD_APPLICATION_NAME: /*i18n*/ { id: 'exceptionMessage.BAD_APPLICATION_NAME', message: "The name {name} is not a valid application name." },
  APPLICATION_EXISTS_ON_CREATION: /*i18n*/ { id: 'exceptionMessage.APPLICATION_EXISTS_ON_CREATION', message: "An application named {name} already exists." },
  APPLICATION_VERSION_EXISTS: /*i18n*/ { id: 'exceptionMessage.APPLICATION_VERSION_EXISTS', message: "The application {name} already exists in version {version}." },
  APPLICATION_CHANGED_MEANWHILE: /*i18n*/ { id: 'exceptionMessage.APPLICATION_CHANGED_MEANWHILE', message: "The application was changed by someone else meanwhile; reload and try again." },
  NO_SUCH_CONFIGURATION_VERSION: /*i18n*/ { id: 'exceptionMessage.NO_SUCH_CONFIGURATION_VERSION', message: "The application {name} has no version {version}." },
  BAD_CONFIGURATION_FILE_TYPE: /*i18n*/ { id: 'exceptionMessage.BAD_CONFIGURATION_FILE_TYPE', message: "The file {fileName} is not a .yaml or .zip file." },
  EMPTY_FILE: /*i18n*/ { id: 'exceptionMessage.EMPTY_FILE', message: "The file is empty." },
  MISSING_FILE: /*i18n*/ { id: 'exceptionMessage.MISSING_FILE', message: "No file was sent." },
  FILE_TOO_LARGE: /*i18n*/ { id: 'exceptionMessage.FILE_TOO_LARGE', message: "The file is too large (at most {maxBytes} bytes)." },
  UNREADABLE_FILE: /*i18n*/ { id: 'exceptionMessage.UNREADABLE_FILE', message: "The file could not be read." },
  MULTIPART_REQUIRED: /*i18n*/ { id: 'exceptionMessage.MULTIPART_REQUIRED', message: "A file upload form was expected." },
  COMMENT_TOO_LONG: /*i18n*/ { id: 'exceptionMessage.COMMENT_TOO_LONG', message: "The comment is too long (at most {max} characters)." },
  REMOVED_DATA_WITH_ROWS: /*i18n*/ { id: 'exceptionMessage.REMOVED_DATA_WITH_ROWS', message: "The data {dataName} holds {rows} rows: it cannot be removed from the configuration." },
  CHANGED_DATA_KIND_WITH_ROWS: /*i18n*/ { id: 'exceptionMessage.CHANGED_DATA_KIND_WITH_ROWS', message: "The data {dataName} holds {rows} rows: it cannot change from {before} to {after}." },
  REMOVED_COMPONENT_WITH_ROWS: /*i18n*/ { id: 'exceptionMessage.REMOVED_COMPONENT_WITH_ROWS', message: "The component {component} of {dataName} holds values in {rows} rows: it cannot be removed." },
  CHANGED_NATURAL_KEY_WITH_ROWS: /*i18n*/ { id: 'exceptionMessage.CHANGED_NATURAL_KEY_WITH_ROWS', message: "The natural key of {dataName} cannot change while it holds {rows} rows." },
  REMOVING_AUTHORIZATION_SCOPE_ATTRIBUTES_ERROR: /*i18n*/ { id: 'exceptionMessage.REMOVING_AUTHORIZATION_SCOPE_ATTRIBUTES_ERROR', message: "The authorization scope {component} of {dataName} cannot be removed: data and rights depend on it." },
  TERRAIN_ADMIN_REQUIRED_FOR_OPERATION: /*i18n*/ { id: 'exceptionMessage.TERRAIN_ADMIN_REQUIRED_FOR_OPERATION', message: "Only the platform administrator may do this." },
  CANT_SELF_REVOKE_ADMIN: /*i18n*/ { id: 'exceptionMessage.CANT_SELF_REVOKE_ADMIN', message: "You cannot remove your own platform administrator role." },
  CANT_SELF_REVOKE_APPLICATION_ROLE: /*i18n*/ { id: 'exceptionMessage.CANT_SELF_REVOKE_APPLICATION_ROLE', message: "You cannot remove your own role {role}." },
  BAD_APPLICATION_PATTERN: /*i18n*/ { id: 'exceptionMessage.BAD_APPLICATION_PATTERN', message: "{pattern} is not a valid regular expression." },
  MISSING_APPLICATION: /*i18n*/ { id: 'exceptionMessage.MISSING_APPLICATION', message: "The role {role} needs an application." },
  NETWORK_ERROR: /*i18n*/ { id: 'exceptionMessage.NETWORK_ERROR', message: 'The server cannot be reached. Check the network and try again.' },
};

export const translationMissing: MessageDescriptor = /*i18n*/ {
  id: 'exceptionMessage.translationMissing',
  message: 'Translation missing for the message "{code}".',
};

export const genericServerError: MessageDescriptor = /*i18n*/ { id: 'exceptionMessage.genericServerError', message: 'The server answered with an error.' };
