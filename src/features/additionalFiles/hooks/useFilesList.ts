import { useCallback, useEffect, useState } from 'react';
import type { FieldFilter } from '@/domain/additionalFiles/filesQuery';
import { fetchFiles, type FilesPage } from '../api';

export const FILES_PER_PAGE = 30;

/** One page of the files of a type, under the filters applied; kept from the last visit when the server is out of reach. */
export function useFilesList(applicationName: string, fileType: string) {
  const [page, setPage] = useState(1);
  const [filters, setFilters] = useState<FieldFilter[]>([]);
  const [data, setData] = useState<FilesPage | null>(null);
  const [error, setError] = useState<unknown>();
  const [offlineSince, setOfflineSince] = useState<number | undefined>();

  const reload = useCallback(async () => {
    try {
      const kept = await fetchFiles(applicationName, fileType, {
        filters,
        offset: (page - 1) * FILES_PER_PAGE,
        limit: FILES_PER_PAGE,
      });
      setData(kept.value);
      setOfflineSince(kept.offlineSince);
      setError(undefined);
    } catch (failure) {
      setError(failure);
    }
  }, [applicationName, fileType, filters, page]);
  useEffect(() => void reload(), [reload]);

  return { page, setPage, filters, setFilters, data, error, offlineSince, reload };
}
