/**
 * The one module that talks HTTP to the server: callable functions (`POST /api/fn/{name}`),
 * the auth routes and the read-model GETs all go through {@link ApiClient.request}, so every
 * answer is checked, and every failure mapped to the spec's error catalogue (§8), in one place.
 */
// Before any schema runs, in whichever chunk loads first (see zod-without-eval.ts).
import './zod-without-eval';
import type { z } from 'zod';
import { codeForStatus, type ErrorCode } from '../../../events/errors';
import type { FunctionName, FunctionPayload, FunctionResults } from '../../../events/functions';
import { parsePosition, type Position } from '../../../events/position';

/** A callable function gives up after this long (spec §7, §9). */
export const FUNCTION_TIMEOUT_MS = 70_000;

export const NOT_JSON_OBJECT_MESSAGE = 'Response is not valid JSON object.';
export const MISSING_DATA_MESSAGE = 'Response is missing data field.';

/** What the user reads when the server gave no message of its own. */
const DEFAULT_MESSAGES: Record<ErrorCode, string> = {
  'invalid-argument': 'The request was not valid.',
  unauthenticated: 'Unauthenticated',
  'permission-denied': 'You do not have permission to do that.',
  'not-found': 'Not found.',
  aborted: 'The request conflicted with another change. Try again.',
  'resource-exhausted': 'A limit was reached. Try again later.',
  cancelled: 'The request was cancelled.',
  internal: 'Internal error.',
  unimplemented: 'This is not available yet.',
  unavailable: 'The service is unavailable right now. Try again in a moment.',
  'deadline-exceeded': 'The server took too long to answer. Try again.',
  unknown: 'Something went wrong. Try again.',
};

export const NETWORK_ERROR_MESSAGE = 'Could not reach Mapfold. Check your connection and try again.';

/** A failed call, with the catalogue code, the message to show and the HTTP status (0 when none). */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Any thrown value as an {@link ApiError}, for code that must show or return an error. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  return new ApiError('internal', error instanceof Error && error.message ? error.message : DEFAULT_MESSAGES.internal, 0);
}

export interface ApiAnswer<T> {
  result: T;
  /** The global position the answer reflects (commands: their last event), if the server said. */
  position: Position | null;
}

export interface RequestOptions {
  /** Cancels the request; the call then fails with `cancelled`. */
  signal?: AbortSignal;
}

export interface ApiClientOptions {
  /** Prefix of every path; '' (same origin) in the browser, an absolute origin in Node tests. */
  baseUrl?: string;
  /** Defaults to the global fetch, looked up at call time (so tests can stub it). */
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** Extra headers on every request (tests pass a session cookie this way). */
  headers?: Record<string, string>;
  /**
   * Where a bearer token comes from (Clerk mode: Clerk's getToken()). When it gives a token,
   * every request carries `Authorization: Bearer <token>` and no cookie; when it gives null (or
   * there is no provider, the local mode), the session cookie authenticates.
   */
  getToken?: TokenProvider | null;
}

/** Gives the current bearer token, or null when the request should go without one. */
export type TokenProvider = () => Promise<string | null>;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function errorMessageOf(body: unknown): string | null {
  if (!isObject(body) || !isObject(body.error)) return null;
  const message = body.error.message;
  return typeof message === 'string' && message.trim() !== '' ? message : null;
}

function positionOf(value: unknown): Position | null {
  if (typeof value !== 'string') return null;
  try {
    return parsePosition(value);
  } catch {
    return null;
  }
}

/** The file name of a `Content-Disposition: attachment` header (RFC 6266: `filename*` first). */
export function fileNameOf(disposition: string | null): string | null {
  if (!disposition) return null;
  const encoded = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(disposition);
  if (encoded) {
    try {
      return decodeURIComponent(encoded[1]!.trim());
    } catch {
      // Malformed: the plain filename below, if any.
    }
  }
  const plain = /filename\s*=\s*"([^"]*)"|filename\s*=\s*([^;]+)/i.exec(disposition);
  return plain ? (plain[1] ?? plain[2]!).trim() || null : null;
}

