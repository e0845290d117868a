// @no-test-database
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../errors';
import { fetchImage } from '../fetch';
import { solidImage } from '../../testing/images/images';
import { startImageServer, type ImageServer } from '../../testing/images/image-server';
import { trustImagePrefix } from '../trusted-sources';

const ALLOW = { allowHosts: ['127.0.0.1'] };

async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  const api = err as ApiError;
  expect(api.code).toBe('INVALID_REQUEST');
  expect(api.status).toBe(400);
  return api;
}

describe('fetchImage', () => {
  let server: ImageServer;
  let red: Buffer;

  beforeAll(async () => {
    server = await startImageServer();
    red = await solidImage([220, 20, 20]);
    server.set('/red.png', { headers: { 'content-type': 'image/png' }, body: red });
  });
  afterAll(() => server.close());

  it('reads and decodes an image from an allowed loopback host', async () => {
    const image = await fetchImage(`${server.origin}/red.png`, ALLOW);
    expect(image.format).toBe('png');
    expect(image.width).toBe(96);
    expect(image.bytes.equals(red)).toBe(true);
    expect(image.contentHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses loopback, private and metadata addresses that are not allow-listed', async () => {
    const loop = await refusal(fetchImage(`${server.origin}/red.png`, { allowHosts: [] }));
    expect(loop.message).toBe('Image URL points to a private or reserved network address');
    expect(loop.details).toContain('127.0.0.1');
    for (const url of [
      'http://169.254.169.254/latest/meta-data',
      'http://10.0.0.8/a.png',
      'http://[fd00::1]/a.png',
      'http://[::ffff:127.0.0.1]/a.png',
      'http://[::7f00:1]/a.png',
      'http://[::ffff:0:7f00:1]/a.png',
      'http://[2002:7f00:1::]/a.png',
      'http://[64:ff9b:1::a00:1]/a.png',
    ]) {
      const err = await refusal(fetchImage(url, { allowHosts: [] }));
      expect(err.message).toBe('Image URL points to a private or reserved network address');
    }
  });

  it('refuses a host name that resolves to loopback, without saying what it resolves to', async () => {
    const err = await refusal(fetchImage('http://localhost/a.png', { allowHosts: [] }));
    expect(err.details).toBe('image_url: localhost resolves to a private or reserved address');
    expect(`${err.message} ${err.details}`).not.toMatch(/127\.0\.0\.1|::1/);
  });

  it('connects to the address it checked when the URL names a host', async () => {
    const port = new URL(server.origin).port;
    const image = await fetchImage(`http://localhost:${port}/red.png`, {
      allowHosts: ['localhost'],
    });
    expect(image.bytes.equals(red)).toBe(true);
  });

  it('refuses other schemes and credentials in the URL', async () => {
    expect((await refusal(fetchImage('file:///etc/passwd', ALLOW))).message).toBe(
      'Image URL must use http or https',
    );
    expect((await refusal(fetchImage(`http://u:p@127.0.0.1/red.png`, ALLOW))).message).toBe(
      'Image URL must not contain credentials',
    );
    expect((await refusal(fetchImage('not a url', ALLOW))).message).toBe(
      'Image URL is not a valid URL',
    );
  });

  it('re-checks every redirect, and caps them', async () => {
    server.set('/to-metadata', {
      status: 302,
      headers: { location: 'http://169.254.169.254/latest' },
    });
    const err = await refusal(fetchImage(`${server.origin}/to-metadata`, ALLOW));
    expect(err.message).toBe('Image URL points to a private or reserved network address');
    expect(err.details).toContain('169.254.169.254');

    server.set('/hop', { status: 301, headers: { location: '/red.png' } });
    expect((await fetchImage(`${server.origin}/hop`, ALLOW)).url).toBe(`${server.origin}/red.png`);

    server.set('/loop', { status: 307, headers: { location: '/loop' } });
    const loop = await refusal(fetchImage(`${server.origin}/loop`, { ...ALLOW, maxRedirects: 2 }));
    expect(loop.message).toBe('Image URL redirected too many times');
  });

  it('refuses an image over the byte limit, declared or streamed', async () => {
    const big = Buffer.alloc(64 * 1024, 1);
    server.set('/big', { headers: { 'content-type': 'image/png' }, body: big });
    const err = await refusal(
      fetchImage(`${server.origin}/big`, { ...ALLOW, maxBytes: 16 * 1024 }),
    );
    expect(err.message).toBe('Image is too large');
    server.set('/big-chunked', {
      headers: { 'content-type': 'image/png', 'transfer-encoding': 'chunked' },
      body: big,
    });
    const chunked = await refusal(
      fetchImage(`${server.origin}/big-chunked`, { ...ALLOW, maxBytes: 16 * 1024 }),
    );
    expect(chunked.message).toBe('Image is too large');
  });

  it('refuses what is not an image: wrong content type, or bytes that do not decode', async () => {
    server.set('/page', { headers: { 'content-type': 'text/html' }, body: '<html></html>' });
    const html = await refusal(fetchImage(`${server.origin}/page`, ALLOW));
    expect(html.message).toBe('Image URL did not return an image');
    expect(html.details).toContain('text/html');

    server.set('/fake.png', {
      headers: { 'content-type': 'image/png' },
      body: 'definitely not a png',
    });
    expect((await refusal(fetchImage(`${server.origin}/fake.png`, ALLOW))).message).toBe(
      'Image could not be decoded',
    );

    server.set('/truncated.png', {
      headers: { 'content-type': 'image/png' },
      body: red.subarray(0, red.length - 40),
    });
    expect((await refusal(fetchImage(`${server.origin}/truncated.png`, ALLOW))).message).toBe(
      'Image could not be decoded',
    );

    server.set('/missing', { status: 404 });
    expect((await refusal(fetchImage(`${server.origin}/missing`, ALLOW))).details).toContain(
      'HTTP 404',
    );
  });

  it('gives up on a slow server at the time limit', async () => {
    server.set('/slow.png', {
      headers: { 'content-type': 'image/png' },
      body: red,
      delayMs: 5_000,
    });
    const err = await refusal(
      fetchImage(`${server.origin}/slow.png`, { ...ALLOW, timeoutMs: 300 }),
    );
    expect(err.message).toBe('Image URL took too long to answer');
  });

  it('reaches a private host only under a trusted prefix, at every hop, until it is withdrawn', async () => {
    server.set('/cdn/red.png', { headers: { 'content-type': 'image/png' }, body: red });
    server.set('/cdn/away.png', { status: 302, headers: { location: '/red.png' } });
    const other = await startImageServer();
    other.set('/cdn/red.png', { headers: { 'content-type': 'image/png' }, body: red });
    const untrust = trustImagePrefix(`${server.origin}/cdn/`);
    try {
      const image = await fetchImage(`${server.origin}/cdn/red.png`, { allowHosts: [] });
      expect(image.bytes.equals(red)).toBe(true);
      for (const url of [
        `${server.origin}/red.png`,
        `${server.origin}/cdn/../red.png`,
        `${server.origin}/cdn/away.png`,
        `${other.origin}/cdn/red.png`,
        `http://localhost:${new URL(server.origin).port}/cdn/red.png`,
      ]) {
        const err = await refusal(fetchImage(url, { allowHosts: [] }));
        expect(err.message).toBe('Image URL points to a private or reserved network address');
      }
    } finally {
      untrust();
      await other.close();
    }
    const withdrawn = await refusal(fetchImage(`${server.origin}/cdn/red.png`, { allowHosts: [] }));
    expect(withdrawn.message).toBe('Image URL points to a private or reserved network address');
  });
});
