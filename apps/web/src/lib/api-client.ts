import { API_BASE } from '../config/api.ts';
import { readToken } from './session-storage.ts';

/**
 * A failed call: `status`, the parsed body (`data`) and the answer's headers (a 503's Retry-After) when the server
 * answered, none of them on a network failure.
 */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly data?: unknown,
    readonly headers?: Headers,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface ApiResponse<T> {
  data: T;
  status: number;
  headers: Headers;
}

export interface RequestOptions {
  /** Query parameters; undefined values are left out. */
  params?: Record<string, string | number | boolean | undefined>;
}

let onUnauthorized: (() => void) | null = null;

/** The auth provider registers what a 401 does: sign out and go to /login. */
export function setUnauthorizedHandler(handler: (() => void) | null) {
  onUnauthorized = handler;
}

/** A body is JSON when it parses as JSON; otherwise its text (empty for 204). */
function parseBody(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

async function send(method: string, url: string, body: unknown, options: RequestOptions, accept: string) {
  // Resolved against the page, as the browser does: fetch in Node (the tests) needs an absolute address.
  const target = new URL(`${API_BASE}${url}`, window.location.href);
  for (const [key, value] of Object.entries(options.params ?? {})) {
    if (value !== undefined) target.searchParams.set(key, String(value));
  }
  const headers: Record<string, string> = { Accept: accept };
  // Only a call with a body says it is JSON: the server refuses an empty body declared as JSON.
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const token = readToken();
  if (token) headers.Authorization = `Bearer ${token}`;

  let response: Response;
  try {
    response = await fetch(target, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch (error) {
    throw new ApiError(`Falha de rede em ${method} ${url}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!response.ok) {
    const data = parseBody(await response.text());
    // Once per request (docs/requirements.md#session-states); the sign-out call itself never triggers another sign-out.
    if (response.status === 401 && !url.includes('/logout-complete')) onUnauthorized?.();
    throw new ApiError(
      `${method} ${url} falhou com o status ${response.status}`,
      response.status,
      data,
      response.headers,
    );
  }
  return response;
}

async function request<T>(method: string, url: string, body?: unknown, options: RequestOptions = {}) {
  const response = await send(method, url, body, options, 'application/json, text/plain, */*');
  const data = parseBody(await response.text());
  return { data: data as T, status: response.status, headers: response.headers } satisfies ApiResponse<T>;
}

/** A file the API sends (an export): its bytes, with the same bearer header and error handling as every call. */
async function requestBlob(url: string, options: RequestOptions = {}): Promise<ApiResponse<Blob>> {
  const response = await send('GET', url, undefined, options, '*/*');
  return { data: await response.blob(), status: response.status, headers: response.headers };
}

/**
 * The one HTTP client (docs/requirements.md#api and #ui-constants): JSON, bearer token, no timeout. Paths are
 * relative to the API base (`/paineis` is `/api/paineis`); each call resolves to `{ data }` or rejects with an
 * ApiError.
 */
export const api = {
  get: <T = unknown>(url: string, options?: RequestOptions) => request<T>('GET', url, undefined, options),
  delete: <T = unknown>(url: string, options?: RequestOptions) => request<T>('DELETE', url, undefined, options),
  post: <T = unknown>(url: string, body?: unknown, options?: RequestOptions) => request<T>('POST', url, body, options),
  put: <T = unknown>(url: string, body?: unknown, options?: RequestOptions) => request<T>('PUT', url, body, options),
  patch: <T = unknown>(url: string, body?: unknown, options?: RequestOptions) =>
    request<T>('PATCH', url, body, options),
  blob: requestBlob,
};

/** The server's Portuguese message when it sent one, else the screen's own (docs/requirements.md#error-catalogue). */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) {
    const message = (error.data as { message?: unknown } | undefined)?.message;
    if (typeof message === 'string' && message.trim()) return message;
  }
  return fallback;
}

/** The HTTP status of a failed call, if it got an answer. */
export const statusOf = (error: unknown) => (error instanceof ApiError ? error.status : undefined);
