import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { apiBaseUrl, createApiClient } from '../api-client';
import { env } from '../config/env';
import { createShoppingMcpServer } from './server';

/**
 * `npm run mcp`: the MCP server over stdio for agents that start their tools as processes. The
 * tools call the HTTP API at API_BASE_URL with the key in API_KEY. Standard output carries the
 * protocol, so anything for a person goes to standard error.
 */
const apiKey = env().API_KEY;
if (!apiKey) console.error('API_KEY is not set: every tool call will answer AUTH_MISSING.');
const server = createShoppingMcpServer(
  createApiClient({ baseUrl: apiBaseUrl(), apiKey, orderSource: 'mcp' }),
);
await server.connect(new StdioServerTransport());
