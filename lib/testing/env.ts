import { resetEnvCache } from '../config/env';

/** Sets (or, with undefined, removes) environment variables and drops the cached settings. */
export function setEnv(values: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetEnvCache();
}
