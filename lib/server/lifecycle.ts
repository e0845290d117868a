import type { Server } from 'node:http';
import { env } from '../config/env';
import { closeDatabase } from '../db/client';
import { logger } from '../log/logger';

/**
 * A server process's life as a load balancer sees it: starting (work that must finish before it
 * serves well, such as the text model's load), ready, then draining once told to stop. Work
 * started in the background (the order reconciler, the image queue, UCP's outbox) registers how
 * it stops, and stops with the server. A process that never registers start work (a test's
 * server) is ready from the start.
 */

const starting = new Map<string, Promise<unknown>>();
/** Start work that requests cannot do without (the database, its migrations): they wait on 503. */
const holding = new Set<string>();
const failed = new Map<string, string>();
const stoppers: Array<{ what: string; stop: () => Promise<void> }> = [];
let draining = false;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The stoppers get this long together; what has not let go by then is left to its leases. */
const STOP_WAIT_MS = 1_500;

/**
 * Readiness waits for `work` under the name `what`; a failure keeps the process unready. With
 * `holdRequests`, API requests answer 503 (with Retry-After) until it is done: the server listens
 * before its database is open and migrated, so that a probe meanwhile gets an answer rather than
 * a refused connection.
 */
export function whileStarting<T>(
  what: string,
  work: Promise<T>,
  opts: { holdRequests?: boolean } = {},
): Promise<T> {
  const settle = () => {
    starting.delete(what);
    holding.delete(what);
  };
  const tracked = work.then(
    (value) => {
      settle();
      return value;
    },
    (err: unknown) => {
      settle();
      failed.set(what, err instanceof Error ? err.message : String(err));
      throw err;
    },
  );
  starting.set(what, tracked);
  if (opts.holdRequests) holding.add(what);
  return tracked;
}

/** The start work that API requests wait for, if any: they answer 503 meanwhile. */
export function requestsHeldFor(): string | undefined {
  return holding.values().next().value;
}

/**
 * Runs `stop` when the server stops, before the database closes. Returns what takes it back, for
 * work that ends before the server does (a store's sync).
 */
export function onStop(what: string, stop: () => Promise<void>): () => void {
  const entry = { what, stop };
  stoppers.push(entry);
  return () => {
    const at = stoppers.indexOf(entry);
    if (at >= 0) stoppers.splice(at, 1);
  };
}

/** Stops the registered background work, giving it STOP_WAIT_MS together. */
export async function stopBackgroundWork(): Promise<void> {
  const stopped = Promise.allSettled(stoppers.map((s) => s.stop()));
  await Promise.race([stopped, sleep(STOP_WAIT_MS)]);
}

export type Phase = 'starting' | 'ready' | 'draining' | 'failed';

/** Where the process stands, and what keeps it from being ready. */
export function lifecycle(): { phase: Phase; waiting: string[]; failed: string[] } {
  const waiting = [...starting.keys()];
  const broken = [...failed.entries()].map(([what, why]) => `${what}: ${why}`);
  const phase: Phase = draining
    ? 'draining'
    : broken.length
      ? 'failed'
      : waiting.length
        ? 'starting'
        : 'ready';
  return { phase, waiting, failed: broken };
}

/**
 * Stops the process on SIGTERM or SIGINT: readiness turns 503 at once, the server goes on
 * answering for DRAIN_SECONDS (0 by default: a load balancer that polls readiness wants a few) and
 * then refuses new connections; background work stops, the database closes (PGlite writes its
 * data directory then) and the process exits. A second signal skips what is left of the drain.
 */
export function stopOnSignals(server: Server): void {
  let skipDrain: () => void = () => undefined;
  const stop = async (signal: NodeJS.Signals) => {
    draining = true;
    const drainMs = env().DRAIN_SECONDS * 1000;
    logger().info({ signal, drain_seconds: drainMs / 1000 }, 'stopping: readiness answers 503');
    if (drainMs > 0) {
      await Promise.race([sleep(drainMs), new Promise<void>((resolve) => (skipDrain = resolve))]);
    }
    server.close();
    server.closeIdleConnections();
    await stopBackgroundWork();
    await closeDatabase();
    logger().info({ signal }, 'stopped');
    process.exit(0);
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (draining) skipDrain();
      else void stop(signal);
    });
  }
}
