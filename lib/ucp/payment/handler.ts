import type { UcpError } from '../errors';

/**
 * A payment handler: what a checkout's completion asks to take the payment for its total with
 * the instrument the buyer chose. A store accepts the handlers its UCP settings list
 * (store_ucp_settings.payment_handlers), each by its UCP handler id.
 *
 * A real processor plugs in here: a handler whose authorize() sends the instrument's token to
 * the processor (for example a Stripe shared payment token, `credential.token`, confirmed as a
 * PaymentIntent for `amount` in `currency`), answers `authorized` with the processor's payment
 * id, or a refusal (declined: 402). Capture would follow the store's order (not done here:
 * the mock has nothing to capture).
 */
export interface PaymentRequest {
  checkoutId: string;
  /** Minor units. */
  amount: number;
  currency: string;
  instrument: { id: string; handler_id?: string; type?: string; credential?: unknown };
}

export type PaymentOutcome =
  { authorized: true; reference: string } | { authorized: false; error: UcpError };

export interface PaymentHandler {
  id: string;
  authorize(request: PaymentRequest): Promise<PaymentOutcome>;
}
