import type { AdditionalFileType } from '../configuration/model';
import type { DomainError } from '../errors';

/**
 * Rights on additional files, per file type: give these rights to others (`admin`), add and modify files
 * (`depot`), download them (`extraction`), delete other people's files (`delete`).
 */
export const FILE_OPERATIONS = ['admin', 'depot', 'extraction', 'delete'] as const;
export type FileOperation = (typeof FILE_OPERATIONS)[number];

/** Operation → file types, as the original's `additionalFiles` payload writes it. */
export type FileRights = Partial<Record<FileOperation, string[]>>;

export const isFileOperation = (value: unknown): value is FileOperation =>
  typeof value === 'string' && (FILE_OPERATIONS as readonly string[]).includes(value);

/** Deleting brings depositing and downloading with it (the spec's "simple" rights table). */
export function withFileDependencies(operations: Iterable<FileOperation>): Set<FileOperation> {
  const result = new Set(operations);
  if (result.has('delete')) result.add('depot').add('extraction');
  return result;
}

/** Operations held only because a checked one brings them: their boxes are locked. */
export function inducedFileOperations(operations: Iterable<FileOperation>): Set<FileOperation> {
  const chosen = new Set(operations);
  return chosen.has('delete') ? new Set<FileOperation>(['depot', 'extraction']) : new Set();
}

/** The rights by file type (type → operations), the shape the form's table works on. */
export function rightsByType(rights: FileRights): Record<string, FileOperation[]> {
  const byType: Record<string, Set<FileOperation>> = {};
  for (const operation of FILE_OPERATIONS)
    for (const type of rights[operation] ?? []) (byType[type] ??= new Set()).add(operation);
  return Object.fromEntries(
    Object.entries(byType).map(([type, operations]) => [type, FILE_OPERATIONS.filter((op) => operations.has(op))]),
  );
}

/** Back to operation → types, every type with its dependencies. */
export function rightsOfTypes(byType: Record<string, readonly FileOperation[]>): FileRights {
  const rights: FileRights = {};
  for (const [type, operations] of Object.entries(byType)) {
    for (const operation of withFileDependencies(operations)) (rights[operation] ??= []).push(type);
  }
  for (const operation of FILE_OPERATIONS) rights[operation]?.sort();
  return rights;
}

/** The authorization as clients send it (`POST .../additionalFiles/authorization`). */
export interface FileAuthorizationRequest {
  uuid?: string | null;
  name?: string;
  usersId?: string[];
  applicationNameOrId?: string;
  additionalFiles?: Record<string, unknown>;
}

export type FileAuthorizationProblem = DomainError<
  | 'NO_AUTHORIZATION_NAME'
  | 'NO_AUTHORIZATION_USER'
  | 'UNKNOWN_OPERATION'
  | 'UNKNOWN_ADDITIONAL_FILE_TYPE'
  | 'NOTHING_GRANTED'
>;

/**
 * Checks an additional-file authorization against the application's file types and completes each type's
 * operations with their dependencies.
 */
export function normalizeFileAuthorization(
  types: readonly AdditionalFileType[],
  request: FileAuthorizationRequest,
): { ok: true; name: string; rights: FileRights } | { ok: false; problems: FileAuthorizationProblem[] } {
  const problems: FileAuthorizationProblem[] = [];
  const name = (request.name ?? '').trim();
  if (name === '') problems.push({ code: 'NO_AUTHORIZATION_NAME', params: {} });
  if ((request.usersId ?? []).length === 0) problems.push({ code: 'NO_AUTHORIZATION_USER', params: {} });
  const known = new Set(types.map((type) => type.name));
  const byType: Record<string, FileOperation[]> = {};
  for (const [operation, fileTypes] of Object.entries(request.additionalFiles ?? {})) {
    if (!isFileOperation(operation)) {
      problems.push({ code: 'UNKNOWN_OPERATION', path: `additionalFiles > ${operation}`, params: { operation } });
      continue;
    }
    for (const type of Array.isArray(fileTypes) ? fileTypes : []) {
      if (typeof type !== 'string' || !known.has(type)) {
        problems.push({
          code: 'UNKNOWN_ADDITIONAL_FILE_TYPE',
          path: `additionalFiles > ${operation}`,
          params: { fileType: String(type) },
        });
        continue;
      }
      (byType[type] ??= []).push(operation);
    }
  }
  const rights = rightsOfTypes(byType);
  if (problems.length === 0 && Object.keys(byType).length === 0) problems.push({ code: 'NOTHING_GRANTED', params: {} });
  return problems.length ? { ok: false, problems } : { ok: true, name, rights };
}
