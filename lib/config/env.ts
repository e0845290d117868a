import path from 'node:path';
import { z } from 'zod';

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().url().optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  EMBEDDING_MODEL: z.string().default('use-lite'),
  MODELS_DIR: z.string().optional(),
  OPERATOR_TOKEN: z.string().min(16).optional(),
  STORE_TOKEN_KEY: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  MAX_BODY_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
});

export type Env = z.infer<typeof schema>;

let cached: Env | undefined;

/** Reads configuration from the environment once; every setting has a default or is optional. */
export function env(): Env {
  if (!cached) {
    const parsed = schema.safeParse(process.env);
    if (!parsed.success) {
      const detail = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
      throw new Error(`Invalid configuration: ${detail}`);
    }
    cached = parsed.data;
  }
  return cached;
}

/** Tests change the environment between suites; this drops the cached copy. */
export function resetEnvCache(): void {
  cached = undefined;
}

export function dataDir(): string {
  return path.resolve(env().DATA_DIR);
}
