import type { ApplicationPart, ApplicationView } from '@/domain/applications/applicationView';
import type { ApplicationModel } from '@/domain/configuration/model';
import type { StreamEvent } from '@/domain/streaming/events';
import { callApi, API_BASE } from '@/lib/api/client';
import { callStream } from '@/lib/api/eventStream';

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

export const configurationDownloadHref = (name: string, version?: string) =>
  `${API_BASE}/applications/${encodeURIComponent(name)}/configuration${version ? `?version=${encodeURIComponent(version)}` : ''}`;
