import addressparser from 'nodemailer/lib/addressparser';
import { checkEmail, type FieldRule } from '../../src/domain/accounts/rules.ts';

/**
 * Whether the mail transport reads this text as exactly one address, itself: no list, no group, no display name,
 * nothing dropped or rewritten on the way (nodemailer parses every recipient with this same parser). An address
 * it would read otherwise would store one thing and mail another, or nobody.
 */
export function isOneMailAddress(text: string): boolean {
  const parsed = addressparser(text);
  return parsed.length === 1 && parsed[0].address === text && parsed[0].name === '';
}

/** The account forms' rule for an e-mail address, then the transport's reading of it (the server's last word). */
export function mailAddressRule(email: string): FieldRule | undefined {
  return checkEmail(email) ?? (isOneMailAddress(email.trim()) ? undefined : 'invalidEmail');
}
