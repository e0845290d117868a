import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import type { ApiClient } from '../api-client';
import { checkoutTools } from './checkout-tools';
import { shoppingTools } from './tools';

/**
 * The MCP server for shopping agents: the shopping tools over one API client. It is the SDK's
 * protocol `Server` with tools/list and tools/call of our own rather than `McpServer`, because
 * `McpServer` checks arguments itself and words a failure as a protocol error
 * ("MCP error -32602: Input validation error: ..."), where an agent should get the API's code.
 */
export function createShoppingMcpServer(api: ApiClient): Server {
  const tools = new Map(
    [...shoppingTools(api), ...checkoutTools(api)].map((tool) => [tool.name, tool]),
  );
  const server = new Server(
    { name: 'commerce-search', version: '1.0.0' },
    {
      capabilities: { tools: { listChanged: false } },
      instructions:
        'Search products across online stores, keep shopper profiles (style and shipping address), get checkout ' +
        'links and buy on the shopper’s behalf. Typical flow: create_profile, set_style, set_shipping_address, ' +
        'search_products with profile_id, then checkout_link for the shopper to pay, or buy after the shopper confirms. ' +
        'UCP checkout (create_checkout, update_checkout, complete_checkout) shows the total, shipping options and discounts before buying. ' +
        'Failures start with the API code (e.g. STORE_NOT_VERIFIED: ...).',
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [...tools.values()].map((tool) => tool.describe()),
  }));
  server.setRequestHandler(CallToolRequestSchema, ({ params }) => {
    const tool = tools.get(params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${params.name}`);
    return tool.call(params.arguments, params._meta);
  });
  return server;
}
