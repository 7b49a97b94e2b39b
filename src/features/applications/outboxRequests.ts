import type { DataLossSummary } from '@/domain/applications/updateImpact';
import { currentLanguage } from '@/lib/i18n/setup';
import type { Submission } from '@/offline/outbox';

/** What the creation form holds, kept with a queued upload so the form can be reopened to edit it. */
export interface ConfigurationUploadInput {
  name: string;
  comment: string;
  file: File;
  /** Present for an update: the version the application was at. */
  currentVersion?: string;
  /** An update that deletes stored data, confirmed by its author. */
  confirmDataLoss?: boolean;
  /** The loss confirmed, as the dry run summed it up: the server refuses to delete anything else. */
  confirmedLoss?: DataLossSummary;
}

/** A configuration upload as an outbox change: creation, or a new version when `currentVersion` is set. */
export function configurationUpload(input: ConfigurationUploadInput): Submission {
  const update = input.currentVersion !== undefined;
  const path = `/applications/${encodeURIComponent(input.name)}${update ? '/configuration' : ''}`;
  return {
    kind: update ? 'application.update' : 'application.create',
    summary: { name: input.name, fileName: input.file.name, ...(update ? { from: input.currentVersion! } : {}) },
    resource: `application:${input.name}`,
    streamed: true,
    input,
    request: {
      method: 'POST',
      path,
      headers: { 'Accept-Language': currentLanguage() },
      body: {
        type: 'multipart',
        parts: [
          { name: 'comment', value: input.comment },
          // Sent long after, the update applies to the version it was prepared from, or to nothing.
          ...(update ? [{ name: 'fromVersion', value: input.currentVersion! }] : []),
          ...(update && input.confirmDataLoss ? [{ name: 'confirmDataLoss', value: 'true' }] : []),
          ...(update && input.confirmDataLoss && input.confirmedLoss
            ? [{ name: 'confirmedLoss', value: JSON.stringify(input.confirmedLoss) }]
            : []),
          { name: 'file', blob: input.file, fileName: input.file.name },
        ],
      },
    },
  };
}

/** What the restore form holds. */
export interface BundleRestoreInput {
  name: string;
  file: File;
}

/** A backup zip restored as a new application (`name`), as an outbox change. */
export function bundleRestore(input: BundleRestoreInput): Submission {
  return {
    kind: 'application.restore',
    summary: { name: input.name, fileName: input.file.name },
    resource: `application:${input.name}`,
    streamed: true,
    input,
    request: {
      method: 'POST',
      path: `/applications/${encodeURIComponent(input.name)}/upload-bundle`,
      headers: { 'Accept-Language': currentLanguage() },
      body: { type: 'multipart', parts: [{ name: 'file', blob: input.file, fileName: input.file.name }] },
    },
  };
}
