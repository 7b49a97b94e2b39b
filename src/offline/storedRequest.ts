import type { StoredBody, StoredRequest } from './outboxTypes';

/** The body as fetch sends it; FormData is rebuilt from the stored parts (Blobs included). */
export function toFetchBody(body: StoredBody): { body?: BodyInit; contentType?: string } {
  switch (body.type) {
    case 'none':
      return {};
    case 'json':
      return { body: JSON.stringify(body.value), contentType: 'application/json' };
    case 'form':
      return { body: new URLSearchParams(body.value).toString(), contentType: 'application/x-www-form-urlencoded' };
    case 'multipart': {
      const form = new FormData();
      for (const part of body.parts) {
        if ('blob' in part) form.append(part.name, part.blob, part.fileName);
        else form.append(part.name, part.value);
      }
      return { body: form };
    }
  }
}

export function sizeOf(request: StoredRequest): number {
  const { body } = request;
  switch (body.type) {
    case 'none':
      return 0;
    case 'json':
      return JSON.stringify(body.value).length;
    case 'form':
      return new URLSearchParams(body.value).toString().length;
    case 'multipart':
      return body.parts.reduce((total, part) => total + ('blob' in part ? part.blob.size : part.value.length), 0);
  }
}

/** Whether the browser can still read a file it kept, by reading its first byte. */
export async function canRead(blob: Blob): Promise<boolean> {
  try {
    await blob.slice(0, 1).arrayBuffer();
    return true;
  } catch {
    return false;
  }
}

/** The name of the first file of the body the browser can no longer read, if any. */
export async function unreadableFile(
  body: StoredBody,
  readable: (blob: Blob) => Promise<boolean> = canRead,
): Promise<string | undefined> {
  if (body.type !== 'multipart') return undefined;
  for (const part of body.parts) if ('blob' in part && !(await readable(part.blob))) return part.fileName;
  return undefined;
}
