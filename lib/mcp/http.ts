import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { createApiClient } from '../api-client';
import { createShoppingMcpServer } from './server';

export interface McpHttpRequest {
  request: Request;
  /** The JSON body, read by the route under the API's JSON limits; undefined for another type. */
  parsedBody: unknown;
  requestId: string;
  /** The API app itself: the tools call it in process. */
  callApi: (request: Request) => Response | Promise<Response>;
}

/**
 * One MCP request over Streamable HTTP, answered by a server and transport of its own. The tools
 * call the API in process with the caller's own `authorization` header, so a tool call is exactly
 * the HTTP request an API client would send. The route is lib/http/routes/mcp.ts.
 */
export async function answerMcpRequest({
  request,
  parsedBody,
  requestId,
  callApi,
}: McpHttpRequest): Promise<Response> {
  const api = createApiClient({
    baseUrl: new URL('/api', request.url).toString(),
    apiKey: request.headers.get('authorization') ?? '',
    orderSource: 'mcp',
    fetch: async (input, init) => {
      const inner = new Request(input, init);
      inner.headers.set('x-request-id', requestId);
      return callApi(inner);
    },
  });
  const server = createShoppingMcpServer(api);
  const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request, { parsedBody });
  } finally {
    await server.close();
  }
}
