import type { Caller } from '../auth/keys';
import { currentEnv } from '../config/env';
import type { OrderSource } from '../contract/orders';

/**
 * The request header a client names itself with when it places an order through /buy (`mcp`,
 * `dashboard`). A client that leaves it out loses nothing: its order is recorded as `api`. A UCP
 * checkout's order is `ucp` whoever completes it: that is what its UCP routes look it up by.
 */
export const ORDER_SOURCE_HEADER = 'x-order-source';

/** The dashboard calls the API with DASHBOARD_API_KEY (the operator's, or the one boot made). */
function isDashboardKey(caller: Caller): boolean {
  const key = currentEnv().DASHBOARD_API_KEY;
  return key !== undefined && key.startsWith(`${caller.keyPrefix}_`);
}

/**
 * The source an order records. `mcp` is taken from any caller: anyone with a key may use the MCP
 * server, so the claim grants nothing. `dashboard` is taken only with the dashboard's own key, so
 * no outside caller can pass its orders off as placed by the operator's dashboard; anything else
 * is `api`.
 */
export function orderSource(claim: string | undefined, caller: Caller): OrderSource {
  const named = claim?.trim().toLowerCase();
  if (named === 'mcp') return 'mcp';
  if (named === 'dashboard' && isDashboardKey(caller)) return 'dashboard';
  return 'api';
}
