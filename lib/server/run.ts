import type { Server } from 'node:http';
import { logger } from '../log/logger';
import { boot } from './boot';
import { stopOnSignals, whileStarting } from './lifecycle';

/**
 * Runs a server process: starts the boot (database, migrations, demo data), listens meanwhile,
 * so that readiness answers 503 and API requests 503 with Retry-After instead of connections
 * being refused, and stops on signals from the moment it listens. A boot that fails stops the
 * process with exit code 1: the server never serves on a database it could not open or migrate.
 */
export async function serveWhileBooting(listen: () => Promise<Server>): Promise<Server> {
  const booted = whileStarting('database and start-up steps', boot(), { holdRequests: true });
  // Until the server listens, a boot failure is the await below's to report.
  booted.catch(() => undefined);
  const server = await listen();
  stopOnSignals(server);
  try {
    await booted;
  } catch (err) {
    logger().fatal({ err }, 'start-up failed');
    server.close();
    process.exit(1);
  }
  return server;
}
