import { msg } from '@lingui/core/macro';
import type { I18n, MessageDescriptor } from '@lingui/core';
import type { FieldRule } from '@/domain/accounts/rules';
import { LOGIN_MIN_LENGTH, PASSWORD_MIN_LENGTH } from '@/domain/accounts/rules';

/** The text shown under a field that breaks a rule of the account forms. */
export const fieldRuleMessages: Record<FieldRule, MessageDescriptor> = {
  required: msg`Please fill in this field.`,
  loginTooShort: msg`The login needs at least ${LOGIN_MIN_LENGTH} characters.`,
  loginTooLong: msg`The login is too long.`,
  loginWhitespace: msg`The login cannot contain spaces.`,
  invalidEmail: msg`This is not a valid e-mail address.`,
  passwordTooShort: msg`The password needs at least ${PASSWORD_MIN_LENGTH} characters.`,
  passwordTooLong: msg`The password is too long.`,
  confirmationMismatch: msg`The confirmation differs.`,
  keyLength: msg`The key has exactly 10 characters.`,
};

/** The translated text for a broken rule, or nothing when the field is fine. */
export function fieldRuleText(i18n: I18n, rule: FieldRule | undefined): string | undefined {
  return rule ? i18n._(fieldRuleMessages[rule]) : undefined;
}
