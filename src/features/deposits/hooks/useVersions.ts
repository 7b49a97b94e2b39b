import { useCallback, useEffect, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { translateServerError } from '@/lib/i18n/serverMessages';
import { showToast } from '@/lib/toast';
import { fetchVersions, type Version } from '../api';

/** The versions of one dataset, read whenever its scope is complete; `reload` reads them again. */
export function useVersions(
  applicationName: string,
  dataName: string,
  scope: Record<string, string>,
  complete: boolean,
) {
  const { i18n } = useLingui();
  const [versions, setVersions] = useState<Version[] | null>(null);
  // The scope is compared through its text: a new object with the same choices is the same dataset.
  const scopeKey = JSON.stringify(scope);
  const reload = useCallback(async () => {
    if (!complete) return setVersions(null);
    try {
      setVersions(await fetchVersions(applicationName, dataName, JSON.parse(scopeKey) as Record<string, string>));
    } catch (error) {
      showToast('error', translateServerError(i18n, error));
    }
  }, [complete, applicationName, dataName, scopeKey, i18n]);
  useEffect(() => void reload(), [reload]);
  return { versions, setVersions, reload };
}
