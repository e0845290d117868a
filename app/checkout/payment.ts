import type { UcpCompleteCheckoutRequest } from '@/lib/api-client';

/**
 * What the dashboard's checkout pays with. It has no card form, so it can pay only through the
 * mock payment handler (`mock_payment_handler`), which takes no money: a store whose UCP
 * settings name it (the demo store does, as demo data) can be bought from here; any other store
 * cannot, and its product page says why.
 */
export const DASHBOARD_PAYMENT_HANDLER = 'mock_payment_handler';

export const PAYMENT_WORDS =
  'Payment: a demo payment through the store’s mock payment handler. Nothing is charged; the order is placed at the store.';

/** The mock handler's token that it approves. */
export const dashboardPayment: UcpCompleteCheckoutRequest = {
  payment_data: {
    id: 'dashboard-demo-payment',
    handler_id: DASHBOARD_PAYMENT_HANDLER,
    type: 'token',
    credential: { type: 'token', token: 'success_token' },
  },
};

/** Whether a store's payment handlers hold the one the dashboard pays with. */
export function payableHere(handlers: Array<{ id: string }>): boolean {
  return handlers.some((h) => h.id === DASHBOARD_PAYMENT_HANDLER);
}
