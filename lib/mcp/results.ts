import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ApiRequestError } from '../api-client';
import { failure } from './tool';

/**
 * A tool's answer from its API calls: the result as structured content and a short summary for
 * the agent to read. A failure the API answered becomes a tool error that starts with the API's
 * code, so an agent can act on it as an HTTP client would (`failed` may answer it otherwise);
 * anything else propagates, and the SDK reports it as a JSON-RPC error.
 */
export async function answer<T extends object>(
  call: () => Promise<T>,
  summarize: (result: T) => string,
  failed: (err: ApiRequestError) => CallToolResult = apiFailure,
): Promise<CallToolResult> {
  let result: T;
  try {
    result = await call();
  } catch (err) {
    if (err instanceof ApiRequestError) return failed(err);
    throw err;
  }
  return {
    structuredContent: result as Record<string, unknown>,
    content: [{ type: 'text', text: summarize(result) }],
  };
}

function apiFailure(err: ApiRequestError): CallToolResult {
  const details = err.details && !err.message.includes(err.details) ? ` (${err.details})` : '';
  return failure(err.code, `${err.message}${details}`);
}
