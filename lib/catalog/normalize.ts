import { createHash } from 'node:crypto';
import { maxPrice, minPrice, toPriceString } from './decimal';
import { htmlToText } from './html-text';
import { shopifyProduct, type ShopifyVariant } from './shopify-product';

export interface NormalizedVariant {
  externalId: string;
  title: string;
  option1: string | null;
  option2: string | null;
  option3: string | null;
  sku: string | null;
  price: string;
  available: boolean;
  position: number;
}

export interface NormalizedProduct {
  externalId: string;
  handle: string;
  title: string;
  bodyHtml: string;
  description: string;
  vendor: string;
  productType: string;
  tags: string[];
  options: Array<{ name: string; values: string[] }>;
  images: string[];
  raw: Record<string, unknown>;
  contentHash: string;
  priceMin: string | null;
  priceMax: string | null;
  available: boolean;
  variants: NormalizedVariant[];
}

/** Why a record was skipped: recorded in sync_errors under the record's id when it has one. */
export class BadRecordError extends Error {
  constructor(
    readonly externalId: string | null,
    message: string,
  ) {
    super(message);
    this.name = 'BadRecordError';
  }
}

/** Bumped when normalization changes, so the next sync rewrites every product once. */
const NORMALIZER_VERSION = '1';

/**
 * Public products.json says `available`; the Admin API says it through inventory: untracked
 * stock, or selling when out of stock, is always available, else stock must be positive.
 */
function isAvailable(v: ShopifyVariant): boolean {
  if (typeof v.available === 'boolean') return v.available;
  if (!v.inventory_management || v.inventory_policy === 'continue') return true;
  return (v.inventory_quantity ?? 0) > 0;
}

/** JSON with object keys sorted, so equal content always hashes the same. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export function contentHash(raw: unknown): string {
  return createHash('sha256')
    .update(NORMALIZER_VERSION)
    .update(stableJson(raw))
    .digest('hex')
    .slice(0, 32);
}

/** The record's own id, if it has a usable one, even when the rest of it is unreadable. */
export function recordId(raw: unknown): string | null {
  const id = (raw as { id?: unknown } | null)?.id;
  return typeof id === 'number' || typeof id === 'string' ? String(id).slice(0, 64) : null;
}

function normalizeVariants(variants: ShopifyVariant[], productId: string): NormalizedVariant[] {
  const byId = new Map<string, NormalizedVariant>();
  variants.forEach((v, index) => {
    let price: string;
    try {
      price = toPriceString(v.price);
    } catch (err) {
      throw new BadRecordError(productId, `variant ${v.id}: ${(err as Error).message}`);
    }
    byId.set(String(v.id), {
      externalId: String(v.id),
      title: v.title,
      option1: v.option1,
      option2: v.option2,
      option3: v.option3,
      sku: v.sku ?? null,
      price,
      available: isAvailable(v),
      position: v.position ?? index + 1,
    });
  });
  return [...byId.values()];
}

/**
 * One Shopify product (Admin or public shape) as the catalogue stores it. Throws
 * BadRecordError, naming the fields at fault, for a record that cannot be used.
 */
export function normalizeProduct(raw: unknown): NormalizedProduct {
  const parsed = shopifyProduct.safeParse(raw);
  if (!parsed.success) {
    const detail = parsed.error.issues
      .slice(0, 3)
      .map((i) => `${i.path.join('.') || 'record'} ${i.message}`)
      .join('; ');
    throw new BadRecordError(recordId(raw), `invalid product: ${detail}`);
  }
  const p = parsed.data;
  const externalId = String(p.id);
  const variants = normalizeVariants(p.variants, externalId);
  const prices = variants.map((v) => v.price);
  return {
    externalId,
    handle: p.handle,
    title: p.title,
    bodyHtml: p.body_html,
    description: htmlToText(p.body_html),
    vendor: p.vendor,
    productType: p.product_type,
    tags: p.tags,
    options: p.options.map((o) => ({ name: o.name, values: o.values ?? [] })),
    images: p.images,
    raw: raw as Record<string, unknown>,
    contentHash: contentHash(raw),
    priceMin: minPrice(prices),
    priceMax: maxPrice(prices),
    available: variants.some((v) => v.available),
    variants,
  };
}

/**
 * Admin exports include drafts, archived and unpublished products, which the storefront does
 * not sell: they are treated as absent from the store (and so removed if listed before).
 */
export function isListed(raw: unknown): boolean {
  const record = raw as { status?: unknown; published_at?: unknown } | null;
  if (record?.status !== undefined && record.status !== null && record.status !== 'active') {
    return false;
  }
  return record?.published_at !== null;
}
