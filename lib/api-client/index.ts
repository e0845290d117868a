export { createApiClient, createOperatorClient } from './client';
export type { ApiClient, ClientOptions, OperatorClient } from './client';
export { apiBaseUrl, apiClientFromEnv, operatorClientFromEnv } from './env';
export { ApiRequestError, type UcpMessage } from './request';
export type * from './ucp';
export type * from './types';
