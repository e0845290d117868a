import type { Http2Bindings, HttpBindings } from '@hono/node-server';
import type { Logger } from 'pino';
import type { Caller } from '../auth/keys';
import type { FailureShape } from './failure';

/** What one request carries from step to step (Hono's typed `Variables`). */
export interface ApiVariables {
  requestId: string;
  /** The logger of this request: every line it writes carries `reqId`. */
  log: Logger;
  /** The code answered, for the request log line. */
  code?: string;
  /** The developer behind a developer-key operation, once authenticated. */
  caller?: Caller;
  /** How the operation being served words its failures; unset outside operations. */
  failure?: FailureShape;
}

export interface ApiEnv {
  /**
   * Node's request and response, when @hono/node-server serves the app; absent when a test or
   * another runtime calls the app's fetch without them.
   */
  Bindings: Partial<HttpBindings | Http2Bindings> | undefined;
  Variables: ApiVariables;
}
