import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type Database, type OpenOptions } from '../../db/client';

export const ENGINES = ['pglite', 'postgres', 'citus'] as const;
export type EngineName = (typeof ENGINES)[number];

/** Citus workers the bench starts beside the coordinator. */
const CITUS_WORKERS = 2;
/**
 * Shards per distributed table (citus.shard_count when the migration distributes them): one per
 * worker. Every shard is a task of each step of an all-stores search (an HNSW walk, a plan on the
 * worker, a round trip), and on two workers sharing two cores more tasks only queue: at 1,000
 * stores the all-stores p50 was 58 to 63 ms with 8 shards, 52 with 4 and 35 to 40 with 2
 * (docs/bench-log.md).
 */
const CITUS_SHARDS = CITUS_WORKERS;

export interface BenchEngine {
  name: EngineName;
  /** Opens (and migrates) a fresh, empty database on the engine. */
  open(): Promise<Database>;
  /** How another process opens the database open() made. */
  connection(): OpenOptions;
  /** Stops servers the bench started and removes their data. */
  stop(): Promise<void>;
}

/** ../shared/postgres/pg, or the script PG_TOOLS names: it installs and starts real servers. */
function pgTools(): string {
  const tools = path.resolve(process.env.PG_TOOLS ?? '../shared/postgres/pg');
  if (!fs.existsSync(tools)) {
    throw new Error(
      `the postgres and citus engines need ${tools} (set PG_TOOLS to the pg script of shared/postgres)`,
    );
  }
  return tools;
}

/**
 * The engine under test. pglite: the embedded default in a data directory (kept with reuse).
 * postgres: Debian's PostgreSQL 15 with pgvector; citus: a coordinator and two workers; both
 * started on loopback through shared/postgres/pg in a temporary directory, or the running
 * server at `existing.url`.
 */
export function benchEngine(
  name: EngineName,
  dataDir: string,
  port: number,
  existing: { reuse: boolean; url?: string } = { reuse: false },
): BenchEngine {
  if (name === 'pglite') {
    return {
      name,
      open: () => {
        if (!existing.reuse) fs.rmSync(dataDir, { recursive: true, force: true });
        return openDatabase({ dataDir });
      },
      connection: () => ({ dataDir }),
      stop: () => Promise.resolve(),
    };
  }
  if (existing.url) {
    const url = existing.url;
    return {
      name,
      open: () => openDatabase({ url }),
      connection: () => ({ url }),
      // A server the bench did not start is not the bench's to stop.
      stop: () => Promise.resolve(),
    };
  }
  const tools = pgTools();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `bench-${name}-`));
  // initdb runs as the postgres user, which must reach its data directories under this one.
  fs.chmodSync(dir, 0o755);
  let started = false;
  let url: string | undefined;
  return {
    name,
    async open() {
      const args =
        name === 'citus'
          ? ['citus', dir, String(port), String(CITUS_WORKERS)]
          : ['start', dir, String(port)];
      execFileSync('bash', [path.resolve('lib/testing/pg-build-deps.sh')], { stdio: 'inherit' });
      const out = execFileSync('bash', [tools, ...args], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      started = true;
      const server = out.trim().split('\n').at(-1)!;
      url =
        name === 'citus'
          ? `${server}?options=${encodeURIComponent(`-c citus.shard_count=${CITUS_SHARDS}`)}`
          : server;
      return openDatabase({ url });
    },
    connection: () => ({ url }),
    stop() {
      if (started) execFileSync('bash', [tools, 'stop', dir], { stdio: 'inherit' });
      fs.rmSync(dir, { recursive: true, force: true });
      return Promise.resolve();
    },
  };
}
