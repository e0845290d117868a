import LinkHeader from 'http-link-header';
import ky, { HTTPError, TimeoutError, type KyInstance, type Options } from 'ky';
import type { PlatformSettings } from './settings';
import type { StoreConnection } from './types';

/**
 * Shopify's Admin REST API clients: GETs are retried on timeouts, 429 and 5xx. An order POST
 * is retried only when Shopify provably did not act on it: a 429 (the rate limiter refused it
 * before it was processed) and a refused connection (nothing was sent). A timeout, a 5xx or a
 * connection dropped mid-request may hide a created order, so those are never repeated.
 */

/** Errors whose request never left this machine. */
export const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

export function networkCode(error: unknown): string | undefined {
  const cause = (error as { cause?: { code?: string } } | undefined)?.cause;
  return cause?.code;
}

/** Shopify's Retry-After is seconds, possibly fractional ("2.0"). */
function retryAfterMs(response: Response): number | undefined {
  const header = response.headers.get('retry-after');
  if (!header) return undefined;
  const seconds = Number(header);
  return Number.isFinite(seconds) ? seconds * 1000 : undefined;
}

/** A 429 asking for a longer wait than we allow ends the call instead of being cut short. */
function waitTooLong(error: Error, settings: PlatformSettings): boolean {
  if (!(error instanceof HTTPError) || error.response.status !== 429) return false;
  const wait = retryAfterMs(error.response);
  return wait !== undefined && wait > settings.PLATFORM_MAX_RETRY_AFTER_MS;
}

function client(
  connection: StoreConnection,
  settings: PlatformSettings,
  retry: Options['retry'],
): KyInstance {
  return ky.create({
    prefixUrl: `${connection.baseUrl.replace(/\/+$/, '')}/admin/api/${settings.SHOPIFY_API_VERSION}/`,
    headers: { 'x-shopify-access-token': connection.token, accept: 'application/json' },
    timeout: settings.PLATFORM_TIMEOUT_MS,
    retry,
  });
}

export function readClient(connection: StoreConnection, settings: PlatformSettings): KyInstance {
  return client(connection, settings, {
    limit: settings.PLATFORM_RETRY_LIMIT,
    methods: ['get'],
    statusCodes: [408, 429, 500, 502, 503, 504],
    retryOnTimeout: true,
    backoffLimit: 2_000,
    shouldRetry: ({ error }) => (waitTooLong(error, settings) ? false : undefined),
  });
}

export function orderClient(connection: StoreConnection, settings: PlatformSettings): KyInstance {
  return client(connection, settings, {
    limit: settings.PLATFORM_RETRY_LIMIT,
    methods: ['post'],
    statusCodes: [429],
    afterStatusCodes: [429],
    retryOnTimeout: false,
    backoffLimit: 2_000,
    shouldRetry: ({ error }) => {
      if (error instanceof HTTPError) {
        return error.response.status === 429 && !waitTooLong(error, settings) ? undefined : false;
      }
      return NOT_SENT_CODES.has(networkCode(error) ?? '');
    },
  });
}

/** Shopify's `errors` is a string, a list, or an object of field -> messages. */
export async function shopifyErrors(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  try {
    const errors = (JSON.parse(text) as { errors?: unknown }).errors;
    if (typeof errors === 'string') return errors;
    if (Array.isArray(errors)) return errors.join('; ');
    if (errors && typeof errors === 'object') {
      return Object.entries(errors as Record<string, unknown>)
        .map(([field, messages]) =>
          field === 'base'
            ? [messages].flat().join('; ')
            : `${field}: ${[messages].flat().join('; ')}`,
        )
        .join('; ');
    }
  } catch {
    // Not JSON (a proxy's HTML error page): the status line says enough.
  }
  return `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
}

/** Words for a failure that kept us from getting an answer. */
export function transportReason(error: unknown, settings: PlatformSettings): string {
  if (error instanceof TimeoutError) return `no answer within ${settings.PLATFORM_TIMEOUT_MS} ms`;
  if (error instanceof SyntaxError) return 'the answer was not JSON';
  const code = networkCode(error);
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host name not found';
  return `connection failed${code ? ` (${code})` : ''}`;
}

/**
 * The query of the page after this one, from the `Link` header's `rel="next"` URL. Only its
 * query is kept: the request goes to the store's own Admin API address with its token, never to
 * a host the header names.
 */
export function nextPage(response: Response): URLSearchParams | undefined {
  const header = response.headers.get('link');
  if (!header) return undefined;
  const [next] = LinkHeader.parse(header).rel('next');
  return next ? new URL(next.uri, 'https://shop.invalid').searchParams : undefined;
}

/** Shopify linked back to a page already read: following it would never end. */
class PageLoopError extends Error {}

/**
 * GETs `path` and every page after it by the `Link` header's cursor, handing each page's body
 * to `onPage`. Throws what the client throws, and a PageLoopError for a cursor seen before.
 */
export async function readEveryPage(
  api: KyInstance,
  path: string,
  firstPage: URLSearchParams,
  onPage: (body: unknown) => void,
): Promise<void> {
  let searchParams: URLSearchParams | undefined = firstPage;
  const seen = new Set<string>();
  while (searchParams) {
    const response = await api.get(path, { searchParams });
    onPage(await response.json());
    searchParams = nextPage(response);
    const cursor = searchParams?.get('page_info') ?? '';
    if (searchParams && seen.has(cursor)) {
      throw new PageLoopError(`Shopify linked a page of ${path} already read`);
    }
    seen.add(cursor);
  }
}

/** Words for a failed read: Shopify's answer, a page loop, or the transport's failure. */
export async function readFailure(error: unknown, settings: PlatformSettings): Promise<string> {
  if (error instanceof HTTPError) {
    return `Shopify answered ${error.response.status}: ${await shopifyErrors(error.response)}`;
  }
  if (error instanceof PageLoopError) return error.message;
  return transportReason(error, settings);
}
