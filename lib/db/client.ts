import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite/vector';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import type { SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { dataDir, env } from '../config/env';
import { acquireLock, readLock } from './lock';
import { pgliteBuffersMb } from './pglite-buffers';
import * as schema from './schema';
import { sessionSettingStatements } from './session-settings';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  /** 'pglite' in process; 'postgres' over the wire (a server, or another process's PGlite). */
  kind: 'pglite' | 'postgres';
  /** Where it lives, for logs and health: a directory, or a URL without its password. */
  location: string;
  /**
   * Its connections now, for the metrics: a pool's total, idle and waiting clients; the
   * embedded database is one connection in process.
   */
  poolUse(): Record<string, number>;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** Embedded only: share the database with the CLI over a loopback wire server. */
  shareOverSocket?: boolean;
  /** Embedded only: when another live process holds the directory, connect to its wire server. */
  joinRunningServer?: boolean;
  /** Overrides DATABASE_URL / DATA_DIR (tests). 'memory://' opens a throwaway PGlite. */
  url?: string;
  dataDir?: string;
}

export function migrationsDir(): string {
  return path.resolve(process.cwd(), 'lib/db/migrations');
}

function redact(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
}

/**
 * Closes a PGlite without touching the process's exit code. PGlite 0.4's close() runs
 * Emscripten's exit, which sets process.exitCode = 0 and so turned a failed run (a CLI command,
 * a test run whose teardown closes PGlite) into a success. Fixed upstream in PGlite 0.5.5
 * (electric-sql/pglite#1059).
 */
export async function closePglite(client: PGlite): Promise<void> {
  const exitCode = process.exitCode;
  try {
    await client.close();
  } finally {
    process.exitCode = exitCode;
  }
}

/**
 * Migrates over a connection of its own, closed before the pool that serves opens: a migration
 * may change the database's session defaults (the HNSW settings), which a session takes only when
 * it starts, and the search checks once what its sessions start with (search-settings.ts).
 */
async function migratePostgres(url: string): Promise<void> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    await migratePg(drizzlePg(pool, { schema }), { migrationsFolder: migrationsDir() });
  } finally {
    await pool.end();
  }
}

async function openPostgres(url: string): Promise<Database> {
  await migratePostgres(url);
  const pool = new pg.Pool({ connectionString: url, max: env().DATABASE_POOL_SIZE });
  // A dropped idle connection must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    location: redact(url),
    poolUse: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: () => pool.end(),
  };
}

const embeddedUse = () => ({ total: 1 });

async function openEmbedded(dir: string | undefined, opts: OpenOptions): Promise<Database> {
  if (!dir) {
    const client = await PGlite.create({ extensions: { vector } });
    const db = drizzlePglite(client, { schema }) as unknown as Db;
    await migratePglite(db as never, { migrationsFolder: migrationsDir() });
    await client.exec(sessionSettingStatements().join('; '));
    return {
      db,
      kind: 'pglite',
      location: 'memory://',
      poolUse: embeddedUse,
      close: () => closePglite(client),
    };
  }
  if (opts.joinRunningServer) {
    const holder = readLock(dir);
    if (holder?.socketPort) {
      return openPostgres(
        `postgres://postgres@127.0.0.1:${holder.socketPort}/postgres?sslmode=disable`,
      );
    }
  }
  const lock = acquireLock(dir);
  try {
    fs.mkdirSync(path.join(dir, 'pg'), { recursive: true });
    const client = await PGlite.create(path.join(dir, 'pg'), {
      extensions: { vector },
      // Start parameters replace PGlite's own, so they are kept and the cache size added.
      startParams: [
        ...PGlite.defaultStartParams,
        '-c',
        `shared_buffers=${pgliteBuffersMb(path.join(dir, 'pg'), env().PGLITE_BUFFERS_MB)}MB`,
      ],
    });
    const db = drizzlePglite(client, { schema }) as unknown as Db;
    await migratePglite(db as never, { migrationsFolder: migrationsDir() });
    await client.exec(sessionSettingStatements().join('; '));
    let socket: PGLiteSocketServer | undefined;
    if (opts.shareOverSocket) {
      socket = new PGLiteSocketServer({
        db: client,
        host: '127.0.0.1',
        port: 0,
        maxConnections: 4,
      });
      await socket.start();
      const port = Number(socket.getServerConn().split(':').pop());
      lock.update({ socketPort: port });
    }
    return {
      db,
      kind: 'pglite',
      location: dir,
      poolUse: embeddedUse,
      async close() {
        await socket?.stop();
        await closePglite(client);
        lock.release();
      },
    };
  } catch (err) {
    lock.release();
    throw err;
  }
}

/** Opens (and migrates) the database the configuration names. */
export async function openDatabase(opts: OpenOptions = {}): Promise<Database> {
  const url = opts.url ?? env().DATABASE_URL;
  if (url === 'memory://') return openEmbedded(undefined, opts);
  if (url) return openPostgres(url);
  return openEmbedded(path.resolve(/*turbopackIgnore: true*/ opts.dataDir ?? dataDir()), opts);
}

const globalSlot = globalThis as unknown as { __commerceDatabase?: Promise<Database> };

/**
 * The process-wide database. Kept on globalThis so that Next.js dev-mode module reloading,
 * which re-evaluates this file, reuses the open instance instead of opening PGlite twice.
 */
export function getDatabase(opts: OpenOptions = { shareOverSocket: true }): Promise<Database> {
  if (!globalSlot.__commerceDatabase) {
    globalSlot.__commerceDatabase = openDatabase(opts).catch((err) => {
      globalSlot.__commerceDatabase = undefined;
      throw err;
    });
  }
  return globalSlot.__commerceDatabase;
}

/** Installs an already-open database as the process-wide one (tests, CLI). */
export function setDatabase(database: Database): void {
  globalSlot.__commerceDatabase = Promise.resolve(database);
}

export async function closeDatabase(): Promise<void> {
  const current = globalSlot.__commerceDatabase;
  globalSlot.__commerceDatabase = undefined;
  if (current) await (await current).close();
}

/** Runs raw SQL (built with drizzle's `sql` tag, so parameters stay bound) and returns its rows. */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  // Db's result type is generic over both drivers; both answer with `rows`.
  const result: unknown = await db.execute(query);
  return (result as { rows: T[] }).rows;
}
