import type { RowQuery } from '@/domain/rows/rowQuery';
import type { KeptRow } from '@/domain/rows/filterRows';
import { API_BASE, callApi } from '@/lib/api/client';
import { currentLanguage } from '@/lib/i18n/setup';
import type { Submission } from '@/offline/outbox';

export interface ColumnDescription {
  key: string;
  title: string;
  description: string;
  hidden: boolean;
  order: number;
  checker: string | null;
  reference?: string;
  multiplicity?: 'ONE' | 'MANY';
}

export interface ReferenceValue extends KeptRow {
  __display_default: string;
  [display: `__display_${string}`]: string;
}

export interface ReferencePage {
  referenceType: string;
  title: string;
  columns: ColumnDescription[];
  referenceValues: ReferenceValue[];
  totalRows: number;
}

const base = (application: string, reference: string) => `/applications/${encodeURIComponent(application)}/references/${encodeURIComponent(reference)}`;
const queryString = (query: RowQuery) => `?downloadDatasetQuery=${encodeURIComponent(JSON.stringify(query))}`;

export const fetchReferencePage = (application: string, reference: string, query: RowQuery) =>
  callApi<ReferencePage>(`${base(application, reference)}${queryString(query)}`);

export const exportHref = (application: string, reference: string, format: 'csv' | 'zip', query: RowQuery) =>
  `${API_BASE}${base(application, reference)}/${format}${queryString({ ...query, offset: undefined, limit: undefined, outPut: { locale: currentLanguage() } })}`;

/** A CSV upload into a reference, as an outbox change. */
export function referenceUpload(application: string, reference: string, file: File): Submission {
  return {
    kind: 'reference.upload',
    summary: { name: application, reference, fileName: file.name },
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

/** Deleting rows of a reference by natural key, as an outbox change. */
export function referenceDeletion(application: string, reference: string, naturalKeys: string[]): Submission {
  const query = new URLSearchParams();
  for (const key of naturalKeys) query.append('naturalKey', key);
  return {
    kind: 'reference.delete',
    summary: { name: application, reference, keys: naturalKeys.join(', ') },
    resource: `reference:${application}/${reference}`,
    request: { method: 'DELETE', path: `${base(application, reference)}?${query}`, headers: { 'Accept-Language': currentLanguage() }, body: { type: 'none' } },
  };
}
