import { UCP_VERSION } from './version';

/** The capabilities this business implements (its profile lists them with their specs). */
export const CAPABILITIES = [
  { name: 'dev.ucp.shopping.checkout', path: 'checkout' },
  { name: 'dev.ucp.shopping.order', path: 'order' },
  { name: 'dev.ucp.shopping.discount', path: 'discount', extends: 'dev.ucp.shopping.checkout' },
  {
    name: 'dev.ucp.shopping.fulfillment',
    path: 'fulfillment',
    extends: 'dev.ucp.shopping.checkout',
  },
  {
    name: 'dev.ucp.shopping.buyer_consent',
    path: 'buyer_consent',
    specPath: 'buyer-consent',
    extends: 'dev.ucp.shopping.checkout',
  },
] as const;

/** The `ucp` block of a checkout: every checkout capability answers in it. */
export function checkoutUcpBlock() {
  return {
    version: UCP_VERSION,
    capabilities: CAPABILITIES.filter((c) => c.name !== 'dev.ucp.shopping.order').map((c) => ({
      name: c.name,
      version: UCP_VERSION,
    })),
  };
}

export function orderUcpBlock() {
  return {
    version: UCP_VERSION,
    capabilities: [{ name: 'dev.ucp.shopping.order', version: UCP_VERSION }],
  };
}
