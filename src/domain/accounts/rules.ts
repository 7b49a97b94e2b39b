import { VERIFICATION_KEY_LENGTH, normalizeVerificationKey } from './verificationKey';

/** The field rules of the account forms; the same functions guard the forms and the server. */
export const LOGIN_MIN_LENGTH = 4;
export const LOGIN_MAX_LENGTH = 100;
export const EMAIL_MAX_LENGTH = 254;
export const PASSWORD_MAX_LENGTH = 1024;

export type FieldRule =
  | 'required'
  | 'loginTooShort'
  | 'loginTooLong'
  | 'loginWhitespace'
  | 'invalidEmail'
  | 'passwordTooLong'
  | 'confirmationMismatch'
  | 'keyLength';

export interface FieldProblem<Field extends string = string> {
  field: Field;
  rule: FieldRule;
}

// Deliberately simple: one "@", a dot in the domain, no spaces. Real proof of an address is the mailed key.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

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

export function checkPassword(password: string): FieldRule | undefined {
  if (password === '') return 'required';
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
    ['confirmation', input.confirmation === undefined ? undefined : checkConfirmation(input.password, input.confirmation)],
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
    ['confirmation', checkEmail(input.confirmation) ?? (input.confirmation.trim() === input.email.trim() ? undefined : 'confirmationMismatch')],
    ['password', input.password === '' ? 'required' : undefined],
  ]);
}
