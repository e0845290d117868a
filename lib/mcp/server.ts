import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ApiClient } from '../api-client';
import { registerShoppingTools } from './tools';

/** The MCP server for shopping agents: the shopping tools over one API client. */
export function createShoppingMcpServer(api: ApiClient): McpServer {
  const server = new McpServer(
    { name: 'commerce-search', version: '1.0.0' },
    {
      instructions:
        'Search products across online stores, keep shopper profiles (style and shipping address), get checkout ' +
        'links and buy on the shopper’s behalf. Typical flow: create_profile, set_style, set_shipping_address, ' +
        'search_products with profile_id, then checkout_link for the shopper to pay, or buy after the shopper confirms. ' +
        'Failures start with the API code (e.g. STORE_NOT_VERIFIED: ...).',
    },
  );
  registerShoppingTools(server, api);
  return server;
}
