import pino from 'pino';
import pretty from 'pino-pretty';
import { env } from '../config/env';
import { errorFields } from './error-fields';

const slot = globalThis as unknown as { __logger?: pino.Logger };

/** Fields that hold personal data wherever they appear in a logged object, one level deep. */
const PERSONAL = [
  'email',
  'phone',
  'first_name',
  'last_name',
  'address_1',
  'address_2',
  'shipping_address',
];

/**
 * One JSON line per event, with ids and codes only. Request headers are never logged (they
 * carry API keys); `err` goes through `errorFields` (no stack, no SQL, no values); fields that
 * name personal data are censored in case one is ever passed.
 */
const options: pino.LoggerOptions = {
  base: undefined,
  timestamp: pino.stdTimeFunctions.isoTime,
  serializers: { err: errorFields },
  redact: { paths: [...PERSONAL, ...PERSONAL.map((f) => `*.${f}`)], censor: '[redacted]' },
};

/**
 * Where lines go: JSON for log collectors (output that is not a terminal, or LOG_FORMAT=json),
 * readable lines for a person at a terminal (or LOG_FORMAT=pretty). Pretty printing runs in this
 * thread, synchronously: a worker-thread transport could lose the last lines of a crash.
 */
function destination(): pino.DestinationStream | undefined {
  const format = env().LOG_FORMAT ?? (process.stdout.isTTY ? 'pretty' : 'json');
  if (format === 'json') return undefined;
  return pretty({
    sync: true,
    colorize: Boolean(process.stdout.isTTY),
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
  });
}

export function logger(): pino.Logger {
  slot.__logger ??= pino({ ...options, level: env().LOG_LEVEL }, destination());
  return slot.__logger;
}

/**
 * Sends every line to `destination` at `level` until the returned function is called: tests
 * read what a request logged.
 */
export function redirectLogs(destination: pino.DestinationStream, level = 'info'): () => void {
  const previous = slot.__logger;
  slot.__logger = pino({ ...options, level }, destination);
  return () => {
    slot.__logger = previous;
  };
}
