import { UcpError } from '../errors';
import type { PaymentHandlerConfig } from '../../contract/store-rules';
import type { PaymentHandler } from './handler';
import { mockPaymentHandler } from './mock';

/** The handlers this service can run, by UCP handler id. */
const RUNNABLE: Record<string, PaymentHandler> = {
  [mockPaymentHandler.id]: mockPaymentHandler,
};

/**
 * The handler for an instrument: one the store accepts (its settings list it) and this service
 * can run. A store may declare handlers it takes elsewhere (google_pay, shop_pay): a checkout
 * shows them, and refuses to complete with them here, where no processor is connected.
 */
export function handlerFor(
  accepted: PaymentHandlerConfig[],
  handlerId: string | undefined,
): PaymentHandler {
  if (!handlerId)
    throw new UcpError(400, 'INVALID_REQUEST', 'The payment instrument names no handler_id');
  if (!accepted.some((h) => h.id === handlerId)) {
    throw new UcpError(
      400,
      'PAYMENT_HANDLER_NOT_ACCEPTED',
      `This store does not accept payment handler ${handlerId}`,
      'requires_buyer_input',
    );
  }
  const handler = RUNNABLE[handlerId];
  if (!handler) {
    throw new UcpError(
      400,
      'PAYMENT_HANDLER_UNAVAILABLE',
      `Payment handler ${handlerId} is declared by this store but no payment processor for it is connected to this service: choose another handler`,
      'requires_buyer_input',
    );
  }
  return handler;
}
