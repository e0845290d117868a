import { env } from '../config/env';
import { boot } from './boot';
import { startHttpServer } from './http-server';
import { stopOnSignals } from './lifecycle';

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
stopOnSignals(server);
