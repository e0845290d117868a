import fs from 'node:fs';
import path from 'node:path';
import {
  calculateJwkThumbprint,
  exportJWK,
  exportPKCS8,
  FlattenedSign,
  generateKeyPair,
  importJWK,
  importPKCS8,
  type CryptoKey,
  type JWK,
} from 'jose';
import { env } from '../config/env';
import { logger } from '../log/logger';

/**
 * The key pair that signs our UCP webhooks (order.md, "Webhook Signature Verification"): EC
 * P-256 (ES256), the public half published in every business profile's `signing_keys` under
 * its RFC 7638 thumbprint as `kid`. UCP_SIGNING_KEY (PEM or JWK) when set, which replicas on
 * one database must share; else a key generated in the data directory on first use and kept
 * there (mode 0600), as the store token key is.
 */

export const SIGNATURE_HEADER = 'Request-Signature';

/** The file in the data directory, made on first use; readable by its owner only. */
export const SIGNING_KEY_FILE = 'ucp-signing-key.pem';

interface SigningKey {
  privateKey: CryptoKey;
  publicJwk: JWK & { kid: string; use: 'sig'; alg: 'ES256' };
}

/**
 * Where the key file lives, set by the server at boot. On globalThis: Next.js bundles the boot
 * step and the route handlers apart, each with its own copy of this module.
 */
const slot = globalThis as unknown as {
  __ucpSigningKey?: { dir?: string; loaded?: Promise<SigningKey> };
};

export function keepSigningKeyIn(dir: string): void {
  slot.__ucpSigningKey = { dir };
}

async function fromPrivateKey(privateKey: CryptoKey, source: string): Promise<SigningKey> {
  const { kty, crv, x, y } = await exportJWK(privateKey);
  if (kty !== 'EC' || crv !== 'P-256' || !x || !y) {
    throw new Error(`${source} must be an EC P-256 private key`);
  }
  const kid = await calculateJwkThumbprint({ kty, crv, x, y });
  return { privateKey, publicJwk: { kty, crv, x, y, kid, use: 'sig', alg: 'ES256' } };
}

/** A configured key: a PKCS#8 PEM, or a private JWK as JSON. */
async function fromText(text: string, source: string): Promise<SigningKey> {
  try {
    const key = text.startsWith('{')
      ? ((await importJWK(JSON.parse(text) as JWK, 'ES256', { extractable: true })) as CryptoKey)
      : await importPKCS8(text, 'ES256', { extractable: true });
    return await fromPrivateKey(key, source);
  } catch (err) {
    throw new Error(
      `${source} is not an EC P-256 private key in PEM (PKCS#8) or JWK form: ${(err as Error).message}`,
    );
  }
}

async function generatePem(): Promise<string> {
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  return exportPKCS8(privateKey);
}

/** Reads the directory's key file, creating it (exclusively, mode 0600) when there is none. */
async function readOrCreateKeyFile(dir: string): Promise<SigningKey> {
  const file = path.join(dir, SIGNING_KEY_FILE);
  if (!fs.existsSync(file)) {
    const pem = await generatePem();
    try {
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(file, pem, { flag: 'wx', mode: 0o600 });
      logger().info({ file }, 'UCP webhook signing key generated');
    } catch (err) {
      // Another process may have just made it: then it is read below.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  return fromText(fs.readFileSync(file, 'utf8').trim(), file);
}

async function load(): Promise<SigningKey> {
  const configured = env().UCP_SIGNING_KEY?.trim();
  if (configured) return fromText(configured, 'UCP_SIGNING_KEY');
  const dir = slot.__ucpSigningKey?.dir;
  if (!dir) {
    // A process that serves no boot (a test server): signatures hold for its lifetime only.
    logger().warn('no UCP signing key configured: webhooks are signed with a key of this process');
    return fromText(await generatePem(), 'a generated key');
  }
  if (env().DATABASE_URL) {
    logger().warn(
      { dir },
      'UCP_SIGNING_KEY is not set: webhooks are signed with a key in the data directory, which other replicas do not share; set UCP_SIGNING_KEY (PEM or JWK) on every replica',
    );
  }
  return readOrCreateKeyFile(dir);
}

function signingKey(): Promise<SigningKey> {
  const state = (slot.__ucpSigningKey ??= {});
  state.loaded ??= load().catch((err: unknown) => {
    // A bad key is reported at every use rather than cached as a failure forever.
    state.loaded = undefined;
    throw err;
  });
  return state.loaded;
}

/** The business profile's `signing_keys`: the public key that verifies our webhooks. */
export async function publicSigningKeys(): Promise<Array<JsonWebKey & { kid: string }>> {
  return [{ ...(await signingKey()).publicJwk }];
}

/**
 * The `Request-Signature` header of a webhook: a JWS over the exact body bytes with the
 * payload detached and unencoded (RFC 7797, `b64: false`), written `<protected header>..<signature>`;
 * the header's `kid` names the key in `signing_keys`.
 */
export async function signWebhook(body: string): Promise<string> {
  const { privateKey, publicJwk } = await signingKey();
  const jws = await new FlattenedSign(new TextEncoder().encode(body))
    .setProtectedHeader({ alg: 'ES256', kid: publicJwk.kid, b64: false, crit: ['b64'] })
    .sign(privateKey);
  return `${jws.protected}..${jws.signature}`;
}
