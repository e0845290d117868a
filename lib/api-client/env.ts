import { operatorToken } from '../auth/operator';
import { currentEnv } from '../config/env';
import {
  createApiClient,
  createOperatorClient,
  type ApiClient,
  type OperatorClient,
} from './client';

/** `API_BASE_URL`, or the API of this very server: http://127.0.0.1:${PORT:-3000}/api. */
export function apiBaseUrl(): string {
  const { API_BASE_URL, PORT } = currentEnv();
  return API_BASE_URL ?? `http://127.0.0.1:${PORT}/api`;
}

/**
 * The dashboard's developer client, configured from the server environment: `DASHBOARD_API_KEY`,
 * set by the operator or, when unset, by the server's boot step (lib/server/dashboard-key.ts).
 * Its orders record the source `dashboard`.
 */
export function apiClientFromEnv(): ApiClient {
  const apiKey = currentEnv().DASHBOARD_API_KEY;
  if (!apiKey) throw new Error('DASHBOARD_API_KEY is not set and the server created no key');
  return createApiClient({ baseUrl: apiBaseUrl(), apiKey, orderSource: 'dashboard' });
}

/**
 * The operator client with the operator token (OPERATOR_TOKEN, or the one the server generated
 * in its data directory); undefined when the server has none.
 */
export function operatorClientFromEnv(): OperatorClient | undefined {
  const token = operatorToken(currentEnv());
  return token ? createOperatorClient({ baseUrl: apiBaseUrl(), operatorToken: token }) : undefined;
}
