import { env } from '../config/env';
import { closeDatabase } from '../db/client';
import { boot } from './boot';
import { startHttpServer } from './http-server';

/**
 * Serves API and dashboard from the existing build on HOST:PORT (`--dev`: Next.js in development
 * mode, no build needed). The database is opened and the boot steps run here, in the process
 * that serves the API, before the first request is accepted.
 */
const { HOST, PORT } = env();
const dev = process.argv.includes('--dev');
await boot();
const server = await startHttpServer({ host: HOST, port: PORT, dev });
process.stdout.write(`Serving on http://${HOST}:${PORT}${dev ? ' (development)' : ''}\n`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    server.close();
    // PGlite writes its data directory on close.
    void closeDatabase().finally(() => process.exit(0));
  });
}