export function createApiClient(options: ApiClientOptions = {}) {
  const baseUrl = options.baseUrl ?? '';
  const timeoutMs = options.timeoutMs ?? FUNCTION_TIMEOUT_MS;
  let tokenProvider: TokenProvider | null = options.getToken ?? null;

  /** The token for one request; a provider that fails counts as no token (the server then says 401). */
  async function currentToken(): Promise<string | null> {
    if (!tokenProvider) return null;
    try {
      return await tokenProvider();
    } catch {
      return null;
    }
  }

  /**
   * One request: `body` is sent as JSON when given. Resolves to the answer's `result` (or
   * `data`) and position; rejects with an {@link ApiError} only.
   */
  async function request<T = unknown>(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    schema?: z.ZodType<T>,
    requestOptions: RequestOptions = {},
  ): Promise<ApiAnswer<T>> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const outer = requestOptions.signal;
    const onOuterAbort = () => controller.abort();
    if (outer?.aborted) controller.abort();
    outer?.addEventListener('abort', onOuterAbort);

    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let status: number;
    let json: unknown;
    let parsedJson: boolean;
    try {
      const token = await currentToken();
      if (token) headers.authorization = `Bearer ${token}`;
      const doFetch = options.fetch ?? globalThis.fetch;
      const init: RequestInit = { method, headers, credentials: token ? 'omit' : 'include', signal: controller.signal };
      if (body !== undefined) init.body = JSON.stringify(body);
      const response = await doFetch(`${baseUrl}${path}`, init);
      status = response.status;
      const text = await response.text();
      try {
        json = JSON.parse(text);
        parsedJson = true;
      } catch {
        parsedJson = false;
      }
    } catch {
      if (timedOut) throw new ApiError('deadline-exceeded', DEFAULT_MESSAGES['deadline-exceeded'], 0);
      if (outer?.aborted) throw new ApiError('cancelled', DEFAULT_MESSAGES.cancelled, 0);
      throw new ApiError('internal', NETWORK_ERROR_MESSAGE, 0);
    } finally {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onOuterAbort);
    }

    if (status < 200 || status >= 300) {
      const code = codeForStatus(status);
      throw new ApiError(code, (parsedJson ? errorMessageOf(json) : null) ?? DEFAULT_MESSAGES[code], status);
    }
    if (!parsedJson || !isObject(json)) throw new ApiError('internal', NOT_JSON_OBJECT_MESSAGE, status);
    if (!('result' in json) && !('data' in json)) throw new ApiError('internal', MISSING_DATA_MESSAGE, status);
    const raw = 'result' in json ? json.result : json.data;
    let result = raw as T;
    if (schema) {
      const checked = schema.safeParse(raw);
      if (!checked.success) throw new ApiError('internal', 'The server sent an answer this page does not understand. Reload the page.', status);
      result = checked.data;
    }
    return { result, position: positionOf(json.position) };
  }

  /**
   * A file the server makes (a CSV): `GET path` with the same authentication as every call (the
   * session cookie, or Clerk's bearer token, which a plain link could not carry), answered as a
   * Blob with the file name the server gave (`Content-Disposition`), if any. Rejects with an
   * {@link ApiError} only.
   */
  async function download(path: string, requestOptions: RequestOptions = {}): Promise<{ blob: Blob; fileName: string | null }> {
    const headers: Record<string, string> = { ...options.headers };
    let response: Response;
    try {
      const token = await currentToken();
      if (token) headers.authorization = `Bearer ${token}`;
      const doFetch = options.fetch ?? globalThis.fetch;
      response = await doFetch(`${baseUrl}${path}`, { method: 'GET', headers, credentials: token ? 'omit' : 'include', ...(requestOptions.signal ? { signal: requestOptions.signal } : {}) });
      if (response.ok) return { blob: await response.blob(), fileName: fileNameOf(response.headers.get('content-disposition')) };
    } catch {
      if (requestOptions.signal?.aborted) throw new ApiError('cancelled', DEFAULT_MESSAGES.cancelled, 0);
      throw new ApiError('internal', NETWORK_ERROR_MESSAGE, 0);
    }
    const code = codeForStatus(response.status);
    const body: unknown = await response.json().catch(() => null);
    throw new ApiError(code, errorMessageOf(body) ?? DEFAULT_MESSAGES[code], response.status);
  }

  return {
    request,
    download,
    /** Sets (or, with null, removes) where bearer tokens come from; see {@link ApiClientOptions.getToken}. */
    setTokenProvider(provider: TokenProvider | null) {
      tokenProvider = provider;
    },
    /** Calls a callable function (spec §7): `POST /api/fn/{name}` with `{data}`. */
    callFunction<N extends FunctionName>(name: N, data: FunctionPayload<N>, requestOptions?: RequestOptions) {
      return request<FunctionResults[N]>('POST', `/api/fn/${encodeURIComponent(name)}`, { data }, undefined, requestOptions);
    },
    /** A read-model query: `GET path`, answering `{result, position}`. */
    get<T>(path: string, schema?: z.ZodType<T>, requestOptions?: RequestOptions) {
      return request<T>('GET', path, undefined, schema, requestOptions);
    },
    /** A POST to a non-function route (auth), in the same `{data}` shape. */
    post<T>(path: string, data: unknown, schema?: z.ZodType<T>, requestOptions?: RequestOptions) {
      return request<T>('POST', path, { data }, schema, requestOptions);
    },
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;

/** The browser's client: same origin, the session cookie or (Clerk mode) a bearer token. */
export const api: ApiClient = createApiClient();

export const callFunction = api.callFunction;
