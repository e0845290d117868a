import type { ApiClient, UcpCallOptions, UcpCheckout } from '../api-client';
import {
  cancelCheckoutInput,
  checkoutOutput,
  completeCheckoutInput,
  createCheckoutInput,
  getCheckoutInput,
  updateCheckoutInput,
} from './checkout-schemas';
import { answer } from './results';
import { ucpCheckoutSummary } from './summaries';
import { defineTool, type CallMeta, type ShoppingTool } from './tool';
import { invalidArguments, ucpFailure } from './ucp-results';

/**
 * The agent's UCP profile from the binding's `_meta.ucp.profile` (and `version`), sent to the
 * API as the `UCP-Agent` header. Optional with an API key; a store open to keyless agents
 * takes a call without a key by it.
 */
function agentOf(meta: CallMeta): UcpCallOptions {
  const ucp = meta?.ucp as { profile?: unknown; version?: unknown } | undefined;
  return {
    ...(typeof ucp?.profile === 'string' ? { agentProfile: ucp.profile } : {}),
    ...(typeof ucp?.version === 'string' ? { agentVersion: ucp.version } : {}),
  };
}

const run = (call: () => Promise<UcpCheckout>) => answer(call, ucpCheckoutSummary, ucpFailure);

const BINDING =
  "UCP's MCP binding (2026-01-11) over this service's UCP checkout: amounts are integers in minor units. " +
  'store_id names the store (our extension); _meta.ucp.profile, when sent, is passed on as the UCP-Agent header. ' +
  'Failures are JSON-RPC errors whose data holds the UCP errors[].';

/**
 * The UCP MCP binding's checkout tools (create, get, update, complete, cancel), beside our own.
 * Each calls the store's UCP route through `api`, so the checkout code, keys, rate limits and
 * errors are the UCP API's own.
 */
export function checkoutTools(api: ApiClient): ShoppingTool[] {
  return [
    defineTool({
      name: 'create_checkout',
      title: 'Create a UCP checkout',
      description:
        'Start a checkout at a store: the line items priced by the store, the shipping options for the destination, ' +
        'discount codes applied, and the totals, before anything is bought. Show them to the shopper, then ' +
        'update_checkout to pick a shipping option or apply codes, and complete_checkout once the shopper confirms. ' +
        BINDING,
      input: createCheckoutInput,
      output: checkoutOutput,
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
      invalid: invalidArguments,
      run: ({ store_id, checkout, idempotency_key }, meta) =>
        run(() =>
          api.createCheckout(store_id, checkout, {
            ...agentOf(meta),
            idempotencyKey: idempotency_key,
          }),
        ),
    }),

    defineTool({
      name: 'get_checkout',
      title: 'Read a UCP checkout',
      description: `Read one of your checkouts as it is now (status, line items, options, totals, its order once completed). ${BINDING}`,
      input: getCheckoutInput,
      output: checkoutOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
      invalid: invalidArguments,
      run: ({ store_id, id }, meta) => run(() => api.getCheckout(store_id, id, agentOf(meta))),
    }),

    defineTool({
      name: 'update_checkout',
      title: 'Update a UCP checkout',
      description:
        'Change a checkout before it is completed: the buyer, line items, destination, the shipping option ' +
        '(fulfillment.methods[].groups[].selected_option_id, with the method and group ids the checkout shows), or ' +
        'the discount codes (discounts.codes; an unknown code is left out with a warning in messages). What the ' +
        `update leaves out is kept. ${BINDING}`,
      input: updateCheckoutInput,
      output: checkoutOutput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
      invalid: invalidArguments,
      run: ({ store_id, id, checkout, idempotency_key }, meta) =>
        run(() =>
          api.updateCheckout(store_id, id, checkout, {
            ...agentOf(meta),
            idempotencyKey: idempotency_key,
          }),
        ),
    }),

    defineTool({
      name: 'complete_checkout',
      title: 'Complete a UCP checkout (spends the shopper’s money)',
      description:
        "Pay and place the order. This spends the shopper's money: call it only after the shopper has confirmed " +
        'the items, shipping and total the checkout shows. payment.instruments holds the instrument (with its ' +
        'handler_id and credential) and selected_instrument_id names it. idempotency_key (a UUID) is required: the same ' +
        'key on a retry returns the same answer and never pays or orders twice. The result holds order.id and ' +
        `order.permalink_url. ${BINDING}`,
      input: completeCheckoutInput,
      output: checkoutOutput,
      annotations: {
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
        openWorldHint: true,
      },
      invalid: invalidArguments,
      run: ({ store_id, id, payment, idempotency_key }, meta) => {
        const instruments = payment?.instruments ?? [];
        const paying = payment?.selected_instrument_id
          ? instruments.find((i) => i.id === payment.selected_instrument_id)
          : instruments.length === 1
            ? instruments[0]
            : undefined;
        if (!paying) {
          return invalidArguments(
            'payment.instruments must hold the instrument paying, named by payment.selected_instrument_id when there are several',
          );
        }
        return run(() =>
          api.completeCheckout(
            store_id,
            id,
            { payment_data: paying },
            { ...agentOf(meta), idempotencyKey: idempotency_key },
          ),
        );
      },
    }),

    defineTool({
      name: 'cancel_checkout',
      title: 'Cancel a UCP checkout',
      description: `Cancel a checkout that is not completed: nothing is bought and it cannot change any more. idempotency_key (a UUID) is required. ${BINDING}`,
      input: cancelCheckoutInput,
      output: checkoutOutput,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
      invalid: invalidArguments,
      run: ({ store_id, id, idempotency_key }, meta) =>
        run(() =>
          api.cancelCheckout(store_id, id, { ...agentOf(meta), idempotencyKey: idempotency_key }),
        ),
    }),
  ];
}
