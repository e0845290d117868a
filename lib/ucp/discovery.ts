import { CAPABILITIES } from './capabilities';
import type { PaymentHandlerConfig } from '../contract/store-rules';
import { publicSigningKeys } from './signing-keys';
import { UCP_VERSION } from './version';

/**
 * A store's business profile (GET {base}/.well-known/ucp), as the reference server's
 * discovery answers it: the shopping service with this store's REST endpoint, every capability
 * implemented (not narrowed to an agent's profile: docs/ucp.md), the store's payment handlers,
 * and the public keys our webhooks are signed with.
 */
export async function businessProfile(endpoint: string, handlers: PaymentHandlerConfig[]) {
  return {
    ucp: {
      version: UCP_VERSION,
      services: {
        'dev.ucp.shopping': {
          version: UCP_VERSION,
          spec: 'https://ucp.dev/specification/reference',
          rest: { schema: 'https://ucp.dev/services/shopping/rest.openapi.json', endpoint },
        },
      },
      capabilities: CAPABILITIES.map((c) => ({
        name: c.name,
        version: UCP_VERSION,
        spec: `https://ucp.dev/specification/${'specPath' in c ? c.specPath : c.path}`,
        schema: `https://ucp.dev/schemas/shopping/${c.path}.json`,
        ...('extends' in c ? { extends: c.extends } : {}),
      })),
    },
    payment: { handlers },
    signing_keys: await publicSigningKeys(),
  };
}
