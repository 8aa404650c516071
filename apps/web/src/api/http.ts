import { readToken, touchActivity } from '../lib/storage';

type FieldError = { field: string; message: string };
type FormValue = string | number | boolean | null | undefined;

/** A non-success answer from the API, carrying the `{detail, errors?}` body when there is one. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: unknown;
  readonly detail: string | null;
  readonly errors: FieldError[];

  constructor(status: number, body: unknown) {
    const detail = pickDetail(body);
    super(detail ?? `Request failed with status ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
    this.detail = detail;
    this.errors = pickErrors(body);
  }
}

function pickDetail(body: unknown): string | null {
  if (body && typeof body === 'object' && 'detail' in body) {
    const d = (body as { detail: unknown }).detail;
    if (typeof d === 'string' && d.trim()) return d;
  }
  return null;
}

function pickErrors(body: unknown): FieldError[] {
  if (body && typeof body === 'object' && 'errors' in body) {
    const e = (body as { errors: unknown }).errors;
    if (Array.isArray(e)) {
      return e.filter((x): x is FieldError => !!x && typeof x === 'object' && typeof (x as FieldError).message === 'string');
    }
  }
  return [];
}

/** The first message a person should read: the first field error, else the detail. */
export function firstErrorMessage(err: unknown, fallback: string): string {
  if (err instanceof ApiError) return err.errors[0]?.message ?? err.detail ?? fallback;
  return fallback;
}

let onUnauthorized: (() => void) | null = null;

/**
 * Registered by the auth provider: drops the session when a data call answers 401 (spec 000 §8).
 * A 403 means "signed in, but your role may not do this" (e.g. a reader deleting a shared project): the session
 * stays and the caller shows the error's `detail`.
 */
export function setUnauthorizedHandler(handler: (() => void) | null): void {
  onUnauthorized = handler;
}

export interface RequestOptions {
  json?: unknown;
  form?: Record<string, FormValue>;
  /** Send the stored token (default true). */
  auth?: boolean;
  /** Send this token instead of the stored one (logout after the local session is gone). */
  token?: string;
  /** Treat 401 as a lost session (default true; off for login and public calls). A 403 never drops the session. */
  sessionCall?: boolean;
  signal?: AbortSignal;
}

export interface ApiResponse<T> {
  status: number;
  data: T;
}

export async function request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  let body: BodyInit | undefined;
  if (opts.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(opts.json);
  } else if (opts.form) {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(opts.form)) {
      if (v !== undefined && v !== null) params.append(k, String(v));
    }
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    body = params;
  }
  const token = opts.auth === false ? null : (opts.token ?? readToken());
  if (token) headers.Authorization = `Token ${token}`;

  const res = await fetch(path, { method, headers, body, signal: opts.signal });
  // A call with the session token counts as use of the session on the server (its background ping does not).
  if (token && res.status !== 401 && opts.sessionCall !== false) touchActivity();
  const text = await res.text();
  let data: unknown = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = { detail: text.slice(0, 300) };
    }
  }
  if (res.status >= 500) {
    console.error('Server Error', res.status, path);
    throw new ApiError(res.status, data);
  }
  if (!res.ok) {
    if (res.status === 401 && opts.sessionCall !== false && token) onUnauthorized?.();
    throw new ApiError(res.status, data);
  }
  return { status: res.status, data: data as T };
}

/**
 * A file answer (the token header is required, so not a plain link): the bytes and the name the server gives in
 * Content-Disposition, else `fallbackName`. A failed call throws ApiError with the JSON body when there is one.
 */
export async function requestFile(
  method: 'GET' | 'POST',
  path: string,
  opts: { json?: unknown; fallbackName: string },
): Promise<{ blob: Blob; fileName: string }> {
  const token = readToken();
  const headers: Record<string, string> = token ? { Authorization: `Token ${token}` } : {};
  if (opts.json !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(path, { method, headers, ...(opts.json !== undefined ? { body: JSON.stringify(opts.json) } : {}) });
  if (!res.ok) {
    let body: unknown = null;
    try {
      body = await res.json();
    } catch {
      // not JSON
    }
    throw new ApiError(res.status, body);
  }
  const fileName = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? opts.fallbackName;
  return { blob: await res.blob(), fileName };
}

/** Bytes of a request body sent so far, of `total`. */
export type UploadProgress = { sent: number; total: number };

/**
 * POSTs a multipart form with XMLHttpRequest (fetch reports no upload progress): `onProgress` gets the bytes sent
 * of the total, then the answer is read as `request` reads it (ApiError on 4xx/5xx, 401 drops the session).
 */
export function uploadForm<T>(path: string, form: FormData, onProgress: (p: UploadProgress) => void): Promise<ApiResponse<T>> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.setRequestHeader('Accept', 'application/json');
    const token = readToken();
    if (token) xhr.setRequestHeader('Authorization', `Token ${token}`);
    xhr.upload.onprogress = (e) => onProgress({ sent: e.loaded, total: e.lengthComputable ? e.total : e.loaded });
    xhr.upload.onload = (e) => onProgress({ sent: e.loaded, total: e.lengthComputable ? e.total : e.loaded });
    xhr.onerror = () => reject(new TypeError('The upload failed: the connection was lost.'));
    xhr.onabort = () => reject(new TypeError('The upload was cancelled.'));
    xhr.onload = () => {
      let data: unknown = null;
      if (xhr.responseText) {
        try {
          data = JSON.parse(xhr.responseText);
        } catch {
          data = { detail: xhr.responseText.slice(0, 300) };
        }
      }
      if (xhr.status >= 500) console.error('Server Error', xhr.status, path);
      else if (xhr.status === 401 && token) onUnauthorized?.();
      if (xhr.status < 200 || xhr.status >= 300) reject(new ApiError(xhr.status, data));
      else resolve({ status: xhr.status, data: data as T });
    };
    xhr.send(form);
  });
}
