import type { Version } from '@/contract/deposits';
import { callApi } from './client';

/** Where a version stands: published or not, and its latest publication job. */
export const readPublicationState = (application: string, fileId: string, signal?: AbortSignal) =>
  callApi<Version>(
    `/applications/${encodeURIComponent(application)}/file/${encodeURIComponent(fileId)}/publication-state`,
    { signal },
  );
