import type {
  AdditionalFile,
  AdditionalFileDetail,
  FieldChoices,
  FileAuthorization,
  FileAuthorizations,
  FileAuthorizationSave,
  FileSaveParams,
  FilesOverview,
  FilesSelection,
  FilesPage,
  FileTypeSummary,
  TypeRights,
} from '@/contract/additionalFiles';
import type { ScopeNode } from '@/contract/authorizations';
import type { FieldFilter } from '@/domain/additionalFiles/filesQuery';
import { API_BASE, callApi } from '@/lib/api/client';
import { currentLanguage } from '@/lib/i18n/setup';
import type { CachedRead } from '@/offline/queryCache';
import type { Submission } from '@/offline/outbox';

export type {
  AdditionalFile,
  FieldChoices,
  FileAuthorization,
  FileAuthorizations,
  FilesOverview,
  FilesPage,
  FileTypeSummary,
  ScopeNode,
  TypeRights,
};

const app = (name: string) => `/applications/${encodeURIComponent(name)}`;
const headers = () => ({ 'Accept-Language': currentLanguage() });
const selection = (value: FilesSelection) => `params=${encodeURIComponent(JSON.stringify(value))}`;

/** The types with their counts (with `grantable`, the scopes files may be linked to). */
export const overviewRead = (application: string, grantable = false): CachedRead<FilesOverview> => ({
  queryKey: ['application', application, 'additionalFiles', { grantable }],
  read: (signal) =>
    callApi<FilesOverview>(`${app(application)}/additionalFiles${grantable ? '?grantable=true' : ''}`, { signal }),
});

/** What is asked of a type's files: the filters on its fields, and which of them. */
export interface FilesSelectionOptions {
  filters?: FieldFilter[];
  offset?: number;
  limit?: number | null;
}

/** A page of a type's files; every page seen is kept for offline use. */
export function filesRead(
  application: string,
  fileType: string,
  options: FilesSelectionOptions = {},
): CachedRead<FilesPage> {
  const query = selection({
    additionalFilesInfos: { [fileType]: { fieldFilters: options.filters ?? [] } },
    offset: options.offset ?? 0,
    limit: options.limit ?? null,
  });
  return {
    queryKey: ['application', application, 'additionalFiles', fileType, query],
    read: (signal) =>
      callApi<FilesPage>(`${app(application)}/additionalFiles/${encodeURIComponent(fileType)}?${query}`, { signal }),
  };
}

/** One file with its details. */
export const fileRead = (application: string, fileType: string, id: string): CachedRead<AdditionalFileDetail> => ({
  queryKey: ['application', application, 'additionalFile', fileType, id],
  read: (signal) =>
    callApi<AdditionalFileDetail>(
      `${app(application)}/additionalFiles/${encodeURIComponent(fileType)}/${encodeURIComponent(id)}`,
      { signal },
    ),
});

export const fileContentHref = (application: string, file: Pick<AdditionalFile, 'fileType' | 'id'>) =>
  `${API_BASE}${app(application)}/additionalFiles/${encodeURIComponent(file.fileType)}/${encodeURIComponent(file.id)}/content`;

export const zipHref = (application: string, ids: readonly string[]) =>
  `${API_BASE}${app(application)}/additionalFiles?${selection({ uuids: [...ids] })}`;

/** The rights on the files (with `authorizationId`, one of them to edit) and what may be granted. */
export const fileAuthorizationsRead = (
  application: string,
  authorizationId?: string,
): CachedRead<FileAuthorizations> => ({
  queryKey: ['application', application, 'fileAuthorizations', authorizationId ?? null],
  read: (signal) =>
    callApi<FileAuthorizations>(
      `${app(application)}/additionalfiles/authorization${authorizationId ? `?authorizationId=${encodeURIComponent(authorizationId)}` : ''}`,
      { signal },
    ),
});

/**
 * What the file form sends: the `params` of the original (its type added from the path), and the chosen file.
 * The form always names the file, which the change's summary and resource show.
 */
export type FileSaveInput = Omit<FileSaveParams, 'fileType' | 'fileName'> & { fileName: string; file: File | null };

export function fileSave(application: string, fileType: string, input: FileSaveInput): Submission {
  const { file, ...params } = input;
  return {
    kind: 'additionalFile.save',
    summary: { name: application, fileType, fileName: input.fileName, action: input.id ? 'modify' : 'create' },
    input: { ...input, fileType },
    // Changes to one file go in order; a new file is its own resource until the server names it.
    resource: `additionalFile:${application}/${fileType}/${input.id ?? input.fileName}`,
    request: {
      method: 'POST',
      path: `${app(application)}/additionalFiles/${encodeURIComponent(fileType)}`,
      headers: headers(),
      body: {
        type: 'multipart',
        parts: [
          { name: 'params', value: JSON.stringify({ ...params, fileType }) },
          ...(file ? [{ name: 'file', blob: file, fileName: file.name }] : []),
        ],
      },
    },
  };
}

export function filesDeletion(
  application: string,
  fileType: string,
  files: ReadonlyArray<Pick<AdditionalFile, 'id' | 'fileName'>>,
): Submission {
  return {
    kind: 'additionalFile.delete',
    summary: { name: application, fileType, fileNames: files.map((f) => f.fileName).join(', ') },
    resource: `additionalFile:${application}/${fileType}/${files.map((f) => f.id).join(',')}`,
    request: {
      method: 'DELETE',
      path: `${app(application)}/additionalFiles?${selection({ uuids: files.map((f) => f.id) })}`,
      headers: headers(),
      body: { type: 'none' },
    },
  };
}

/** The authorization's application is added by fileAuthorizationSave. */
export type FileAuthorizationRequest = Omit<FileAuthorizationSave, 'applicationNameOrId'>;

export function fileAuthorizationSave(application: string, request: FileAuthorizationRequest): Submission {
  return {
    kind: 'additionalFileAuthorization.save',
    summary: { name: application, authorization: request.name },
    resource: `additionalFileAuthorization:${application}/${request.uuid ?? request.name}`,
    input: request,
    request: {
      method: 'POST',
      path: `${app(application)}/additionalFiles/authorization`,
      headers: headers(),
      body: { type: 'json', value: { ...request, applicationNameOrId: application } },
    },
  };
}

export function fileAuthorizationRevoke(
  application: string,
  authorization: Pick<FileAuthorization, 'uuid' | 'name'>,
): Submission {
  return {
    kind: 'additionalFileAuthorization.revoke',
    summary: { name: application, authorization: authorization.name },
    resource: `additionalFileAuthorization:${application}/${authorization.uuid}`,
    request: {
      method: 'DELETE',
      path: `${app(application)}/additionalFiles/authorization/${encodeURIComponent(authorization.uuid)}`,
      headers: headers(),
      body: { type: 'none' },
    },
  };
}
