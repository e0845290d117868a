import type { z } from 'zod';
import type {
  completeCheckoutRequest,
  createCheckoutRequest,
  updateCheckoutRequest,
} from '../ucp/checkout/requests';
import type { Checkout } from '../ucp/checkout/types';
import type { UcpOrder } from '../ucp/order';
import type { PaymentHandlerConfig } from '../contract/store-rules';
import { request, type Transport } from './request';

export type UcpCheckout = Checkout;
export type { UcpOrder };
export type UcpCreateCheckoutRequest = z.input<typeof createCheckoutRequest>;
export type UcpUpdateCheckoutRequest = z.input<typeof updateCheckoutRequest>;
export type UcpCompleteCheckoutRequest = z.input<typeof completeCheckoutRequest>;

/** The part of a store's business profile (/.well-known/ucp) a client reads. */
export interface UcpBusinessProfile {
  ucp: { version: string; capabilities: { name: string; version: string }[] };
  payment: { handlers: PaymentHandlerConfig[] };
}

/**
 * Per-call UCP headers: the Idempotency-Key, the agent's profile for `UCP-Agent`, and (on
 * completion) the caller's profile the order is for, `X-Profile-Id`.
 */
export interface UcpCallOptions {
  idempotencyKey?: string;
  agentProfile?: string;
  agentVersion?: string;
  profileId?: string;
}

/** An RFC 8941 sf-string: the API refuses what cannot be one (INVALID_UCP_AGENT). */
const sfString = (value: string) => `"${value.replace(/[\\"]/g, '\\$&')}"`;

function ucpHeaders(opts: UcpCallOptions): Record<string, string> | undefined {
  const headers: Record<string, string> = {};
  if (opts.idempotencyKey) headers['idempotency-key'] = opts.idempotencyKey;
  if (opts.profileId) headers['x-profile-id'] = opts.profileId;
  const agent = [
    opts.agentProfile !== undefined ? `profile=${sfString(opts.agentProfile)}` : undefined,
    opts.agentVersion !== undefined ? `version=${sfString(opts.agentVersion)}` : undefined,
  ].filter(Boolean);
  if (agent.length) headers['ucp-agent'] = agent.join('; ');
  return Object.keys(headers).length ? headers : undefined;
}

const enc = encodeURIComponent;

/**
 * A store's UCP routes (/api/ucp/{store_id}), called with the developer's key like the rest of
 * the API: the same checkout code, keys, rate limits and errors as any UCP client gets.
 */
export function ucpMethods(t: Transport) {
  const base = (storeId: string) => `/ucp/${enc(storeId)}`;
  const session = (storeId: string, id: string) => `${base(storeId)}/checkout-sessions/${enc(id)}`;
  return {
    ucpBusinessProfile: (storeId: string) =>
      request<UcpBusinessProfile>(t, 'GET', `${base(storeId)}/.well-known/ucp`),
    createCheckout: (storeId: string, body: UcpCreateCheckoutRequest, opts: UcpCallOptions = {}) =>
      request<UcpCheckout>(t, 'POST', `${base(storeId)}/checkout-sessions`, {
        body,
        headers: ucpHeaders(opts),
      }),
    getCheckout: (storeId: string, id: string, opts: UcpCallOptions = {}) =>
      request<UcpCheckout>(t, 'GET', session(storeId, id), { headers: ucpHeaders(opts) }),
    updateCheckout: (
      storeId: string,
      id: string,
      body: UcpUpdateCheckoutRequest,
      opts: UcpCallOptions = {},
    ) => request<UcpCheckout>(t, 'PUT', session(storeId, id), { body, headers: ucpHeaders(opts) }),
    completeCheckout: (
      storeId: string,
      id: string,
      body: UcpCompleteCheckoutRequest,
      opts: UcpCallOptions = {},
    ) =>
      request<UcpCheckout>(t, 'POST', `${session(storeId, id)}/complete`, {
        body,
        headers: ucpHeaders(opts),
      }),
    cancelCheckout: (storeId: string, id: string, opts: UcpCallOptions = {}) =>
      request<UcpCheckout>(t, 'POST', `${session(storeId, id)}/cancel`, {
        body: {},
        headers: ucpHeaders(opts),
      }),
    getUcpOrder: (storeId: string, id: string, opts: UcpCallOptions = {}) =>
      request<UcpOrder>(t, 'GET', `${base(storeId)}/orders/${enc(id)}`, {
        headers: ucpHeaders(opts),
      }),
  };
}
