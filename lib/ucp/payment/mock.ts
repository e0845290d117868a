import { randomUUID } from 'node:crypto';
import { UcpError } from '../errors';
import type { PaymentHandler, PaymentRequest } from './handler';

/**
 * The conformance suite's `mock_payment_handler`, as the reference server implements it: a card
 * credential is accepted; a token credential is accepted for `success_token`, declined for
 * `fail_token` (402) and `fraud_token` (403), refused for any other. Enabled only on a store
 * whose settings list it: it takes no money.
 */
export const mockPaymentHandler: PaymentHandler = {
  id: 'mock_payment_handler',
  authorize(request: PaymentRequest) {
    const credential = request.instrument.credential as
      { type?: unknown; token?: unknown; number?: unknown } | undefined;
    if (!credential) {
      return Promise.resolve({
        authorized: false,
        error: new UcpError(400, 'INVALID_REQUEST', 'Missing credentials in instrument'),
      });
    }
    const approved = { authorized: true as const, reference: `mock_${randomUUID()}` };
    if (credential.type === 'card' || typeof credential.number === 'string') {
      return Promise.resolve(approved);
    }
    const declined = (status: 402 | 403, code: string, message: string) =>
      Promise.resolve({
        authorized: false as const,
        error: new UcpError(status, code, message, 'requires_buyer_input'),
      });
    switch (credential.token) {
      case 'success_token':
        return Promise.resolve(approved);
      case 'fail_token':
        return declined(402, 'INSUFFICIENT_FUNDS', 'Payment Failed: Insufficient Funds (Mock)');
      case 'fraud_token':
        return declined(403, 'FRAUD_DETECTED', 'Payment Failed: Fraud Detected (Mock)');
      default:
        return declined(402, 'UNKNOWN_TOKEN', 'Payment Failed: unknown token (Mock)');
    }
  },
};
