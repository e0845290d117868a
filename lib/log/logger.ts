import pino from 'pino';
import { env } from '../config/env';

const slot = globalThis as unknown as { __logger?: pino.Logger };

/**
 * One JSON line per event. Request headers are never logged (they carry API keys), and errors
 * are logged by class and message only: no stack traces, no SQL parameters.
 */
export function logger(): pino.Logger {
  slot.__logger ??= pino({
    level: env().LOG_LEVEL,
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
  });
  return slot.__logger;
}
