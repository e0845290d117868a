import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database } from '../db/client';
import { testDatabaseUrl } from './no-test-database';
import { startTestServer, type TestServer } from './server';

export interface OwnDatabase {
  /** The URL to open: a fresh database on the test server, or 'memory://'. */
  url: string;
  /** Removes the fresh database; call after every connection to it is closed. */
  drop(): Promise<void>;
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * A database no other test file writes to, for a test that compares whole tables before and
 * after: parallel suites share the server TEST_DATABASE_URL names. On a PostgreSQL server that
 * is a database created for the file (migrated when opened); where the server cannot give one
 * (no TEST_DATABASE_URL, or PGlite's socket server, which serves one database whatever the URL
 * names), the file gets an in-process PGlite.
 */
export async function ownDatabase(label: string): Promise<OwnDatabase> {
  const server = testDatabaseUrl();
  const memory = { url: 'memory://', drop: () => Promise.resolve() };
  if (!server) return memory;
  const name = `${label}_${randomBytes(6).toString('hex')}`.toLowerCase();
  const url = new URL(server);
  url.pathname = `/${name}`;
  const drop = () =>
    withClient(server, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(
      () => undefined,
    );
  try {
    await withClient(server, (c) => c.query(`CREATE DATABASE "${name}"`));
    const current = await withClient(url.toString(), (c) => c.query('SELECT current_database()'));
    if (current.rows[0]?.current_database === name) return { url: url.toString(), drop };
  } catch {
    // No database of its own on this server: the in-process one below.
  }
  await drop().catch(() => undefined);
  return memory;
}

/**
 * A test server on a database of its own (ownDatabase): for a suite whose data would disturb the
 * others, or that compares whole tables. `close` stops the server, then drops the database.
 */
export async function startOwnTestServer(label: string): Promise<TestServer> {
  const own = await ownDatabase(label);
  const server = await startTestServer({ url: own.url });
  return {
    ...server,
    close: async () => {
      await server.close();
      await own.drop();
    },
  };
}

/**
 * A database of its own (ownDatabase), opened and migrated, for a file that works on the
 * database without a server. `close` closes it, then drops it.
 */
export interface OpenOwnDatabase {
  database: Database;
  close(): Promise<void>;
}

export async function openOwnDatabase(label: string): Promise<OpenOwnDatabase> {
  const own = await ownDatabase(label);
  const database = await openDatabase({ url: own.url });
  return {
    database,
    close: async () => {
      await database.close();
      await own.drop();
    },
  };
}
