import type { DepositParams, RepositoryId, Version } from '@/contract/deposits';
import type { RowQuery } from '@/domain/rows/rowQuery';
import { callApi, API_BASE } from '@/lib/api/client';
import { readPublicationState } from '@/lib/api/publicationState';
import { currentLanguage } from '@/lib/i18n/setup';
import type { CachedRead } from '@/offline/queryCache';
import type { Submission } from '@/offline/outbox';
import { datasetResource } from '@/offline/datasetResource';

export type { Version };

/** The dataset a deposit belongs to: one row per reference scope, and the period. */
export interface DatasetChoice {
  scope: Record<string, string>;
  /** Dates as `YYYY-MM-DD`. */
  from: string;
  to: string;
}

const app = (name: string) => `/applications/${encodeURIComponent(name)}`;
const asDateTime = (date: string) => `${date} 00:00:00`;

export function depositParams(
  dataType: string,
  dataset: DatasetChoice,
  comment: string,
  topublish: boolean,
): DepositParams {
  return {
    binaryfiledataset: {
      datatype: dataType,
      requiredAuthorizations: dataset.scope,
      ...(dataset.from ? { from: asDateTime(dataset.from), to: asDateTime(dataset.to) } : {}),
      comment,
    },
    topublish,
  };
}

/** The versions deposited for one dataset (its scope); every dataset seen is kept for offline use. */
export function versionsRead(
  application: string,
  dataType: string,
  scope: Record<string, string>,
): CachedRead<Version[]> {
  const repositoryId: RepositoryId = { requiredAuthorizations: scope };
  return {
    queryKey: ['application', application, 'versions', dataType, scope],
    read: (signal) =>
      callApi<Version[]>(
        `${app(application)}/filesOnRepository/${encodeURIComponent(dataType)}?repositoryId=${encodeURIComponent(JSON.stringify(repositoryId))}`,
        { signal },
      ),
  };
}

const versionDownloadHref = (application: string, fileId: string) => `${API_BASE}${app(application)}/file/${fileId}`;

/**
 * Downloads a version's file after asking for its publication state, which answers by the same rule: a refused
 * download (rights narrowed since the list was read) would only fail in the browser's downloads, without a word why.
 * Throws the refusal.
 */
export async function downloadVersion(application: string, fileId: string) {
  await readPublicationState(application, fileId);
  const link = document.createElement('a');
  link.href = versionDownloadHref(application, fileId);
  // Empty: the file keeps the name the server gives it (the deposited file's).
  link.download = '';
  document.body.append(link);
  link.click();
  link.remove();
}

/** The CSV export of the published rows of a data type the caller may read (the export keeps to them), narrowed by `query`. */
export const readableRowsHref = (application: string, dataType: string, query: RowQuery) =>
  `${API_BASE}${app(application)}/data/${encodeURIComponent(dataType)}/csv?downloadDatasetQuery=${encodeURIComponent(JSON.stringify({ ...query, outPut: { locale: currentLanguage() } }))}`;

const headers = () => ({ 'Accept-Language': currentLanguage() });

/**
 * What names a deposit's dataset in the pending changes (see datasetOf): its scope, and its period's days, left out
 * for a data type without time scope.
 */
const datasetSummary = (scope: Record<string, string>, from: string | null, to: string | null) => ({
  scope: JSON.stringify(scope),
  ...(from ? { from: from.slice(0, 10), to: (to ?? '').slice(0, 10) } : {}),
});

export function depositUpload(
  application: string,
  dataType: string,
  file: File,
  dataset: DatasetChoice,
  comment: string,
): Submission {
  return {
    kind: 'deposit.upload',
    summary: {
      name: application,
      dataType,
      fileName: file.name,
      ...datasetSummary(dataset.scope, dataset.from, dataset.to),
    },
    resource: datasetResource(application, dataType, dataset.scope),
    input: { application, dataType, file, dataset, comment },
    request: {
      method: 'POST',
      path: `${app(application)}/data/${encodeURIComponent(dataType)}`,
      headers: headers(),
      body: {
        type: 'multipart',
        parts: [
          { name: 'params', value: JSON.stringify(depositParams(dataType, dataset, comment, false)) },
          { name: 'file', blob: file, fileName: file.name },
        ],
      },
    },
  };
}

export function publicationChange(
  application: string,
  dataType: string,
  version: Version,
  publish: boolean,
): Submission {
  return {
    kind: 'deposit.publish',
    summary: {
      name: application,
      dataType,
      file: version.name,
      action: publish ? 'publish' : 'unpublish',
      ...datasetSummary(version.scope, version.from, version.to),
    },
    resource: datasetResource(application, dataType, version.scope),
    request: {
      method: 'POST',
      path: `${app(application)}/data/${encodeURIComponent(dataType)}`,
      headers: headers(),
      body: { type: 'json', value: { fileid: version.id, topublish: publish } },
    },
  };
}

export function versionDeletion(application: string, dataType: string, version: Version): Submission {
  return {
    kind: 'deposit.delete',
    summary: {
      name: application,
      dataType,
      file: version.name,
      ...datasetSummary(version.scope, version.from, version.to),
    },
    resource: datasetResource(application, dataType, version.scope),
    request: {
      method: 'DELETE',
      path: `${app(application)}/file/${version.id}`,
      headers: headers(),
      body: { type: 'none' },
    },
  };
}
