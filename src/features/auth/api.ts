import type { AuthenticatedUser } from '@/domain/accounts/user';
import type { AccountChange, AccountResult, KeyMailed, Registered, SignedOut } from '@/contract/accounts';
import { callApi } from '@/lib/api/client';
import { normalizeVerificationKey } from '@/domain/accounts/verificationKey';

/** Signs in; `remember` keeps this device signed in for weeks of non-use (field outings) instead of an idle hour. */
export const signIn = (login: string, password: string, applicationName?: string, remember = false) =>
  callApi<AuthenticatedUser>('/login', {
    method: 'POST',
    form: {
      login,
      password,
      ...(applicationName ? { applicationName } : {}),
      ...(remember ? { remember: 'true' } : {}),
    },
  });

export const signOut = () => callApi<SignedOut>('/logout', { method: 'DELETE' });

export const fetchMe = () => callApi<AuthenticatedUser>('/me');

export const register = (login: string, password: string, email: string) =>
  callApi<Registered>('/users', { method: 'POST', form: { login, password, email } });

export const activateAccount = (login: string, password: string, key: string) =>
  callApi<AccountResult>('/users', {
    method: 'PUT',
    json: { login, password, verificationKey: normalizeVerificationKey(key) } satisfies AccountChange,
  });

/** Lost password, step 1: the answer tells nothing of the account. */
export const requestConnectionKey = (login: string, email: string) =>
  callApi<KeyMailed>('/users', { method: 'PUT', json: { login, email } satisfies AccountChange });

export const resetPassword = (
  login: string,
  email: string,
  key: string,
  newPassword: string,
  newPasswordConfirm: string,
) =>
  callApi<AccountResult>('/users', {
    method: 'PUT',
    json: {
      login,
      email,
      verificationKey: normalizeVerificationKey(key),
      newPassword,
      newPasswordConfirm,
    } satisfies AccountChange,
  });
