import { useEffect, useMemo, type Dispatch, type SetStateAction } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useLingui } from '@lingui/react/macro';
import { translateServerError } from '@/lib/i18n/serverMessages';
import { showToast } from '@/lib/toast';
import { useKeptQuery } from '@/offline/useKeptQuery';
import { versionsRead, type Version } from '../api';

/**
 * The versions of one dataset, read through the cache whenever its scope is complete (a dataset seen opens offline
 * with when it was read); `reload` reads them again, `setVersions` changes them as shown until then.
 */
export function useVersions(
  applicationName: string,
  dataName: string,
  scope: Record<string, string>,
  complete: boolean,
) {
  const { i18n } = useLingui();
  const client = useQueryClient();
  // The scope is compared through its text: a new object with the same choices is the same dataset.
  const scopeKey = JSON.stringify(scope);
  const read = useMemo(
    () => versionsRead(applicationName, dataName, JSON.parse(scopeKey) as Record<string, string>),
    [applicationName, dataName, scopeKey],
  );
  const { data, error, offlineSince } = useKeptQuery(read.queryKey, read.read, { enabled: complete });

  useEffect(() => {
    if (complete && error) showToast('error', translateServerError(i18n, error));
  }, [complete, error, i18n]);

  const setVersions: Dispatch<SetStateAction<Version[] | null>> = (change) =>
    client.setQueryData<Version[]>(
      read.queryKey,
      (current) => (typeof change === 'function' ? change(current ?? null) : change) ?? undefined,
    );
  const reload = async () => {
    if (complete) await client.invalidateQueries({ queryKey: read.queryKey, exact: true });
  };

  return {
    versions: complete ? (data ?? null) : null,
    offlineSince: complete ? offlineSince : undefined,
    setVersions,
    reload,
  };
}
