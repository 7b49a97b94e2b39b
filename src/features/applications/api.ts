import type { ApplicationView, ConfigurationUpdateResult } from '@/contract/applications';
import type { BundleDownloadQuery } from '@/contract/bundles';
import type { ApplicationPart } from '@/domain/applications/applicationView';
import type { ApplicationModel } from '@/domain/configuration/model';
import type { StreamEvent } from '@/domain/streaming/events';
import { ApiError, readErrorBody } from '@/lib/api/apiError';
import { callApi, API_BASE, send } from '@/lib/api/client';
import { callStream } from '@/lib/api/eventStream';
import { saveStreamed } from '@/lib/streamedSave';

const query = (parts: ApplicationPart[]) => (parts.length ? `?${parts.map((p) => `filter=${p}`).join('&')}` : '');

/** The parts the list needs for its cards. */
export const LIST_PARTS: ApplicationPart[] = ['REFERENCETYPE', 'DATATYPE', 'ADDITIONALFILE', 'RIGHTSREQUEST'];

export const streamApplications = (onEvent: (event: StreamEvent<ApplicationView>) => void, signal?: AbortSignal) =>
  callStream<ApplicationView>(`/applications${query(LIST_PARTS)}`, { signal }, onEvent);

export const fetchApplication = (name: string, parts: ApplicationPart[] = ['ALL']) =>
  callApi<ApplicationView>(`/applications/${encodeURIComponent(name)}${query(parts)}`);

function uploadForm(file: File, comment?: string) {
  const form = new FormData();
  if (comment !== undefined) form.append('comment', comment);
  form.append('file', file, file.name);
  return form;
}

export const validateOnServer = (file: File, onEvent: (event: StreamEvent<ApplicationModel | null>) => void) =>
  callStream<ApplicationModel | null>('/validate-configuration', { method: 'POST', body: uploadForm(file) }, onEvent);

/** An update tested on the server: its impact on the stored data, nothing written. */
export const dryRunUpdate = (
  name: string,
  file: File,
  onEvent: (event: StreamEvent<ConfigurationUpdateResult>) => void,
) =>
  callStream<ConfigurationUpdateResult>(
    `/applications/${encodeURIComponent(name)}/configuration?dryRun=true`,
    { method: 'POST', body: uploadForm(file) },
    onEvent,
  );

export const configurationDownloadHref = (name: string, version?: string) =>
  `${API_BASE}/applications/${encodeURIComponent(name)}/configuration${version ? `?version=${encodeURIComponent(version)}` : ''}`;

/** What an upload bundle holds: the kit alone, or the backup with every row and file. */
export type BundleKind = 'kit' | 'backup';

/** The query of a bundle download, written from the route's own schema so the two cannot drift apart. */
function bundleQueryString({ withData, locale }: BundleDownloadQuery): string {
  return new URLSearchParams({ withData: String(withData), ...(locale ? { locale } : {}) }).toString();
}

/** The name the server gives a download (`filename*` first: it keeps non-ASCII names). */
function downloadName(disposition: string | null, fallback: string): string {
  const encoded = disposition?.match(/filename\*=UTF-8''([^;]+)/i)?.[1];
  if (encoded) return decodeURIComponent(encoded);
  return disposition?.match(/filename="([^"]+)"/i)?.[1] ?? fallback;
}

/**
 * Downloads the upload kit or the backup of an application as it streams, telling how far it is (the server
 * gives a rough size: the last stretch waits at 95 % until the end), written to the device as it arrives, then
 * hands the zip to the browser.
 */
export async function downloadBundle(
  name: string,
  kind: BundleKind,
  locale: string,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
) {
  const query = bundleQueryString({ withData: kind === 'backup', locale });
  const response = await send(`/applications/${encodeURIComponent(name)}/upload-bundle?${query}`, { signal });
  if (!response.ok) throw readErrorBody(response.status, await response.text());
  const estimated = Number(response.headers.get('X-Bundle-Estimated-Bytes')) || 0;
  let received = 0;
  await saveStreamed(response.body ?? new Blob().stream(), {
    fileName: downloadName(response.headers.get('Content-Disposition'), `${name}-${kind}.zip`),
    type: 'application/zip',
    expectedBytes: estimated || undefined,
    signal,
    onChunk(chunk) {
      received += chunk.byteLength;
      onProgress(estimated > 0 ? Math.min(0.95, received / estimated) : 0.5);
    },
  }).catch((error: unknown) => {
    throw error instanceof ApiError || signal?.aborted ? error : new ApiError(0, 'NETWORK_ERROR');
  });
  onProgress(1);
}
