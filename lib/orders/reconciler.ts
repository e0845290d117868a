import type { Db } from '../db/client';
import { ApiError } from '../errors';
import { metrics } from '../metrics/registry';
import { logger } from '../log/logger';
import { claimDue, inFlight, PROCESS_OWNER, releaseAll } from './lease';
import { settlePending } from './service';
import { orderSettings } from './settings';

/**
 * Settles pending orders that no request is working on: ones a crash left behind, and ones
 * parked until the store could no longer create them late. Its state is the orders table
 * (leases that lapse), so it needs nothing from a previous run, and any number of replicas may
 * run it at once: each order is claimed by exactly one of them.
 */
export interface OrderReconciler {
  /** One pass: claims due orders, settles each; returns how many it claimed. */
  runOnce(): Promise<number>;
  /** Stops after the order in hand and lets go of the rest of the batch. */
  stop(): Promise<void>;
}

const BATCH = 20;

export function startOrderReconciler(
  db: Db,
  opts: { owner?: string; intervalMs?: number } = {},
): OrderReconciler {
  const owner = opts.owner ?? `${PROCESS_OWNER}:reconciler`;
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let pass: Promise<number> | undefined;

  async function settleBatch(): Promise<number> {
    const claimed = await claimDue(db, owner, BATCH);
    let created = 0;
    let failed = 0;
    let waiting = 0;
    for (const order of claimed) {
      if (stopping) break;
      try {
        const answer = await inFlight(order.id, () => settlePending(db, order, owner));
        if (answer === undefined) waiting++;
        else created++;
      } catch (err) {
        if (!(err instanceof ApiError)) {
          logger().error(
            { order: order.id, err_type: (err as Error)?.name },
            'order reconciliation failed',
          );
          waiting++;
        } else if (err.code === 'IDEMPOTENCY_KEY_IN_USE') waiting++;
        else failed++;
      }
    }
    if (stopping) await releaseAll(db, owner);
    if (claimed.length > 0) {
      logger().info(
        { claimed: claimed.length, created, failed, still_pending: waiting },
        'order reconciler pass',
      );
    }
    return claimed.length;
  }

  function schedule(): void {
    if (stopping) return;
    const interval = opts.intervalMs ?? orderSettings().ORDER_RECONCILE_INTERVAL_MS;
    timer = setTimeout(() => {
      pass = runOnce().finally(() => {
        pass = undefined;
        schedule();
      });
    }, interval);
    timer.unref();
  }

  async function runOnce(): Promise<number> {
    try {
      const claimed = await settleBatch();
      metrics().reconcilerPasses.inc({ result: 'ok' });
      return claimed;
    } catch (err) {
      // The database may be briefly unreachable; the next pass tries again.
      logger().error({ err_type: (err as Error)?.name }, 'order reconciler pass failed');
      metrics().reconcilerPasses.inc({ result: 'error' });
      return 0;
    }
  }

  logger().info({ owner }, 'order reconciler started');
  schedule();
  return {
    runOnce,
    async stop() {
      stopping = true;
      clearTimeout(timer);
      await pass;
      logger().info({ owner }, 'order reconciler stopped');
    },
  };
}
