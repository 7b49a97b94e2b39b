import { reportServerReached, reportServerUnreachable } from '../connectivity';
import { currentLanguage } from '../i18n/setup';
import { ApiError, readErrorBody } from './apiError';

export const API_BASE = '/api/v1';

export interface CallOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Sent as application/x-www-form-urlencoded, as the original API's forms are. */
  form?: Record<string, string>;
  json?: unknown;
  body?: FormData | Blob;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

type UnauthenticatedListener = (path: string) => void;
const unauthenticatedListeners = new Set<UnauthenticatedListener>();

/** Called when the server says the session is gone, so the layout can drop the user and go to sign-in. */
export function onSessionLost(listener: UnauthenticatedListener): () => void {
  unauthenticatedListeners.add(listener);
  return () => unauthenticatedListeners.delete(listener);
}

/** Tells the layout the session is gone, from a call made elsewhere (the outbox sends its changes itself). */
export function reportSessionLost(path: string): void {
  unauthenticatedListeners.forEach((listener) => listener(path));
}

/** Sends one call to the API with the user's language; answers the parsed body or throws an ApiError. */
export async function callApi<T>(path: string, options: CallOptions = {}): Promise<T> {
  const response = await send(path, options);
  const text = await response.text();
  if (!response.ok) throw readErrorBody(response.status, text);
  return (text === '' ? undefined : JSON.parse(text)) as T;
}

/** The raw response of a successful call, for streams and downloads. */
export async function send(path: string, options: CallOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { 'Accept-Language': currentLanguage(), ...options.headers };
  let body: BodyInit | undefined = options.body;
  if (options.form) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form).toString();
  } else if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.json);
  }
  let response: Response;
  try {
    response = await fetch(API_BASE + path, {
      method: options.method ?? 'GET',
      headers,
      body,
      credentials: 'same-origin',
      signal: options.signal,
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    reportServerUnreachable();
    throw new ApiError(0, 'NETWORK_ERROR');
  }
  // The service worker answers 503 for API calls it cannot forward: the server is out of reach.
  if (response.status === 503 && response.headers.get('X-Terrain-Offline') === '1') {
    reportServerUnreachable();
    throw new ApiError(0, 'NETWORK_ERROR');
  }
  reportServerReached();
  if (response.status === 401) {
    const error = readErrorBody(401, await response.clone().text());
    if (error.code === 'NOT_AUTHENTICATED') reportSessionLost(path);
  }
  return response;
}
