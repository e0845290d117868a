import { dataDir, env } from '../config/env';
import { openDatabase, type Database } from '../db/client';
import { keepTokenKeyIn } from '../stores/token-key';

/**
 * The CLI uses the database the server uses. With the embedded default, a running server holds
 * the data directory; the CLI then joins it over the server's loopback wire port instead of
 * opening the files a second time.
 */
export async function withDatabase<T>(fn: (database: Database) => Promise<T>): Promise<T> {
  // The embedded database's store token key lives beside it, shared with the server.
  if (!env().DATABASE_URL) keepTokenKeyIn(dataDir());
  const database = await openDatabase({ joinRunningServer: true });
  try {
    return await fn(database);
  } finally {
    await database.close();
  }
}

/** Prints `data` as one JSON line with --json, else the human text. */
export function emit(json: boolean | undefined, data: unknown, human: string): void {
  process.stdout.write(json ? `${JSON.stringify(data)}\n` : `${human}\n`);
}

export class CliError extends Error {}
