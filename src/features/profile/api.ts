import type { StoredUser } from '@/domain/accounts/user';
import { normalizeVerificationKey } from '@/domain/accounts/verificationKey';
import type { AccountChange, AccountResult, KeptDevices } from '@/contract/accounts';
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

/** The devices the signed-in user is kept signed in on. */
export const fetchKeptDevices = (signal?: AbortSignal) => callApi<KeptDevices>('/me/devices', { signal });

/**
 * Ends the session kept on a device, at once: like the other account changes it is not queued, since a lost tablet
 * must be signed out now or be told it could not be.
 */
export const endDeviceSession = (deviceId: string) =>
  callApi<{ id: string }>(`/me/devices/${encodeURIComponent(deviceId)}`, { method: 'DELETE' });
