import fs from 'node:fs';
import { scalarText } from '../search/results/scalar-text';

/** A product as a caller hands it to the simulator: Shopify's public or Admin JSON. */
export type ShopifyProductInput = Record<string, unknown>;

/**
 * A product or variant id as the shop shows it: Shopify's are integers, a UCP test-data shop's
 * are opaque strings (`bouquet_roses`), kept as given.
 */
export type SimId = number | string;

/** A product as the storefront's `/products.json` shows it. */
export interface StorefrontProduct {
  id: SimId;
  title: string;
  handle?: string;
  tags: string[];
  variants: StorefrontVariant[];
  images: Array<{ src: string } & Record<string, unknown>>;
  options: Array<{ name: string; position?: number; values?: string[] }>;
  [field: string]: unknown;
}

export interface StorefrontVariant {
  id: SimId;
  title?: string;
  price: string;
  available: boolean;
  [field: string]: unknown;
}

/** What an order needs to know about a variant. */
export interface CatalogueVariant {
  id: SimId;
  productId: SimId;
  productTitle: string;
  title: string;
  price: string;
  sku: string | null;
  grams: number;
  requiresShipping: boolean;
  taxable: boolean;
  /**
   * Units an order may take: the Admin API's `inventory_quantity` of a variant whose stock is
   * tracked and may not oversell; null when orders are not limited by stock.
   */
  stock: number | null;
  /** The storefront's copy, whose `available` follows the stock as orders take it. */
  storefront: StorefrontVariant;
}

export interface Catalogue {
  products: StorefrontProduct[];
  /** By the variant id as text, whatever its type. */
  variants: Map<string, CatalogueVariant>;
}

// Field lists of the storefront's public JSON, in Shopify's order: Admin-only fields
// (inventory, admin_graphql_api_id, status, ...) never reach the storefront.
const PRODUCT_FIELDS = [
  'id',
  'title',
  'handle',
  'body_html',
  'published_at',
  'created_at',
  'updated_at',
  'vendor',
  'product_type',
] as const;
const VARIANT_FIELDS = [
  'id',
  'title',
  'option1',
  'option2',
  'option3',
  'sku',
  'requires_shipping',
  'taxable',
  'featured_image',
  'available',
  'price',
  'grams',
  'compare_at_price',
  'position',
  'product_id',
  'created_at',
  'updated_at',
] as const;
const IMAGE_FIELDS = [
  'id',
  'created_at',
  'position',
  'updated_at',
  'product_id',
  'variant_ids',
  'src',
  'width',
  'height',
] as const;

type Json = Record<string, unknown>;

function pick(source: Json, fields: readonly string[]): Json {
  const out: Json = {};
  for (const field of fields) if (field in source) out[field] = source[field];
  return out;
}

function records(value: unknown): Json[] {
  return Array.isArray(value)
    ? value.filter((v): v is Json => typeof v === 'object' && v !== null)
    : [];
}

/** Admin tags are one comma-separated string; the storefront shows an array. */
function tagList(tags: unknown): string[] {
  if (Array.isArray(tags)) return tags.map(String);
  if (typeof tags !== 'string') return [];
  return tags
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
}

/** An integer id (or its digits) stays a number, as Shopify's; any other id stays as given. */
export function simId(value: unknown): SimId {
  const n = Number(value);
  if (typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value))) {
    if (Number.isSafeInteger(n)) return n;
  }
  return scalarText(value);
}

/** The stock that limits orders: tracked and not overselling; null when nothing limits them. */
export function limitingStock(variant: Json): number | null {
  if (variant.inventory_management == null || variant.inventory_policy === 'continue') return null;
  const quantity = Number(variant.inventory_quantity ?? 1);
  return Number.isFinite(quantity) ? quantity : null;
}

/**
 * The storefront's `available`: an untracked variant, or one that may oversell, is always
 * available; a tracked one that denies overselling needs stock.
 */
function variantAvailable(variant: Json): boolean {
  if (typeof variant.available === 'boolean') return variant.available;
  const stock = limitingStock(variant);
  return stock === null || stock > 0;
}

/** Image paths under `/cdn/` belong to the simulated shop: they become absolute URLs. */
function imageSrc(src: unknown, shopUrl: string): string {
  const text = scalarText(src);
  return text.startsWith('/cdn/') ? `${shopUrl}${text}` : text;
}

