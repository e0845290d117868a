import path from 'node:path';
import { z } from 'zod';
import { readSettings } from './settings';

/** A comma-separated list of host names or IPs, lowercased; empty by default. */
const hostList = z
  .string()
  .default('')
  .transform((v) =>
    v
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
  );

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().url().optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  /** Largest page cache of the embedded database in MB (see lib/db/pglite-buffers.ts). */
  PGLITE_BUFFERS_MB: z.coerce.number().int().min(16).max(2048).default(256),
  /**
   * Memory a server may give one HNSW index build, in MB (lib/embeddings/vector-index.ts); the
   * graph of 512-dimension vectors takes about 2.3 KB a product while it is built.
   */
  VECTOR_INDEX_BUILD_MEMORY_MB: z.coerce.number().int().min(64).max(65536).default(1024),
  EMBEDDING_MODEL: z.string().default('use-lite'),
  /** Worker threads running the text model; unset: one per core; 0: the main thread. */
  EMBEDDING_WORKERS: z.coerce.number().int().min(0).max(64).optional(),
  MODELS_DIR: z.string().optional(),
  /** Image model: 'mobilenet-v2-mid' (offline, image-to-image only) or a CLIP model id/directory. */
  IMAGE_EMBEDDING_MODEL: z.string().default('mobilenet-v2-mid'),
  /** Let @huggingface/transformers download from its hub; off because this network has none. */
  TRANSFORMERS_ALLOW_REMOTE: z
    .enum(['true', 'false', '1', '0'])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  /** Hosts or IPs that image fetching may reach even though they are private (tests, demos). */
  IMAGE_FETCH_ALLOW_HOSTS: hostList,
  IMAGE_FETCH_TIMEOUT_MS: z.coerce.number().int().min(100).default(5000),
  IMAGE_FETCH_MAX_BYTES: z.coerce.number().int().min(1024).default(8_388_608),
  IMAGE_FETCH_MAX_REDIRECTS: z.coerce.number().int().min(0).max(10).default(3),
  /** Product images fetched at once by the background image queue. */
  IMAGE_QUEUE_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  /** First wait before a failed product image is tried again; it doubles with each failure. */
  IMAGE_RETRY_BASE_MS: z.coerce.number().int().min(10).default(60_000),
  /** Longest wait between two tries of a failing product image. */
  IMAGE_RETRY_MAX_MS: z.coerce
    .number()
    .int()
    .min(10)
    .default(6 * 3_600_000),
  /** How often the image queue looks for work another process (a CLI sync) left. */
  IMAGE_QUEUE_POLL_MS: z.coerce.number().int().min(10).default(30_000),
  /** How long a query image's embedding is reused before its URL is fetched again. */
  IMAGE_CACHE_TTL_HOURS: z.coerce.number().min(0).default(24),
  /** Image cosine that counts as "unrelated" (0 similarity); unset: the image model's own. */
  IMAGE_SIMILARITY_FLOOR: z.coerce.number().min(0).max(0.99).optional(),
  /** Memory bound of the ranker's cache of analyzed candidate titles, in MB. */
  TITLE_CACHE_MB: z.coerce.number().min(1).default(32),
  /**
   * Memory bound of the cache of the postings searches read per term, in MB; 0 reads
   * them in SQL on every search. 256: at 1.09M products the bench's queries need about that many
   * whole common terms (up to 0.6 MB each); at 64 they evicted each other and the all-stores p99
   * was 147 ms against 35 (docs/bench-log.md, Scale). The cache grows only with terms searched.
   */
  POSTINGS_CACHE_MB: z.coerce.number().min(0).default(256),
  /**
   * Memory bound of the cache of stores' text vectors one-store searches compare with, in MB; 0
   * scans them in SQL on every search. A product takes 2 KB (512 dimensions): 256 MB holds about
   * 128,000 products of the stores searched most recently. It grows only with stores searched.
   */
  STORE_VECTORS_CACHE_MB: z.coerce.number().min(0).default(256),
  /**
   * Stores with fewer products are scanned in SQL instead: the scan is a millisecond or two, about
   * what a load costs, and a store searched rarely would pay a load each time. With 1,000 stores of
   * 55 products, which the bench's one-store searches met once each, loading them took the median
   * from 9.1 to 10.2 ms (docs/bench-log.md, Scale).
   */
  STORE_VECTORS_MIN_PRODUCTS: z.coerce.number().int().min(0).default(1000),
  /**
   * Searches of a store (within ten minutes) that scan its vectors in SQL before a search loads
   * them into that cache: a load is paid back only by the searches after it. A store of 1,093
   * products took about 30 ms to load and 5 to scan; at 1,093,340 products in 1,000 stores, whose
   * one-store searches met each store a few times, loading at the first search took the one-store
   * median from 11.9 ms (no cache) to 85.8, at the second to 41.9, and at the fifth 11.4
   * (docs/bench-log.md, Scale). A store searched often still loads within seconds.
   */
  STORE_VECTORS_LOAD_AFTER: z.coerce.number().int().min(0).default(4),
  OPERATOR_TOKEN: z.string().min(16).optional(),
  /** A ranker model file (npm run train-ranker -- --out FILE) instead of the shipped one. */
  RANKER_MODEL: z.string().min(1).optional(),
  STORE_TOKEN_KEY: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `pretty`: one readable line per event; `json`: one JSON object per line. Unset: pretty on a terminal. */
  LOG_FORMAT: z.enum(['pretty', 'json']).optional(),
  MAX_BODY_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
  /**
   * Seconds a stopping server keeps serving with /api/ready answering 503, so that a load
   * balancer polling readiness stops sending it requests before it refuses connections.
   */
  DRAIN_SECONDS: z.coerce.number().min(0).max(300).default(0),
  /**
   * 1: GET /api/metrics answers anyone (the network it listens on is private); otherwise only a
   * request carrying the operator token in X-Operator-Token, since the metrics name stores.
   */
  METRICS_PUBLIC: z
    .string()
    .default('')
    .transform((v) => v === '1'),
  /** The dashboard's and the MCP server's API; unset: this very server's. */
  API_BASE_URL: z.string().url().optional(),
  /** The key the dashboard calls the API with; unset: the boot step creates one per start. */
  DASHBOARD_API_KEY: z.string().optional(),
  /** The key `npm run mcp` calls the API with. */
  API_KEY: z.string().default(''),
  /** Behind HTTPS set 1; plain-HTTP local use needs cookies without the Secure flag. */
  COOKIE_SECURE: z
    .string()
    .default('')
    .transform((v) => v === '1'),
  /** `off`: no demo shop on an empty database. */
  DEMO_DATA: z.enum(['on', 'off']).default('on'),
  /** A products file to serve as the demo shop instead of the built-in catalogue. */
  DEMO_CATALOGUE: z.string().optional(),
  /**
   * Hosts or IPs that UCP agent profiles and their webhook URLs may point to even though they
   * are private (tests, a local agent); every other private or loopback target is refused.
   */
  UCP_AGENT_FETCH_ALLOW_HOSTS: hostList,
  /**
   * The EC P-256 private key that signs UCP webhooks (PEM or JWK), the same on every replica;
   * unset: a key generated in the data directory (lib/ucp/signing-keys.ts).
   */
  UCP_SIGNING_KEY: z.string().optional(),
  /** Opens POST /ucp/{store}/testing/simulate-shipping/{id} to callers sending it (tests only). */
  UCP_SIMULATION_SECRET: z.string().min(1).optional(),
});

export type Env = z.infer<typeof schema>;

let cached: Env | undefined;

/** Reads configuration from the environment once; every setting has a default or is optional. */
export function env(): Env {
  cached ??= readSettings(schema, 'server');
  return cached;
}

/**
 * The configuration as the environment holds it now, for the few values that change during a
 * process's life: the dashboard key the boot step writes, and the demo and operator settings
 * that tests switch between suites.
 */
export function currentEnv(): Env {
  return readSettings(schema, 'server');
}

/** Tests change the environment between suites; this drops the cached copy. */
export function resetEnvCache(): void {
  cached = undefined;
}

export function dataDir(): string {
  return path.resolve(env().DATA_DIR);
}
