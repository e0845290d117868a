/** A UCP route's message ({type, code, content, severity}), as its error answers carry them. */
export interface UcpMessage {
  type: string;
  code: string;
  content: string;
  severity?: string;
}

/**
 * A failure answered by the API (its `code` and `error`, or a UCP route's `code`, `detail` and
 * `messages`), or the API could not be reached.
 */
export class ApiRequestError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    readonly details?: string,
    readonly issues?: Array<{ path: string; message: string }>,
    readonly messages?: UcpMessage[],
  ) {
    super(message);
    this.name = 'ApiRequestError';
  }
}

export interface Transport {
  baseUrl: string;
  /** Value of the `authorization` header: an API key, or `Bearer <operator token>`. */
  authorization: string;
  /** Sent with every request: the client naming itself (X-Order-Source). */
  headers?: Record<string, string>;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | undefined>;
  headers?: Record<string, string>;
}

/** One JSON request; resolves with the success body, rejects with ApiRequestError. */
export async function request<T>(
  transport: Transport,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  opts: RequestOptions = {},
): Promise<T> {
  const url = new URL(transport.baseUrl.replace(/\/+$/, '') + path);
  for (const [name, value] of Object.entries(opts.query ?? {}))
    if (value !== undefined) url.searchParams.set(name, value);
  const headers: Record<string, string> = {
    accept: 'application/json',
    authorization: transport.authorization,
    ...(transport.headers ?? {}),
    ...(opts.headers ?? {}),
  };
  let body: string | undefined;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] = 'application/json';
  }
  let res: Response;
  try {
    res = await (transport.fetch ?? fetch)(url, {
      method,
      headers,
      body,
      cache: 'no-store',
      signal: AbortSignal.timeout(transport.timeoutMs ?? 30_000),
    });
  } catch (err) {
    const timedOut = (err as Error)?.name === 'TimeoutError';
    throw new ApiRequestError(
      timedOut ? 'API_TIMEOUT' : 'API_UNREACHABLE',
      timedOut
        ? 'The service did not answer in time'
        : `The service at ${url.origin} could not be reached`,
      0,
    );
  }
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : {};
  } catch {
    throw new ApiRequestError(
      'UNREADABLE_RESPONSE',
      `The service answered ${res.status} with a body that is not JSON`,
      res.status,
    );
  }
  if (!res.ok) {
    const failure = parsed as {
      code?: string;
      error?: string;
      detail?: string;
      message?: string;
      issues?: Array<{ path: string; message: string }>;
      messages?: UcpMessage[];
    };
    throw new ApiRequestError(
      failure.code ?? `HTTP_${res.status}`,
      failure.error ?? failure.detail ?? `The service answered ${res.status}`,
      res.status,
      failure.message,
      failure.issues,
      failure.messages,
    );
  }
  return parsed as T;
}
