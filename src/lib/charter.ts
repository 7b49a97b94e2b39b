import { API_BASE } from '@/lib/api/client';

/**
 * The address of an application's charter PDF. `version` (the upload time of the charter) makes each new charter a
 * new address: no copy of an older one, kept by the browser or the service worker, is shown in its place.
 */
export const charterHref = (applicationName: string, version?: string) =>
  `${API_BASE}/applications/${encodeURIComponent(applicationName)}/charter${version ? `?v=${encodeURIComponent(version)}` : ''}`;

/** The largest charter the server accepts (server/services/charter.ts). */
export const MAX_CHARTER_BYTES = 10 * 1024 * 1024;
