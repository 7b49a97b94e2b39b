import { currentLanguage } from '@/lib/i18n/setup';
import type { Submission } from '@/offline/outbox';

/**
 * The application's charter (a PDF) uploaded or replaced, as an outbox change: the original's additional file of
 * type `__charte__`, which we call `__charter__`.
 */
export function charterUpload(applicationName: string, file: File): Submission {
  return {
    kind: 'charter.upload',
    summary: { name: applicationName, fileName: file.name },
    resource: `charter:${applicationName}`,
    request: {
      method: 'POST',
      path: `/applications/${encodeURIComponent(applicationName)}/additionalFiles/__charter__`,
      headers: { 'Accept-Language': currentLanguage() },
      body: { type: 'multipart', parts: [{ name: 'file', blob: file, fileName: file.name }] },
    },
  };
}
