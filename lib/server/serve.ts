import { env } from '../config/env';
import { startHttpServer } from './http-server';
import { serveWhileBooting } from './run';

/**
 * Serves API and dashboard from the existing build on HOST:PORT (`--dev`: Next.js in development
 * mode, no build needed). The database is opened and the boot steps run here, in the process
 * that serves the API, while the server already answers (API requests 503 until they are done).
 */
const { HOST, PORT } = env();
const dev = process.argv.includes('--dev');
await serveWhileBooting(() => startHttpServer({ host: HOST, port: PORT, dev }));
process.stdout.write(`Serving on http://${HOST}:${PORT}${dev ? ' (development)' : ''}\n`);
