import { answerMcpRequest } from '../../mcp/http';
import { BodyError, isJsonType, readJsonValue } from '../body';
import type { Api } from '../openapi';

/**
 * `/api/mcp`: the MCP server (lib/mcp) over Streamable HTTP. Stateless, like the rest of the app:
 * each request gets its own server and transport, so any replica can answer any request.
 */
export function mcpRoutes({ app, registry }: Api): void {
  registry.registerPath({
    method: 'post',
    path: '/mcp',
    operationId: 'mcp',
    summary: 'Model Context Protocol endpoint (Streamable HTTP) for shopping agents (extension)',
    description:
      'JSON-RPC messages of the Model Context Protocol, answered as JSON. The tools (search_products, get_product, ' +
      'create_profile, get_profile, set_style, set_shipping_address, checkout_link, buy, get_order, list_orders, and ' +
      "UCP's create_checkout, get_checkout, update_checkout, complete_checkout, cancel_checkout) call this API with the " +
      'API key sent here in `authorization`; failures are tool errors that start with the API code (JSON-RPC errors ' +
      "with UCP's errors[] for the UCP tools).",
    tags: ['MCP'],
    security: [{ ApiKey: [] }],
    responses: { 200: { description: 'A JSON-RPC response' } },
  });

  app.post('/mcp', async (c) => {
    // Read here, as every other body is, so that its shape is checked against the JSON limits
    // before the SDK's schemas walk it; a body of another type is the transport's to refuse.
    let parsedBody: unknown;
    if (isJsonType(c.req.header('content-type'))) {
      try {
        parsedBody = await readJsonValue(c.req, { incoming: c.env?.incoming });
      } catch (err) {
        if (!(err instanceof BodyError)) throw err;
        return c.json(
          {
            jsonrpc: '2.0',
            error: { code: -32700, message: `Parse error: ${err.message}` },
            id: null,
          },
          400,
          err.unread ? { connection: 'close' } : {},
        );
      }
    }
    return answerMcpRequest({
      request: c.req.raw,
      parsedBody,
      requestId: c.var.requestId,
      callApi: (inner) => app.fetch(inner),
    });
  });
  // Stateless: no session to resume or end, and nothing to push outside a request's answer, so
  // GET and DELETE get the app's 405 with `Allow: POST`, as the transport's specification asks.
}
