import type { Api } from '../../http/openapi';
import { adminUcpSettingsRoutes } from './admin-settings';
import { checkoutRoutes } from './checkout-routes';
import { orderUpdateRoutes } from './order-updates';

/**
 * Every UCP route group, mounted by lib/http/app.ts's one line: the routes under
 * /api/ucp/{store_id}, and the operator's UCP settings of a store. A group adds itself here.
 */
const groups: Array<(api: Api) => void> = [
  checkoutRoutes,
  adminUcpSettingsRoutes,
  orderUpdateRoutes,
];

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
