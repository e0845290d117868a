import { createHash } from 'node:crypto';
import type { PGlite } from '@electric-sql/pglite';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { queryRows, type Db } from './client';
import { inProcessClient } from './engine';
import { pgliteSimpleQuery } from './engine/pglite-internals';

/**
 * At most this many statement texts are prepared per process; others run unprepared. The
 * server keeps each prepared statement (and its generic plan) for the life of the connection,
 * and node-postgres never deallocates one, so the set a caller can grow must be bounded.
 */
const MAX_PREPARED_TEXTS = 200;

const dialect = new PgDialect();
/** Each prepared text's statement name, the hash of the text. */
const preparedNames = new Map<string, string>();
const preparedOnPglite = new WeakMap<PGlite, Set<string>>();

export type Param = string | number | boolean | null;

/** A value an EXECUTE literal carries exactly: a string holding NUL cannot be one. */
export const isPlainParam = (value: unknown): value is Param =>
  value === null ||
  typeof value === 'number' ||
  typeof value === 'boolean' ||
  (typeof value === 'string' && !value.includes('\u0000'));

const DUPLICATE_PREPARED = '42P05';
const UNDEFINED_PREPARED = '26000';

const isSqlState = (err: unknown, code: string) => (err as { code?: unknown }).code === code;

/** One EXECUTE argument: an escaped literal the statement's parameter type coerces. */
function argumentLiteral(value: Param): string {
  return value === null ? 'NULL' : pg.escapeLiteral(String(value));
}

/** EXECUTE's argument list, `(a, b)` of escaped literals, or nothing for no parameters. */
export function executeArguments(params: Param[]): string {
  return params.length > 0 ? `(${params.map(argumentLiteral).join(', ')})` : '';
}

async function executeOnPglite<T>(
  client: PGlite,
  name: string,
  text: string,
  params: Param[],
): Promise<T[]> {
  let names = preparedOnPglite.get(client);
  if (!names) preparedOnPglite.set(client, (names = new Set()));
  // EXECUTE is a utility statement and takes no bound parameters: its arguments are literals.
  const args = executeArguments(params);
  for (let attempt = 0; ; attempt++) {
    if (!names.has(name)) {
      // Another client of the session (the CLI, over the server's socket) may have made it: a
      // name is its text's hash, so the statement there is this one.
      await client.query(`PREPARE ${name} AS ${text}`).catch((err: unknown) => {
        if (!isSqlState(err, DUPLICATE_PREPARED)) throw err;
      });
      names.add(name);
    }
    try {
      return await pgliteSimpleQuery<T>(client, `EXECUTE ${name}${args}`);
    } catch (err) {
      // Gone if that client made it and has left, or if the session was reset (DEALLOCATE).
      if (attempt > 0 || !isSqlState(err, UNDEFINED_PREPARED)) throw err;
      names.delete(name);
    }
  }
}

/** The text's statement name; none past MAX_PREPARED_TEXTS. */
function nameOf(text: string): string | undefined {
  let name = preparedNames.get(text);
  if (name === undefined && preparedNames.size < MAX_PREPARED_TEXTS) {
    name = `prepared_${createHash('sha256').update(text).digest('hex').slice(0, 32)}`;
    preparedNames.set(text, name);
  }
  return name;
}

/**
 * Runs a statement as a prepared statement of the connection it lands on: the server parses it
 * once per connection and, after a few runs, may keep one generic plan for it instead of
 * planning every run. For statements run on every search whose text takes a few shapes (the
 * values all bound as parameters). The rows come back as the driver parses them by default
 * (text, numbers, booleans, JSON), not through drizzle's column mapping. Inside a transaction,
 * with a parameter other than a string, number, boolean or null (or a string holding NUL,
 * which no literal can carry), or past MAX_PREPARED_TEXTS, it runs unprepared.
 */
export async function queryPrepared<T>(db: Db, query: SQL): Promise<T[]> {
  const { sql: text, params } = dialect.sqlToQuery(query);
  const embedded = inProcessClient(db);
  const client = (db as { $client?: unknown }).$client;
  const pool = client instanceof pg.Pool ? client : undefined;
  const name = params.every(isPlainParam) && (embedded ?? pool) && nameOf(text);
  if (!name) return queryRows<T>(db, query);
  if (embedded) return executeOnPglite<T>(embedded, name, text, params);
  try {
    return (await pool!.query({ name, text, values: params })).rows as T[];
  } catch (err) {
    // A session shared with another client (PGlite's socket) may hold the name already.
    if (isSqlState(err, DUPLICATE_PREPARED)) return queryRows<T>(db, query);
    throw err;
  }
}
