import { createHash } from 'node:crypto';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import sharp from 'sharp';
import { env } from '../config/env';
import { ApiError } from '../errors';
import { pinnedLookup, resolveTarget } from '../net/public-target';
import { isTrustedImageUrl } from './trusted-sources';

export interface FetchedImage {
  /** The URL the image was finally read from (after redirects). */
  url: string;
  bytes: Buffer;
  contentType: string;
  /** sha256 of the bytes, hex: the cache key that survives a URL change. */
  contentHash: string;
  format: string;
  width: number;
  height: number;
}

export interface FetchImageOptions {
  /** Names the input in refusals, e.g. 'query.image_url'. */
  field?: string;
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  allowHosts?: string[];
}

const DECODABLE = new Set(['jpeg', 'png', 'webp', 'gif', 'avif', 'tiff']);
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Bounds the decoded size too: a small file can declare a huge canvas (a "pixel bomb"). */
const MAX_PIXELS = 50_000_000;

interface Settings {
  field: string;
  /** One deadline for the whole fetch, redirects and body included. */
  signal: AbortSignal;
  maxBytes: number;
  maxRedirects: number;
  allowHosts: Set<string>;
}

function refuse(s: Settings, message: string, detail: string): never {
  throw new ApiError('INVALID_REQUEST', message, 400, `${s.field}: ${detail}`);
}

/**
 * A refusal because the image's host could not be reached at all (no address, no connection,
 * no answer in time), as opposed to one about the image: a later try may succeed.
 */
export class ImageHostUnreachable extends ApiError {
  constructor(
    message: string,
    details: string,
    /** host[:port] of the URL that could not be reached. */
    readonly host: string,
  ) {
    super('INVALID_REQUEST', message, 400, details);
  }
}

function unreachable(s: Settings, url: URL, message: string, detail: string): never {
  throw new ImageHostUnreachable(message, `${s.field}: ${detail}`, url.host);
}

/** Validates scheme and credentials, resolves DNS once, and returns the address to connect to. */
async function checkedAddress(s: Settings, url: URL): Promise<{ address: string; family: 4 | 6 }> {
  const target = await resolveTarget(url, {
    signal: s.signal,
    allowHosts: s.allowHosts,
    trusted: isTrustedImageUrl(url),
  });
  if (target.ok) return target;
  const { host } = target;
  switch (target.why) {
    case 'scheme':
      refuse(s, 'Image URL must use http or https', `scheme ${url.protocol} is not allowed`);
    case 'credentials':
      refuse(s, 'Image URL must not contain credentials', 'user:password@ is not allowed');
    case 'private':
      // The refusal never names the answer: that would map our internal DNS for the caller.
      refuse(
        s,
        'Image URL points to a private or reserved network address',
        target.literal
          ? `${host} is not a public address`
          : `${host} resolves to a private or reserved address`,
      );
    case 'unresolved':
      unreachable(s, url, 'Image host could not be resolved', `no address for ${host}`);
  }
}

function request(s: Settings, url: URL, pinned: { address: string; family: 4 | 6 }) {
  return new Promise<IncomingMessage>((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const req = client.get(
      url,
      {
        lookup: pinnedLookup(pinned.address, pinned.family),
        headers: { accept: 'image/*', 'user-agent': 'commerce-search-image-fetcher/1' },
        signal: s.signal,
      },
      resolve,
    );
    req.on('error', reject);
  });
}

async function readBody(s: Settings, res: IncomingMessage): Promise<Buffer> {
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > s.maxBytes) {
    res.destroy();
    refuse(s, 'Image is too large', `${declared} bytes, the limit is ${s.maxBytes}`);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of res as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > s.maxBytes) {
      res.destroy();
      refuse(s, 'Image is too large', `more than ${s.maxBytes} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

async function decodeCheck(s: Settings, bytes: Buffer) {
  try {
    const image = sharp(bytes, { limitInputPixels: MAX_PIXELS, failOn: 'error' });
    const meta = await image.metadata();
    if (!meta.format || !DECODABLE.has(meta.format) || !meta.width || !meta.height) {
      throw new Error('unsupported format');
    }
    // Decoding a thumbnail reads the whole stream: a truncated or corrupt file fails here.
    await image.resize(8, 8, { fit: 'fill' }).raw().toBuffer();
    return { format: meta.format, width: meta.width, height: meta.height };
  } catch {
    refuse(
      s,
      'Image could not be decoded',
      'the content is not a readable JPEG, PNG, WebP, GIF or AVIF image',
    );
  }
}

async function fetchOnce(s: Settings, start: URL): Promise<FetchedImage> {
  let url = start;
  for (let hop = 0; ; hop++) {
    const pinned = await checkedAddress(s, url);
    const res = await request(s, url, pinned);
    if (REDIRECTS.has(res.statusCode ?? 0)) {
      res.resume();
      const location = res.headers.location;
      if (!location)
        refuse(s, 'Image URL redirected nowhere', `${res.statusCode} without Location`);
      if (hop >= s.maxRedirects) {
        refuse(s, 'Image URL redirected too many times', `more than ${s.maxRedirects} redirects`);
      }
      url = new URL(location, url);
      continue;
    }
    if (res.statusCode !== 200) {
      res.resume();
      refuse(s, 'Image URL did not return an image', `HTTP ${res.statusCode} from ${url.host}`);
    }
    const contentType = (res.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (!contentType.startsWith('image/')) {
      res.destroy();
      refuse(s, 'Image URL did not return an image', `content-type "${contentType || 'none'}"`);
    }
    const bytes = await readBody(s, res);
    const decoded = await decodeCheck(s, bytes);
    return {
      url: url.toString(),
      bytes,
      contentType,
      contentHash: createHash('sha256').update(bytes).digest('hex'),
      ...decoded,
    };
  }
}

/**
 * Fetches an image from a caller-supplied URL without letting the caller reach our own network:
 * http(s) only, no credentials, every hop's DNS answer checked and then pinned for the connection
 * (no rebinding), redirects capped, one deadline for the whole fetch, a byte limit, an image
 * content type, and a real decode. Every refusal is a 400 INVALID_REQUEST saying why. Private
 * addresses are reached only for hosts in IMAGE_FETCH_ALLOW_HOSTS and for URLs under a trusted
 * prefix (the in-process demo simulator's images), checked again at every redirect.
 */
export async function fetchImage(raw: string, opts: FetchImageOptions = {}): Promise<FetchedImage> {
  const config = env();
  const timeoutMs = opts.timeoutMs ?? config.IMAGE_FETCH_TIMEOUT_MS;
  const s: Settings = {
    field: opts.field ?? 'image_url',
    signal: AbortSignal.timeout(timeoutMs),
    maxBytes: opts.maxBytes ?? config.IMAGE_FETCH_MAX_BYTES,
    maxRedirects: opts.maxRedirects ?? config.IMAGE_FETCH_MAX_REDIRECTS,
    allowHosts: new Set(
      (opts.allowHosts ?? config.IMAGE_FETCH_ALLOW_HOSTS).map((h) => h.toLowerCase()),
    ),
  };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    refuse(s, 'Image URL is not a valid URL', JSON.stringify(raw.slice(0, 200)));
  }
  try {
    return await fetchOnce(s, url);
  } catch (err) {
    if (err instanceof ApiError) throw err;
    if (s.signal.aborted) {
      unreachable(
        s,
        url,
        'Image URL took too long to answer',
        `no complete image within ${timeoutMs} ms`,
      );
    }
    unreachable(s, url, 'Image URL could not be fetched', `connection to ${url.host} failed`);
  }
}
