import { useState } from 'react';
import type { FieldFilter } from '@/domain/additionalFiles/filesQuery';
import { useKeptQuery } from '@/offline/useKeptQuery';
import { filesRead } from '../api';

export const FILES_PER_PAGE = 30;

/** The read of a page of a type's files under the filters. */
export const filesPageRead = (applicationName: string, fileType: string, filters: FieldFilter[], page: number) =>
  filesRead(applicationName, fileType, { filters, offset: (page - 1) * FILES_PER_PAGE, limit: FILES_PER_PAGE });

/** The read of the first page of a type's files as its list opens (no filter), which "Make available offline" keeps. */
export const firstFilesPageRead = (applicationName: string, fileType: string) =>
  filesPageRead(applicationName, fileType, [], 1);

/** One page of the files of a type, under the filters applied; kept from the last visit when the server is out of reach. */
export function useFilesList(applicationName: string, fileType: string) {
  const [page, setPage] = useState(1);
  const [filters, setFilters] = useState<FieldFilter[]>([]);
  const read = filesPageRead(applicationName, fileType, filters, page);
  const { data, error, offlineSince, reload } = useKeptQuery(read.queryKey, read.read);
  return { page, setPage, filters, setFilters, data: data ?? null, error, offlineSince, reload };
}
