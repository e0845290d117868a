// @no-test-database
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exportJWK, flattenedVerify, generateKeyPair, importJWK } from 'jose';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { setEnv } from '../testing/env';
import { keepSigningKeyIn, publicSigningKeys, SIGNING_KEY_FILE, signWebhook } from './signing-keys';

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'ucp-keys-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));
afterEach(() => {
  setEnv({ UCP_SIGNING_KEY: undefined });
});

/** Verifies a Request-Signature header against a body with the published keys, as an agent does. */
async function verify(header: string, body: string) {
  const [protectedHeader, empty, signature] = header.split('.');
  expect(empty).toBe('');
  const { kid } = JSON.parse(Buffer.from(protectedHeader!, 'base64url').toString());
  const jwk = (await publicSigningKeys()).find((k) => k.kid === kid);
  if (!jwk) throw new Error(`no published key ${kid}`);
  const key = await importJWK(jwk, 'ES256');
  return flattenedVerify(
    { protected: protectedHeader!, payload: body, signature: signature! },
    key,
  );
}

describe('UCP signing keys', () => {
  it('generates a P-256 key in the data directory (mode 0600) once, and keeps it', async () => {
    const dir = path.join(scratch, 'data');
    keepSigningKeyIn(dir);
    const [first] = await publicSigningKeys();
    expect(first).toMatchObject({ kty: 'EC', crv: 'P-256', use: 'sig', alg: 'ES256' });
    expect(first).not.toHaveProperty('d');
    const file = path.join(dir, SIGNING_KEY_FILE);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    keepSigningKeyIn(dir);
    expect(await publicSigningKeys()).toEqual([first]);
  });

  it('signs the body as a detached, unencoded JWS that the published key verifies', async () => {
    keepSigningKeyIn(path.join(scratch, 'signing'));
    const body = JSON.stringify({ event_type: 'order_placed', order: { id: 'ord_1' } });
    const header = await signWebhook(body);
    const verified = await verify(header, body);
    expect(verified.protectedHeader).toMatchObject({ alg: 'ES256', b64: false, crit: ['b64'] });
    await expect(verify(header, body.replace('ord_1', 'ord_2'))).rejects.toThrow(
      /signature verification failed/,
    );
  });

  it('uses UCP_SIGNING_KEY (a JWK) over the data directory', async () => {
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    const jwk = await exportJWK(privateKey);
    setEnv({ UCP_SIGNING_KEY: JSON.stringify(jwk) });
    keepSigningKeyIn(path.join(scratch, 'unused'));
    const [published] = await publicSigningKeys();
    expect(published).toMatchObject({ x: jwk.x, y: jwk.y });
    expect(fs.existsSync(path.join(scratch, 'unused'))).toBe(false);
    const body = '{"a":1}';
    expect((await verify(await signWebhook(body), body)).payload).toBeTruthy();
  });
});
