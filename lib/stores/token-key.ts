import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { env } from '../config/env';

/**
 * The 32-byte key that encrypts stores' Admin API tokens: STORE_TOKEN_KEY, or, for the embedded
 * database, a key kept beside it in the data directory. A server with DATABASE_URL has no
 * directory that travels with its data, so there the key must come from the environment.
 */

export class TokenKeyError extends Error {}

/** The file in the data directory, made on first use; readable by its owner only. */
export const TOKEN_KEY_FILE = 'store-token.key';

export interface TokenKey {
  key: Buffer;
  /** Named in errors: `STORE_TOKEN_KEY` or the key file's path. */
  source: string;
}

/**
 * Set by the server and the CLI when they use the embedded database in this directory. On
 * globalThis: Next.js bundles the boot step and the route handlers apart, each with its own
 * copy of this module.
 */
const slot = globalThis as unknown as { __tokenKeyFile?: { dir: string; loaded?: TokenKey } };

function decode(value: string, source: string): Buffer {
  const key = /^[0-9a-f]{64}$/i.test(value)
    ? Buffer.from(value, 'hex')
    : Buffer.from(value, 'base64');
  if (key.length !== 32) {
    throw new TokenKeyError(
      `${source} must hold 32 bytes, written as 64 hex digits or base64 (it decodes to ${key.length} bytes)`,
    );
  }
  return key;
}

/** Reads the directory's key file, creating it (exclusively, mode 0600) when there is none. */
function readOrCreateKeyFile(dir: string): TokenKey & { created: boolean } {
  const file = path.join(dir, TOKEN_KEY_FILE);
  let created = false;
  try {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
    created = true;
  } catch (err) {
    // Another process (the server or the CLI) may have just made it: then it is read below.
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return { key: decode(fs.readFileSync(file, 'utf8').trim(), file), source: file, created };
}

/**
 * Makes the data directory's key file the key whenever STORE_TOKEN_KEY is unset: called by the
 * server and the CLI when they use the embedded database in `dir`. The file is made on first use.
 */
export function keepTokenKeyIn(dir: string): void {
  slot.__tokenKeyFile = { dir };
}

/**
 * At server start: makes the key file now, so its creation is announced once, not found out at
 * the first purchase. Undefined when STORE_TOKEN_KEY is set or no key file is in use.
 */
export function prepareTokenKeyFile(): { file: string; created: boolean } | undefined {
  const keyFile = slot.__tokenKeyFile;
  if (env().STORE_TOKEN_KEY?.trim() || !keyFile) return undefined;
  const { key, source, created } = readOrCreateKeyFile(keyFile.dir);
  keyFile.loaded = { key, source };
  return { file: source, created };
}

export function tokenKey(): TokenKey {
  const configured = env().STORE_TOKEN_KEY?.trim();
  if (configured) return { key: decode(configured, 'STORE_TOKEN_KEY'), source: 'STORE_TOKEN_KEY' };
  const keyFile = slot.__tokenKeyFile;
  if (keyFile) return (keyFile.loaded ??= readOrCreateKeyFile(keyFile.dir));
  throw new TokenKeyError(
    'STORE_TOKEN_KEY is not set: it encrypts stores’ Admin API tokens. ' +
      (env().DATABASE_URL
        ? 'With DATABASE_URL it must come from the environment, the same for the server and the CLI: '
        : '') +
      'generate one with `openssl rand -base64 32` and set it in the environment of the server and the CLI.',
  );
}

/** Whether tokens can be sealed now (the demo store gets its token only then). */
export function hasTokenKey(): boolean {
  return Boolean(env().STORE_TOKEN_KEY?.trim() || slot.__tokenKeyFile);
}