/** Drafts, archived and unpublished products are not on the storefront. */
function isPublished(product: Json): boolean {
  if ('status' in product && product.status !== 'active') return false;
  return !('published_at' in product) || product.published_at !== null;
}

function storefrontImage(image: Json, shopUrl: string): StorefrontProduct['images'][number] {
  return { ...pick(image, IMAGE_FIELDS), src: imageSrc(image.src, shopUrl) };
}

/** The public variant's `featured_image`: Admin variants name their image by `image_id`. */
function featuredImage(variant: Json, images: StorefrontProduct['images'], shopUrl: string) {
  if (variant.featured_image && typeof variant.featured_image === 'object') {
    return storefrontImage(variant.featured_image as Json, shopUrl);
  }
  if ('featured_image' in variant || !('image_id' in variant)) return variant.featured_image;
  return images.find((i) => i.id === variant.image_id) ?? null;
}

function storefrontVariant(
  variant: Json,
  images: StorefrontProduct['images'],
  shopUrl: string,
): StorefrontVariant {
  const publicVariant = {
    ...variant,
    id: simId(variant.id),
    price: scalarText(variant.price, '0.00'),
    available: variantAvailable(variant),
    featured_image: featuredImage(variant, images, shopUrl),
  };
  return pick(publicVariant, VARIANT_FIELDS) as StorefrontVariant;
}

/** One product as `/products.json` shows it, or undefined when the storefront hides it. */
export function toStorefrontProduct(
  product: ShopifyProductInput,
  shopUrl: string,
): StorefrontProduct | undefined {
  if (!isPublished(product)) return undefined;
  const images = records(product.images).map((i) => storefrontImage(i, shopUrl));
  return {
    ...pick(product, PRODUCT_FIELDS),
    id: simId(product.id),
    title: scalarText(product.title),
    tags: tagList(product.tags),
    variants: records(product.variants).map((v) => storefrontVariant(v, images, shopUrl)),
    images,
    options: records(product.options).map((o) => ({
      ...pick(o, ['name', 'position', 'values']),
      name: scalarText(o.name),
    })),
  };
}

export function buildCatalogue(products: ShopifyProductInput[], shopUrl: string): Catalogue {
  const shown: StorefrontProduct[] = [];
  const variants = new Map<string, CatalogueVariant>();
  for (const input of products) {
    const product = toStorefrontProduct(input, shopUrl);
    if (!product) continue;
    shown.push(product);
    const inputVariants = records(input.variants);
    product.variants.forEach((v, i) => {
      variants.set(String(v.id), {
        id: v.id,
        productId: product.id,
        productTitle: product.title,
        title: String(v.title ?? 'Default Title'),
        price: v.price,
        sku: typeof v.sku === 'string' ? v.sku : null,
        grams: Number(v.grams ?? 0),
        requiresShipping: v.requires_shipping !== false,
        taxable: v.taxable !== false,
        stock: limitingStock(inputVariants[i] ?? {}),
        storefront: v,
      });
    });
  }
  return { products: shown, variants };
}

/** Shopify's `limit` parameter: at most 250, the fallback when absent or not positive. */
export function parseLimit(value: string | undefined, fallback: number): number {
  const asked = Number.parseInt(value ?? '', 10);
  return Number.isFinite(asked) && asked > 0 ? Math.min(asked, 250) : fallback;
}

/** Storefront paging: `limit` defaults to 30 and is capped at 250; pages count from 1. */
export function productPage(
  catalogue: Catalogue,
  limitParam: string | undefined,
  pageParam: string | undefined,
): StorefrontProduct[] {
  const limit = parseLimit(limitParam, 30);
  const pageAsked = Number.parseInt(pageParam ?? '', 10);
  const page = Number.isFinite(pageAsked) && pageAsked > 0 ? pageAsked : 1;
  return catalogue.products.slice((page - 1) * limit, page * limit);
}

/** A catalogue file: a bare array of products or Shopify's `{"products": [...]}`. */
export function readCatalogueFile(file: string): ShopifyProductInput[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`Cannot read the catalogue ${file}: ${(err as Error).message}`);
  }
  const list = Array.isArray(parsed) ? parsed : (parsed as { products?: unknown })?.products;
  if (!Array.isArray(list)) {
    throw new Error(`${file} holds neither an array of products nor {"products": [...]}`);
  }
  return records(list);
}
