import ky, { HTTPError, TimeoutError } from 'ky';

export interface FeedOptions {
  /** Per request, including the body. */
  timeoutMs?: number;
  /** Retries of a page after a timeout, 408, 413, 429 or 5xx, with exponential backoff. */
  retries?: number;
  /** A Retry-After longer than this fails the page instead of stalling the sync. */
  maxRetryAfterMs?: number;
  /** Stops a server that ignores `page` from serving the first page forever. */
  maxPages?: number;
  /** Ends the feed early, the page in flight abandoned (an interrupted sync). */
  signal?: AbortSignal;
}

export const PAGE_SIZE = 250;

const DEFAULTS: Required<Omit<FeedOptions, 'signal'>> = {
  timeoutMs: 15_000,
  retries: 4,
  maxRetryAfterMs: 60_000,
  maxPages: 2_000,
};

export class FeedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FeedError';
  }
}

function describeFailure(err: unknown, timeoutMs: number): string {
  if (err instanceof HTTPError)
    return `HTTP ${err.response.status} ${err.response.statusText}`.trim();
  if (err instanceof TimeoutError) return `no response within ${timeoutMs / 1000} s`;
  const cause = (err as { cause?: { code?: string } })?.cause?.code;
  return cause ?? (err as Error)?.message ?? String(err);
}

function firstAndLastId(products: unknown[]): string {
  const id = (p: unknown) => String((p as { id?: unknown } | null)?.id);
  return `${id(products[0])}..${id(products[products.length - 1])}`;
}

/**
 * Yields the raw product records of a Shopify store, page by page, from
 * `{baseUrl}/products.json?limit=250&page=N` until a short or empty page. ky retries transient
 * failures with backoff and honours Retry-After; a page that still fails ends the feed with a
 * FeedError naming the page, so a partial listing is never mistaken for the whole store.
 */
export async function* fetchProductPages(
  baseUrl: string,
  options: FeedOptions = {},
): AsyncGenerator<unknown[]> {
  const opts = { ...DEFAULTS, ...options };
  const client = ky.create({
    timeout: opts.timeoutMs,
    signal: opts.signal,
    headers: { accept: 'application/json', 'user-agent': 'commerce-search-catalog-sync/1' },
    retry: {
      limit: opts.retries,
      methods: ['get'],
      statusCodes: [408, 413, 429, 500, 502, 503, 504],
      afterStatusCodes: [413, 429, 503],
      maxRetryAfter: opts.maxRetryAfterMs,
      backoffLimit: 10_000,
      retryOnTimeout: true,
    },
  });
  let previous = '';
  for (let page = 1; page <= opts.maxPages; page++) {
    const url = `${baseUrl}/products.json?limit=${PAGE_SIZE}&page=${page}`;
    let body: unknown;
    try {
      body = await client.get(url).json();
    } catch (err) {
      // Asked to stop: the feed ends here, and the sync reads it as interrupted, not as failed.
      if (opts.signal?.aborted) return;
      const why =
        err instanceof SyntaxError
          ? 'the response is not JSON'
          : describeFailure(err, opts.timeoutMs);
      throw new FeedError(`Fetching ${url} failed: ${why}`);
    }
    const products = (body as { products?: unknown } | null)?.products;
    if (!Array.isArray(products)) {
      throw new FeedError(
        `${url} did not answer with a products.json document ({"products": [...]})`,
      );
    }
    if (products.length === 0) return;
    const signature = firstAndLastId(products);
    if (signature === previous) return;
    previous = signature;
    yield products;
    if (products.length < PAGE_SIZE) return;
  }
}
