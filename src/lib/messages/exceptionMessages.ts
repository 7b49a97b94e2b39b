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
  NETWORK_ERROR: /*i18n*/ { id: 'exceptionMessage.NETWORK_ERROR', message: 'The server cannot be reached. Check the network and try again.' },
};

export const translationMissing: MessageDescriptor = /*i18n*/ {
  id: 'exceptionMessage.translationMissing',
  message: 'Translation missing for the message "{code}".',
};

export const genericServerError: MessageDescriptor = /*i18n*/ { id: 'exceptionMessage.genericServerError', message: 'The server answered with an error.' };
