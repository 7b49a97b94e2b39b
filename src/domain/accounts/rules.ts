import { VERIFICATION_KEY_LENGTH, normalizeVerificationKey } from './verificationKey';

/** The field rules of the account forms; the same functions guard the forms and the server. */
export const LOGIN_MIN_LENGTH = 4;
export const LOGIN_MAX_LENGTH = 100;
export const EMAIL_MAX_LENGTH = 254;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 1024;

const FIELD_RULES = [
  'required',
  'loginTooShort',
  'loginTooLong',
  'loginWhitespace',
  'invalidEmail',
  'passwordTooShort',
  'passwordTooLong',
  'confirmationMismatch',
  'keyLength',
] as const;
export type FieldRule = (typeof FIELD_RULES)[number];

export interface FieldProblem<Field extends string = string> {
  field: Field;
  rule: FieldRule;
}

/** The first rule named by the params of an `INVALID_FIELDS` refusal (`{fields: [{field, rule}]}`), if any is known. */
export function firstBrokenRule(params: unknown): FieldRule | undefined {
  const fields = (params as { fields?: unknown } | null)?.fields;
  const rule = Array.isArray(fields) ? (fields[0] as { rule?: unknown } | undefined)?.rule : undefined;
  return FIELD_RULES.find((known) => known === rule);
}

// Deliberately simple: one "@", a dot in the domain, no spaces, none of the characters that give an address
// header its structure (lists, names, comments, quotes, groups). The server also reads the address as the mail
// transport does (server/mail/address.ts); real proof of an address is the mailed key.
const EMAIL_PATTERN = /^[^\s@,;:<>()[\]"\\]+@[^\s@,;:<>()[\]"\\.]+(\.[^\s@,;:<>()[\]"\\.]+)+$/;

export function checkLogin(login: string): FieldRule | undefined {
  if (login.trim() === '') return 'required';
  if (/\s/.test(login)) return 'loginWhitespace';
  if (login.length < LOGIN_MIN_LENGTH) return 'loginTooShort';
  if (login.length > LOGIN_MAX_LENGTH) return 'loginTooLong';
  return undefined;
}

export function checkEmail(email: string): FieldRule | undefined {
  if (email.trim() === '') return 'required';
  if (email.length > EMAIL_MAX_LENGTH || !EMAIL_PATTERN.test(email.trim())) return 'invalidEmail';
  return undefined;
}

/** Rules for a new password; passwords chosen before the minimum existed still sign in. */
export function checkPassword(password: string): FieldRule | undefined {
  if (password === '') return 'required';
  // Characters as people count them: an emoji is one, not two UTF-16 units.
  if ([...password].length < PASSWORD_MIN_LENGTH) return 'passwordTooShort';
  if (password.length > PASSWORD_MAX_LENGTH) return 'passwordTooLong';
  return undefined;
}

export function checkConfirmation(password: string, confirmation: string): FieldRule | undefined {
  if (confirmation === '') return 'required';
  return confirmation === password ? undefined : 'confirmationMismatch';
}

export function checkKey(key: string): FieldRule | undefined {
  if (key.trim() === '') return 'required';
  return normalizeVerificationKey(key).length === VERIFICATION_KEY_LENGTH ? undefined : 'keyLength';
}

function collect<Field extends string>(checks: Array<[Field, FieldRule | undefined]>): FieldProblem<Field>[] {
  return checks.filter((c): c is [Field, FieldRule] => c[1] !== undefined).map(([field, rule]) => ({ field, rule }));
}

export interface RegistrationInput {
  login: string;
  password: string;
  confirmation?: string;
  email: string;
}

/** `confirmation` is checked only when given: the API takes login, password and email alone. */
export function validateRegistration(input: RegistrationInput) {
  return collect<'login' | 'password' | 'confirmation' | 'email'>([
    ['login', checkLogin(input.login)],
    ['password', checkPassword(input.password)],
    [
      'confirmation',
      input.confirmation === undefined ? undefined : checkConfirmation(input.password, input.confirmation),
    ],
    ['email', checkEmail(input.email)],
  ]);
}

export function validatePasswordChange(input: { current: string; password: string; confirmation: string }) {
  return collect<'current' | 'password' | 'confirmation'>([
    ['current', input.current === '' ? 'required' : undefined],
    ['password', checkPassword(input.password)],
    ['confirmation', checkConfirmation(input.password, input.confirmation)],
  ]);
}

export function validateEmailChange(input: { email: string; confirmation: string; password: string }) {
  return collect<'email' | 'confirmation' | 'password'>([
    ['email', checkEmail(input.email)],
    [
      'confirmation',
      checkEmail(input.confirmation) ??
        (input.confirmation.trim() === input.email.trim() ? undefined : 'confirmationMismatch'),
    ],
    ['password', input.password === '' ? 'required' : undefined],
  ]);
}
