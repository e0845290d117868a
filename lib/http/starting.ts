import { ApiError } from '../errors';
import { requestsHeldFor } from '../server/lifecycle';

/** How long a client is asked to wait while the server starts: migrations take seconds. */
const RETRY_AFTER_SECONDS = 2;

/**
 * While the server's database is still opening or migrating (the server listens meanwhile, for
 * its readiness probe), what a request is answered instead of being served: it would find no
 * database, or one without its tables.
 */
export function startingHold(): { message: string; headers: Record<string, string> } | undefined {
  const held = requestsHeldFor();
  if (!held) return undefined;
  return {
    message: `The server is starting (${held}); retry in ${RETRY_AFTER_SECONDS} s`,
    headers: { 'retry-after': String(RETRY_AFTER_SECONDS) },
  };
}

/** 503 STARTING, in the operation's failure shape, while the server starts. */
export function refuseWhileStarting(): void {
  const hold = startingHold();
  if (hold) throw new ApiError('STARTING', hold.message, 503, undefined, { headers: hold.headers });
}
