import type { I18n, MessageDescriptor } from '@lingui/core';
import { ApiError } from '../api/apiError';
import { exceptionMessages, genericServerError, translationMissing } from '../messages/exceptionMessages';
import { firstBrokenRule } from '@/domain/accounts/rules';
import { fieldRuleText } from './fieldRules';
import { messageValues } from './messageValues';

/**
 * The translated text of a server answer: `exceptionMessage.<code>` with its parameters ({@link messageValues}). An
 * unknown code says that its translation is missing; an empty one is a generic error.
 */
export function translateServerError(i18n: I18n, error: unknown): string {
  if (!(error instanceof ApiError)) return i18n._(genericServerError);
  if (error.code === '') return i18n._(genericServerError);
  // The forms check the same rules first: a field the server alone refused (an address its mail transport reads
  // otherwise, say) is named by its rule, which says what to correct where the code only says something is wrong.
  const rule = error.code === 'INVALID_FIELDS' ? firstBrokenRule(error.params) : undefined;
  if (rule) return fieldRuleText(i18n, rule)!;
  const id = `exceptionMessage.${error.code}`;
  const descriptor = exceptionMessages[error.code];
  // Descriptors are built apart from the i18n._ call: the catalog extractor reads literal arguments of that call.
  const message: MessageDescriptor =
    !descriptor && !(id in i18n.messages)
      ? { ...translationMissing, values: { code: error.code } }
      : { ...(descriptor ?? { id }), values: messageValues(error.params) };
  return i18n._(message);
}
