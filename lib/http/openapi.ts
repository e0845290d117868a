import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import type { Hono } from 'hono';
import { CODE_STATUS, OPERATION_FAILURE_CODES } from '../contract/codes';
import type { ApiEnv } from './env';
import type { DeclaredOperation } from './operation';
import { documentRateLimits } from './rate-limit';

/** What route groups register into: the router, the OpenAPI registry, the operations declared. */
export interface Api {
  app: Hono<ApiEnv>;
  registry: OpenAPIRegistry;
  operations: DeclaredOperation[];
}

const STATUS_TABLE = [
  '| code | HTTP status |',
  '|---|---|',
  ...Object.entries(CODE_STATUS).map(([code, status]) => `| ${code} | ${status} |`),
  ...OPERATION_FAILURE_CODES.map(
    (code) => `| ${code} | 400 invalid input, 404 unknown id, 500 server error |`,
  ),
].join('\n');

export function openApiDocument(registry: OpenAPIRegistry, serverUrl = '/api') {
  registry.registerComponent('securitySchemes', 'ApiKey', {
    type: 'apiKey',
    in: 'header',
    name: 'authorization',
    description: 'The API key (`csk_...`), alone or as `Bearer <key>`.',
  });
  registry.registerComponent('securitySchemes', 'OperatorToken', {
    type: 'http',
    scheme: 'bearer',
    description:
      'The operator token (OPERATOR_TOKEN, or the one the embedded default generates in its data directory), as `authorization: Bearer <token>`.',
  });
  const document = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Commerce search, style, shipping and purchase API',
      version: '1.0.0',
      description:
        'Every response carries `code`; failures also carry `error` (and `message` on the search operations). ' +
        'HTTP status by code:\n\n' +
        STATUS_TABLE,
    },
    servers: [{ url: serverUrl }],
  });
  return documentRateLimits(document);
}
