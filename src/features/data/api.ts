import type { DataTypePage, ExportForm, ReferencePage } from '@/contract/rows';
import type { Suggestions } from '@/contract/references';
import type { DataEntry } from '@/domain/configuration/model';
import type { RowQuery } from '@/domain/rows/rowQuery';
import { callApi } from '@/lib/api/client';
import { currentLanguage } from '@/lib/i18n/setup';
import type { Submission } from '@/offline/outbox';

const base = (application: string, reference: string) => `/applications/${encodeURIComponent(application)}/references/${encodeURIComponent(reference)}`;
const dataBase = (application: string, dataType: string) => `/applications/${encodeURIComponent(application)}/data/${encodeURIComponent(dataType)}`;
const queryString = (query: RowQuery) => `?downloadDatasetQuery=${encodeURIComponent(JSON.stringify(query))}`;

export const fetchReferencePage = (application: string, reference: string, query: RowQuery, signal?: AbortSignal) =>
  callApi<ReferencePage>(`${base(application, reference)}${queryString(query)}`, { signal });

/** A page of rows of a reference or a data type (published versions only), in one shape. */
export async function fetchEntryPage(
  application: string,
  entry: Pick<DataEntry, 'name' | 'kind'>,
  query: RowQuery,
  signal?: AbortSignal,
): Promise<ReferencePage> {
  if (entry.kind === 'reference') return fetchReferencePage(application, entry.name, query, signal);
  const page = await callApi<DataTypePage>(`${dataBase(application, entry.name)}/json${queryString(query)}`, { signal });
  return { referenceType: page.dataType, title: page.title, columns: page.columns, referenceValues: page.rows, totalRows: page.totalRows };
}

export type ExportFormat = 'csv' | 'zip' | 'json';
export type { ExportForm };

/**
 * The API path of a download of every row matching the query (its paging left out). In CSV files (alone or in a
 * zip), `form` chooses the file to read or the file to load again, and `spreadsheetSafe` neutralises the cells a
 * spreadsheet would run as formulas (in the file to read only: the server refuses it with the other).
 */
export function exportPath(
  application: string,
  entry: Pick<DataEntry, 'name' | 'kind'>,
  format: ExportFormat,
  query: RowQuery,
  { form = 'titles', spreadsheetSafe = false }: { form?: ExportForm; spreadsheetSafe?: boolean } = {},
) {
  const path = `${entry.kind === 'reference' ? base(application, entry.name) : dataBase(application, entry.name)}/${format}`;
  const csv = format !== 'json';
  const options = `${csv && form === 'upload' ? '&form=upload' : ''}${csv && spreadsheetSafe && form !== 'upload' ? '&spreadsheetSafe=true' : ''}`;
  return `${path}${queryString({ ...query, offset: undefined, limit: undefined, outPut: { locale: currentLanguage() } })}${options}`;
}

/** A CSV upload into a reference, as an outbox change. */
export function referenceUpload(application: string, reference: string, file: File): Submission {
  return {
    kind: 'reference.upload',
    summary: { name: application, reference, entry: 'reference', fileName: file.name },
    resource: `reference:${application}/${reference}`,
    input: { application, reference, file },
    request: {
      method: 'POST',
      path: base(application, reference),
      headers: { 'Accept-Language': currentLanguage() },
      body: { type: 'multipart', parts: [{ name: 'file', blob: file, fileName: file.name }] },
    },
  };
}

/** Deleting rows of a reference or of a data type without versioning, by natural key, as an outbox change. */
export function rowDeletion(application: string, entry: Pick<DataEntry, 'name' | 'kind'>, naturalKeys: string[]): Submission {
  const query = new URLSearchParams();
  for (const key of naturalKeys) query.append('naturalKey', key);
  const path = entry.kind === 'reference' ? `${base(application, entry.name)}?${query}` : `${dataBase(application, entry.name)}${queryString({ naturalKeys })}`;
  return {
    kind: 'reference.delete',
    summary: { name: application, reference: entry.name, entry: entry.kind, keys: naturalKeys.join(', ') },
    resource: `${entry.kind === 'reference' ? 'reference' : 'dataType'}:${application}/${entry.name}`,
    request: { method: 'DELETE', path, headers: { 'Accept-Language': currentLanguage() }, body: { type: 'none' } },
  };
}

/** A CSV file of a data type without versioning, as an outbox change. */
export function dataUpload(application: string, dataType: string, file: File): Submission {
  return {
    kind: 'reference.upload',
    summary: { name: application, reference: dataType, entry: 'dataType', fileName: file.name },
    resource: `dataType:${application}/${dataType}`,
    input: { application, reference: dataType, file },
    request: {
      method: 'POST',
      path: dataBase(application, dataType),
      headers: { 'Accept-Language': currentLanguage() },
      body: { type: 'multipart', parts: [{ name: 'file', blob: file, fileName: file.name }] },
    },
  };
}

/** Rows of a reference whose display label (in `lang`) or natural key has words beginning with those of `q`. */
export const fetchSuggestions = (application: string, reference: string, q: string, lang: string, signal?: AbortSignal) =>
  callApi<Suggestions>(`${base(application, reference)}/suggestions?${new URLSearchParams({ q, lang, limit: String(SUGGESTIONS) })}`, { signal });

/** Suggestions shown under a reference filter. */
export const SUGGESTIONS = 20;
