import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { StoreRow } from './access';
import { tokenKey, TokenKeyError, type TokenKey } from './token-key';

export { TokenKeyError };

/**
 * Stores' Admin API tokens are encrypted at rest with AES-256-GCM under the store token key
 * (STORE_TOKEN_KEY, or the data directory's key file: lib/stores/token-key.ts). The
 * store id is bound in as associated data, so a ciphertext copied onto another store's row fails
 * to decrypt instead of lending that store a token.
 */
const FORMAT = 'v1';
const IV_BYTES = 12;

export function encryptToken(storeId: string, token: string, { key }: TokenKey = tokenKey()) {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(storeId, 'utf8'));
  const sealed = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
  return [FORMAT, iv, cipher.getAuthTag(), sealed].map(encodePart).join(':');
}

function encodePart(part: string | Buffer): string {
  return typeof part === 'string' ? part : part.toString('base64url');
}

export function decryptToken(
  storeId: string,
  stored: string,
  { key, source }: TokenKey = tokenKey(),
): string {
  const [format, iv, tag, sealed] = stored.split(':');
  if (format !== FORMAT || !iv || !tag || sealed === undefined) {
    throw new TokenKeyError(
      `The stored Admin API token of store ${storeId} is not in a known form`,
    );
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(storeId, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([
      decipher.update(Buffer.from(sealed, 'base64url')),
      decipher.final(),
    ]).toString('utf8');
  } catch {
    throw new TokenKeyError(
      `The Admin API token of store ${storeId} cannot be decrypted with the current ${source}: ` +
        'restore the key it was stored with, or attach the token again',
    );
  }
}

/** The store's Admin API token in clear, or undefined when none is attached. */
export function storeToken(store: StoreRow): string | undefined {
  return store.adminTokenEncrypted ? decryptToken(store.id, store.adminTokenEncrypted) : undefined;
}
