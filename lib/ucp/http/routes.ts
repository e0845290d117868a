import type { Api } from '../../http/openapi';
import { checkoutRoutes } from './checkout-routes';

/**
 * Every UCP route group, mounted under /api/ucp/{store_id} by lib/http/app.ts's one line: a
 * group of UCP routes adds itself here.
 */
const groups: Array<(api: Api) => void> = [checkoutRoutes];

export function ucpRoutes(api: Api): void {
  api.registry.registerComponent('securitySchemes', 'UcpApiKey', {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-Key',
    description:
      "A developer's API key, as UCP sends it; a store open to agents also takes keyless requests naming their profile in UCP-Agent",
  });
  for (const group of groups) group(api);
}
