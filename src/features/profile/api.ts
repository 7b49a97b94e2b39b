import type { StoredUser } from '@/domain/accounts/user';
import { normalizeVerificationKey } from '@/domain/accounts/verificationKey';
import type { AccountChange, AccountResult } from '@/contract/accounts';
import { callApi } from '@/lib/api/client';

export const fetchStoredUser = (idOrLogin: string) => callApi<StoredUser>(`/users/${encodeURIComponent(idOrLogin)}`);

export const startEmailChange = (login: string, password: string, email: string) =>
  callApi<AccountResult>('/users', { method: 'PUT', json: { login, password, email } satisfies AccountChange });

export const confirmEmailChange = (login: string, password: string, key: string) =>
  callApi<AccountResult>('/users', {
    method: 'PUT',
    json: { login, password, verificationKey: normalizeVerificationKey(key) } satisfies AccountChange,
  });

export const changePassword = (login: string, password: string, newPassword: string, newPasswordConfirm: string) =>
  callApi<AccountResult>('/users', {
    method: 'PUT',
    json: { login, password, newPassword, newPasswordConfirm } satisfies AccountChange,
  });
