import { dataDir, env } from '../config/env';
import { openDatabase, type Database } from '../db/client';
import { readLock } from '../db/lock';
import { trustImagePrefix } from '../images/trusted-sources';
import { keepTokenKeyIn } from '../stores/token-key';

/**
 * The CLI uses the database the server uses. With the embedded default, a running server holds
 * the data directory; the CLI then joins it over the server's loopback wire port instead of
 * opening the files a second time.
 */
export async function withDatabase<T>(fn: (database: Database) => Promise<T>): Promise<T> {
  if (!env().DATABASE_URL) {
    // The embedded database's store token key lives beside it, shared with the server, and a
    // running server's demo simulator serves the demo's images to this process too.
    keepTokenKeyIn(dataDir());
    for (const prefix of readLock(dataDir())?.imagePrefixes ?? []) trustImagePrefix(prefix);
  }
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
