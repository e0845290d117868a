import { openDatabase } from '../db/client';
import { readLock } from '../db/lock';

/**
 * The bench's "Postgres server over the wire": this process holds the PGlite data directory and
 * serves it on a loopback socket; the bench talks to it with `pg`. It prints the port as one JSON
 * line and exits when its standard input closes.
 */
async function main() {
  const dir = process.argv[2];
  if (!dir) throw new Error('usage: wire-server <data-dir>');
  const database = await openDatabase({ dataDir: dir, shareOverSocket: true });
  process.stdout.write(`${JSON.stringify({ port: readLock(dir)?.socketPort })}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => {
    void database.close().then(() => process.exit(0));
  });
}

main().catch((err) => {
  process.stderr.write(`wire-server failed: ${(err as Error).message}\n`);
  process.exit(1);
});
