import { useState, type Dispatch, type SetStateAction } from 'react';
import { useLingui } from '@lingui/react/macro';
import { ApiError } from '@/lib/api/apiError';
import { translateServerError } from '@/lib/i18n/serverMessages';
import { showToast } from '@/lib/toast';
import { toastOutcome } from '@/offline/changeToasts';
import { useOutboxSubmit } from '@/offline/useOutbox';
import { readPublicationState } from '@/lib/api/publicationState';
import { downloadVersion, publicationChange, versionDeletion, type Version } from '../api';

/** A version whose download was refused because the caller's rights do not cover it whole, with the refusal. */
export interface VersionRefusal {
  version: Version;
  error: ApiError;
}

const JOB_POLL_MS = 700;

interface Versions {
  setVersions: Dispatch<SetStateAction<Version[] | null>>;
  reload: () => Promise<void>;
}

/** Publishing or unpublishing a version (following its job), downloading it, deleting it; `scopeKey` names the dataset shown. */
export function useVersionActions(
  applicationName: string,
  dataName: string,
  scopeKey: string,
  { setVersions, reload }: Versions,
) {
  const submitChange = useOutboxSubmit();
  const { t, i18n } = useLingui();
  const [refusal, setRefusal] = useState<VersionRefusal | null>(null);
  // A refusal is about the dataset it was met in: choosing another one forgets it.
  const [refusalScope, setRefusalScope] = useState(scopeKey);
  if (refusalScope !== scopeKey) {
    setRefusalScope(scopeKey);
    setRefusal(null);
  }

  /** Shows the job's progress in the list until it ends. */
  async function waitForJob(fileId: string) {
    for (;;) {
      const state = await readPublicationState(applicationName, fileId);
      setVersions((current) => current?.map((v) => (v.id === fileId ? state : v)) ?? null);
      if (!state.job || state.job.status === 'done' || state.job.status === 'failed') return state;
      await new Promise((resolve) => setTimeout(resolve, JOB_POLL_MS));
    }
  }

  async function togglePublication(version: Version, publish: boolean) {
    const outcome = await submitChange(publicationChange(applicationName, dataName, version, publish));
    if (outcome.status !== 'done') return toastOutcome(i18n, outcome);
    // How the job ends is told by the follower of every publication change (publicationJobs.ts), sent now or later.
    await waitForJob(version.id);
    await reload();
  }

  async function download(version: Version) {
    try {
      await downloadVersion(applicationName, version.id);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'NO_SUCH_FILE') {
        showToast('error', translateServerError(i18n, error));
        // Deleted meanwhile, or no longer readable under the caller's rights: read the list again, without it.
        return reload();
      }
      if (!(error instanceof ApiError && error.code === 'NO_RIGHT_FOR_WHOLE_VERSION'))
        return showToast('error', translateServerError(i18n, error));
      setRefusal({ version, error });
      // The list was read under wider rights: read it again, as the server now sees them.
      await reload();
    }
  }

  async function remove(version: Version) {
    const outcome = await submitChange(versionDeletion(applicationName, dataName, version));
    toastOutcome(i18n, outcome, t`The version has been deleted.`);
    await reload();
  }

  return { refusal, togglePublication, download, remove };
}
