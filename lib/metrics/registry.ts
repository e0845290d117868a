import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The process's Prometheus metrics, served by GET /api/metrics. Code that records imports the
 * metric it records from here. What lives in the database (orders, syncs, the image backlog) is
 * read at scrape time by ./database.ts, so every replica reports the same numbers and work the
 * CLI did in another process shows too; what only this process sees (requests, search stages,
 * its embedding pool) is counted here.
 */

const slot = globalThis as unknown as { __metrics?: ReturnType<typeof createMetrics> };

const SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
    httpRequests: new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered under /api, by method, route (the pattern, never the raw path) and status',
      labelNames: ['method', 'route', 'status'] as const,
      registers,
    }),
    httpDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time to answer an HTTP request under /api, by method, route and status',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: SECONDS,
      registers,
    }),
    searchStage: new Histogram({
      name: 'search_stage_duration_seconds',
      help: 'Time a product search spent in each stage (query_terms, embed_query, retrieve_candidates, rank_candidates, load_products)',
      labelNames: ['stage'] as const,
      buckets: SECONDS,
      registers,
    }),
    searchResults: new Histogram({
      name: 'search_results',
      help: 'Results returned per search, by operation (search_products, legacy_search)',
      labelNames: ['operation'] as const,
      buckets: [0, 1, 5, 10, 20, 50, 100, 250],
      registers,
    }),
    zeroResultSearches: new Counter({
      name: 'search_zero_results_total',
      help: 'Searches that found nothing (NO_RESULTS_FOUND), by operation',
      labelNames: ['operation'] as const,
      registers,
    }),
    embeddingModel: new Histogram({
      name: 'embedding_model_duration_seconds',
      help: 'Time of one embedding task, by model: a batch of texts in the text model pool (queue wait included), or of images in the image model',
      labelNames: ['model'] as const,
      buckets: SECONDS,
      registers,
    }),
    reconcilerPasses: new Counter({
      name: 'order_reconciler_passes_total',
      help: 'Passes of the order reconciler in this process, by result (ok, error)',
      labelNames: ['result'] as const,
      registers,
    }),
    rateLimited: new Counter({
      name: 'rate_limited_requests_total',
      help: 'Requests refused with 429 RATE_LIMITED, by plan',
      labelNames: ['plan'] as const,
      registers,
    }),
  };
}

/** The metrics, one set per process (Next.js dev reloads re-evaluate modules). */
export function metrics(): ReturnType<typeof createMetrics> {
  slot.__metrics ??= createMetrics();
  return slot.__metrics;
}

/** A gauge read at scrape time; `read` sets its values (labelled or not). */
/** Counts a search's results, and whether it found none, under its operation's name. */
export function recordSearch<R extends { results: unknown[] }>(operation: string, answer: R): R {
  const { searchResults, zeroResultSearches } = metrics();
  searchResults.observe({ operation }, answer.results.length);
  if (answer.results.length === 0) zeroResultSearches.inc({ operation });
  return answer;
}

export function gaugeAtScrape<L extends string>(
  name: string,
  help: string,
  labelNames: readonly L[],
  read: (gauge: Gauge<L>) => Promise<void> | void,
): void {
  const { registry } = metrics();
  if (registry.getSingleMetric(name)) return;
  new Gauge<L>({
    name,
    help,
    labelNames,
    registers: [registry],
    async collect() {
      this.reset();
      await read(this);
    },
  });
}

/** Runs `work`, recording its time in the search stage histogram under `stage`. */
export async function timeStage<T>(stage: string, work: () => T | Promise<T>): Promise<T> {
  const end = metrics().searchStage.startTimer({ stage });
  try {
    return await work();
  } finally {
    end();
  }
}
