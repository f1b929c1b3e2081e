import { csrfHeader, noteRefusal, UNREACHABLE } from './client';
import { ApiError } from './errors';
import type { paths } from './schema';
import type { Answer } from './types';

/** How much of a body has gone out: `loaded` of `total` bytes. */
export interface UploadProgress {
  loaded: number;
  total: number;
}

/** Whole percent sent, 0 to 100 (an empty body is sent at once). */
export function percentSent({ loaded, total }: UploadProgress): number {
  if (total <= 0) return 100;
  return Math.min(100, Math.floor((loaded / total) * 100));
}

type UploadMethod = 'post' | 'put' | 'patch';

interface UploadOptions {
  /** The path's `{placeholders}`, e.g. `{projectId: '…'}`. */
  path?: Record<string, string>;
  query?: Record<string, string | number | boolean | null | undefined>;
  /** The raw body (a file the user picked, or a slice of one). */
  body: Blob;
  /** Sent as `Content-Type`; defaults to `application/octet-stream`. */
  contentType?: string;
  headers?: Record<string, string>;
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
}

/** `/api/pages/{projectId}/deployments` with `{projectId: 'x'}` and a query → the URL to send to. */
export function uploadUrl(
  template: string,
  pathParams: Record<string, string> = {},
  query: UploadOptions['query'] = {},
): string {
  const url = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = pathParams[name];
    if (value === undefined) throw new Error(`No value for {${name}} in ${template}`);
    return encodeURIComponent(value);
  });
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) search.set(name, String(value));
  }
  const text = search.toString();
  return text ? `${url}?${text}` : url;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Sends a raw body to an operation of the API and reports its progress as it goes out. `fetch`
 * cannot tell how much of a request body was sent (and streams request bodies only over HTTP/2),
 * so this one kind of call uses XMLHttpRequest; it carries the session's CSRF token, ends the
 * session on a 401 like the client does, and answers the typed data or throws an {@link ApiError}.
 */
export function uploadWithProgress<Path extends keyof paths, Method extends UploadMethod & keyof paths[Path]>(
  method: Method,
  path: Path,
  options: UploadOptions,
): Promise<Answer<Path, Method>> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open(method.toUpperCase(), uploadUrl(path, options.path, options.query));
    request.withCredentials = true;
    const headers = {
      'content-type': options.contentType || 'application/octet-stream',
      ...csrfHeader(),
      ...options.headers,
    };
    for (const [name, value] of Object.entries(headers)) request.setRequestHeader(name, value);
    request.upload.onprogress = (event) => {
      options.onProgress?.({
        loaded: event.loaded,
        total: event.lengthComputable ? event.total : options.body.size,
      });
    };
    request.onload = () => {
      const body = parseJson(request.responseText);
      if (request.status >= 200 && request.status < 300) {
        resolve(body as Answer<Path, Method>);
        return;
      }
      noteRefusal(request.status, body);
      reject(new ApiError(request.status, body));
    };
    request.onerror = () => reject(new ApiError(0, UNREACHABLE));
    request.onabort = () => reject(new ApiError(0, { code: 'ABORTED', message: 'The upload was cancelled' }));
    options.signal?.addEventListener('abort', () => request.abort(), { once: true });
    request.send(options.body);
  });
}
