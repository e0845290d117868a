import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigserial,
  bigint,
  boolean,
  check,
  customType,
  doublePrecision,
  foreignKey,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { vectorLiteral } from './vector';

/**
 * A pgvector column without a fixed dimension: models differ in width (USE lite 512, MiniLM
 * 384, CLIP 512/768), and every vector carries its model id, so one column serves them all.
 * Vector indexes are partial expression indexes per model (lib/embeddings/vector-index.ts).
 */
export const vector = customType<{ data: number[]; driverData: string }>({
  dataType: () => 'vector',
  toDriver: vectorLiteral,
  fromDriver: (value) => JSON.parse(value) as number[],
});

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
};

export const developers = pgTable('developers', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  plan: text('plan', { enum: ['free', 'pro', 'enterprise'] })
    .notNull()
    .default('free'),
  ...timestamps,
});

export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    developerId: text('developer_id')
      .notNull()
      .references(() => developers.id, { onDelete: 'cascade' }),
    prefix: text('prefix').notNull(),
    hash: text('hash').notNull(),
    /**
     * 'dashboard' for the keys the server makes for its own dashboard at each start (revoked by
     * the next start); null for keys handed to people.
     */
    purpose: text('purpose', { enum: ['dashboard'] }),
    createdAt: timestamps.createdAt,
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('api_keys_prefix_uq').on(t.prefix),
    index('api_keys_developer_idx').on(t.developerId),
  ],
);

export const profiles = pgTable(
  'profiles',
  {
    id: text('id').primaryKey(),
    developerId: text('developer_id')
      .notNull()
      .references(() => developers.id, { onDelete: 'cascade' }),
    /** The address that search links and purchases use; a profile may own older ones. */
    shippingAddressId: text('shipping_address_id'),
    ...timestamps,
  },
  (t) => [index('profiles_developer_idx').on(t.developerId)],
);

export const styles = pgTable(
  'styles',
  {
    id: text('id').primaryKey(),
    developerId: text('developer_id').notNull(),
    profileId: text('profile_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    text: text('text').notNull(),
    embedding: vector('embedding').notNull(),
    embeddingModel: text('embedding_model').notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex('styles_profile_uq').on(t.profileId)],
);

export const shippingAddresses = pgTable(
  'shipping_addresses',
  {
    id: text('id').primaryKey(),
    developerId: text('developer_id').notNull(),
    profileId: text('profile_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email').notNull(),
    phone: text('phone').notNull(),
    address1: text('address_1').notNull(),
    address2: text('address_2'),
    city: text('city').notNull(),
    countryCode: text('country_code').notNull(),
    provinceCode: text('province_code').notNull(),
    postalCode: text('postal_code').notNull(),
    ...timestamps,
  },
  (t) => [index('shipping_profile_idx').on(t.profileId)],
);

export const stores = pgTable(
  'stores',
  {
    id: text('id').primaryKey(),
    domain: text('domain').notNull(),
    name: text('name').notNull(),
    platform: text('platform', { enum: ['shopify'] })
      .notNull()
      .default('shopify'),
    /** Where products.json and the Admin API are reached; null means https://{domain}. */
    baseUrl: text('base_url'),
    accessPolicy: text('access_policy', { enum: ['open', 'allow'] })
      .notNull()
      .default('open'),
    adminTokenEncrypted: text('admin_token_encrypted'),
    verified: boolean('verified').notNull().default(false),
    verificationReason: text('verification_reason'),
    verifiedAt: timestamp('verified_at', { withTimezone: true, mode: 'date' }),
    /** ISO 4217 code of the store's prices, as its platform states it (Shopify shop.json). */
    currency: text('currency'),
    syncState: text('sync_state', {
      enum: ['never', 'running', 'succeeded', 'failed', 'interrupted'],
    })
      .notNull()
      .default('never'),
    syncStartedAt: timestamp('sync_started_at', { withTimezone: true, mode: 'date' }),
    syncFinishedAt: timestamp('sync_finished_at', { withTimezone: true, mode: 'date' }),
    syncProgress: jsonb('sync_progress').$type<Record<string, number>>(),
    syncLastError: text('sync_last_error'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('stores_domain_uq').on(t.domain),
    // Every all-stores search reads the stores closed to its caller (closedStoreIds): through
    // this index that read costs the closed stores, where a scan would cost every store.
    index('stores_not_open_idx')
      .on(t.id)
      .where(sql`access_policy <> 'open'`),
  ],
);

export const storeAllowedDevelopers = pgTable(
  'store_allowed_developers',
  {
    storeId: text('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    developerId: text('developer_id')
      .notNull()
      .references(() => developers.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.storeId, t.developerId] })],
);

export const syncErrors = pgTable(
  'sync_errors',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    storeId: text('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    externalId: text('external_id'),
    message: text('message').notNull(),
    createdAt: timestamps.createdAt,
  },
  (t) => [index('sync_errors_store_idx').on(t.storeId, t.createdAt)],
);

/**
 * The catalogue tables (products, variants, product_embeddings and the lexical index) are keyed
 * by store first: on Citus they are distributed by store_id and co-located, so every key and
 * foreign key among them carries the store (lib/db/migrations/0005_distributed_catalogue.sql).
 * Product ids stay unique on their own (one sequence), so lookups by id alone still work.
 */
export const products = pgTable(
  'products',
  {
    id: bigserial('id', { mode: 'number' }).notNull(),
    storeId: text('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    /** The platform's product id (Shopify's), exposed as the product id in the API. */
    externalId: text('external_id').notNull(),
    handle: text('handle').notNull().default(''),
    title: text('title').notNull(),
    bodyHtml: text('body_html').notNull().default(''),
    description: text('description').notNull().default(''),
    vendor: text('vendor').notNull().default(''),
    productType: text('product_type').notNull().default(''),
    tags: text('tags')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    options: jsonb('options')
      .notNull()
      .default(sql`'[]'::jsonb`),
    images: jsonb('images')
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** The product exactly as the platform sent it: the legacy /search shape is built from it. */
    raw: jsonb('raw').notNull(),
    contentHash: text('content_hash').notNull(),
    priceMin: numeric('price_min', { precision: 12, scale: 2 }),
    priceMax: numeric('price_max', { precision: 12, scale: 2 }),
    available: boolean('available').notNull().default(true),
    /**
     * The image queue (lib/images/backfill.ts): set when the product's image must be (re)embedded,
     * at or after this time; null when its vector is current or it has no image.
     */
    imageDueAt: timestamp('image_due_at', { withTimezone: true }),
    /** Failed image fetches since the last success: the retry backoff grows with it. */
    imageAttempts: integer('image_attempts').notNull().default(0),
    imageError: text('image_error'),
    /** The image's host, when the last fetch could not reach it (unresolvable, no answer). */
    imageUnreachableHost: text('image_unreachable_host'),
    ...timestamps,
  },
  (t) => [
    primaryKey({ columns: [t.storeId, t.id] }),
    index('products_image_due_idx')
      .on(t.imageDueAt)
      .where(sql`image_due_at IS NOT NULL`),
    uniqueIndex('products_store_external_uq').on(t.storeId, t.externalId),
    index('products_id_idx').on(t.id),
    // GET /products/{id} finds a platform id in every store the caller may see.
    index('products_external_idx').on(t.externalId),
  ],
);

/** A catalogue row's reference to its product, store included (see products). */
function productReference(name: string, storeId: AnyPgColumn, productId: AnyPgColumn) {
  return foreignKey({
    name,
    columns: [storeId, productId],
    foreignColumns: [products.storeId, products.id],
  }).onDelete('cascade');
}

export const variants = pgTable(
  'variants',
  {
    id: bigserial('id', { mode: 'number' }).notNull(),
    productId: bigint('product_id', { mode: 'number' }).notNull(),
    storeId: text('store_id').notNull(),
    externalId: text('external_id').notNull(),
    title: text('title').notNull().default(''),
    option1: text('option1'),
    option2: text('option2'),
    option3: text('option3'),
    sku: text('sku'),
    price: numeric('price', { precision: 12, scale: 2 }).notNull(),
    available: boolean('available').notNull().default(true),
    position: integer('position').notNull().default(1),
    /**
     * Units the store can sell, where the store tracks them (UCP checkouts refuse more); null
     * when it does not. Written after a sync from the store's Admin API when the store has a
     * token (lib/catalog/stock.ts) and by the rules import (lib/ucp/rules); the products upsert
     * leaves it as it is.
     */
    inventoryQuantity: integer('inventory_quantity'),
  },
  (t) => [
    primaryKey({ columns: [t.storeId, t.id] }),
    productReference('variants_product_fk', t.storeId, t.productId),
    uniqueIndex('variants_store_external_uq').on(t.storeId, t.externalId),
    index('variants_product_idx').on(t.productId),
    index('variants_price_idx').on(t.storeId, t.price),
  ],
);

export const productEmbeddings = pgTable(
  'product_embeddings',
  {
    storeId: text('store_id').notNull(),
    productId: bigint('product_id', { mode: 'number' }).notNull(),
    kind: text('kind', { enum: ['text', 'image'] }).notNull(),
    modelId: text('model_id').notNull(),
    /** Hash of the embedded input, so a re-sync re-embeds only what changed. */
    inputHash: text('input_hash').notNull(),
    embedding: vector('embedding').notNull(),
    createdAt: timestamps.createdAt,
  },
  // No index on (model_id, kind): every lookup goes by product, and with stale statistics the
  // planner preferred that index to the primary key, scanning a whole model per candidate.
  (t) => [
    primaryKey({ columns: [t.storeId, t.productId, t.kind, t.modelId] }),
    productReference('product_embeddings_product_fk', t.storeId, t.productId),
  ],
);

/** Embeddings keyed by model and input hash: re-imports and eval runs skip work already done. */
export const embeddingCache = pgTable(
  'embedding_cache',
  {
    modelId: text('model_id').notNull(),
    inputHash: text('input_hash').notNull(),
    embedding: vector('embedding').notNull(),
    createdAt: timestamps.createdAt,
  },
  (t) => [primaryKey({ columns: [t.modelId, t.inputHash] })],
);

export const imageCache = pgTable(
  'image_cache',
  {
    url: text('url').notNull(),
    modelId: text('model_id').notNull(),
    contentHash: text('content_hash').notNull(),
    embedding: vector('embedding').notNull(),
    fetchedAt: timestamp('fetched_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.url, t.modelId] }),
    index('image_cache_hash_idx').on(t.contentHash, t.modelId),
  ],
);

/**
 * The lexical index: one row per (product, term) with the field-weighted term frequency, derived
 * from the analyzer's terms (lib/search/index/lexical-index.ts). BM25 needs per-document tf and length, which a GIN index cannot give.
 * `impact` is the posting's BM25 term-frequency part, tf * (k1 + 1) / (tf + k1 * (1 - b + b *
 * len / avgdl)), with the average length when it was written: the IDF is the same for every
 * posting of a term, so the indexes ordered by impact let a search read a common term's best
 * postings first and stop (lib/search/retrieve/lexical-sql.ts).
 */
export const searchPostings = pgTable(
  'search_postings',
  {
    storeId: text('store_id').notNull(),
    productId: bigint('product_id', { mode: 'number' }).notNull(),
    term: text('term').notNull(),
    tf: real('tf').notNull(),
    docLen: real('doc_len').notNull(),
    impact: real('impact').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.storeId, t.productId, t.term] }),
    productReference('search_postings_product_fk', t.storeId, t.productId),
    // The trailing ids give reads a fixed order among equal impacts, on every engine. Migration
    // 0026 adds INCLUDE (tf, doc_len), which Drizzle cannot declare: whole-term reads are then
    // index-only.
    index('search_postings_term_impact_idx').on(t.term, t.impact.desc(), t.storeId, t.productId),
    index('search_postings_store_term_impact_idx').on(
      t.storeId,
      t.term,
      t.impact.desc(),
      t.productId,
    ),
  ],
);

/** Per-store document count and total field-weighted length: summed, BM25's N and avgdl. */
export const searchStoreStats = pgTable('search_store_stats', {
  storeId: text('store_id').primaryKey(),
  docCount: integer('doc_count').notNull(),
  totalLen: doublePrecision('total_len').notNull(),
  /**
   * Changed (to a random value) after every write or removal of the store's text vectors: the
   * key under which the app caches them (lib/search/retrieve/store-vectors-cache.ts).
   */
  vectorsVersion: bigint('vectors_version', { mode: 'number' }).notNull().default(0),
});

/**
 * search_store_stats summed over every store, in one row: BM25's N and average length as a
 * search reads them, two numbers whatever the number of stores. The indexer recomputes it in the
 * transaction that changes a store's row (lib/search/index/lexical-index.ts).
 */
export const searchCorpusStats = pgTable(
  'search_corpus_stats',
  {
    one: boolean('one').primaryKey().default(true),
    docCount: doublePrecision('doc_count').notNull(),
    totalLen: doublePrecision('total_len').notNull(),
  },
  (t) => [check('search_corpus_stats_one_row', sql`${t.one}`)],
);

/**
 * The vocabulary over every store with each term's document frequency: the global statistics
 * that make one store's scores comparable with another's, and the list typo correction searches.
 */
export const searchTerms = pgTable(
  'search_terms',
  {
    term: text('term').primaryKey(),
    df: integer('df').notNull(),
    /**
     * For a term held by more products than an all-stores search reads (lib/search/index/term-floors.ts):
     * the impact its read starts from, and how many postings reach it. Null for the others.
     */
    floor: real('floor'),
    above: integer('above').notNull().default(0),
    /**
     * A fresh random number each time any of the term's postings is written or removed: the key
     * under which a server's cache of the term's best postings stays valid (term-postings-cache.ts).
     */
    version: bigint('version', { mode: 'number' }).notNull().default(0),
  },
  // A mistyped query term's spelling candidates share three letters with it, at its start, one
  // or two letters in (lib/search/query/query-terms.ts); without these, each lookup read the vocabulary.
  (t) => [
    index('search_terms_head_idx').on(sql`substr(${t.term}, 1, 3)`),
    index('search_terms_shifted_head_idx').on(sql`substr(${t.term}, 2, 3)`),
    index('search_terms_third_idx').on(sql`substr(${t.term}, 3, 3)`),
    // Every indexing batch reads the floors (readFloors): through this index that costs the
    // floored terms (those held by more than 2,000 products), where a scan costs the vocabulary.
    index('search_terms_floored_idx')
      .on(t.term, t.floor)
      .where(sql`floor IS NOT NULL`),
  ],
);

export const orders = pgTable(
  'orders',
  {
    id: text('id').primaryKey(),
    /**
     * Null for an order a keyless UCP agent placed (a store open to agents): it belongs to the
     * agent's profile URL (agent_profile), not to a developer.
     */
    developerId: text('developer_id').references(() => developers.id, { onDelete: 'cascade' }),
    /** The shopper profile of a /buy or MCP order; null for a UCP order (its buyer is in `ucp`). */
    profileId: text('profile_id'),
    storeId: text('store_id').notNull(),
    source: text('source', { enum: ['api', 'mcp', 'ucp', 'dashboard'] })
      .notNull()
      .default('api'),
    /** The UCP checkout session that placed it (one order per checkout at most). */
    checkoutId: text('checkout_id'),
    /** The profile URL of the UCP agent that placed it (its UCP-Agent header). */
    agentProfile: text('agent_profile'),
    /** The UCP order body as GET /ucp/{store}/orders/{id} returns it. */
    ucp: jsonb('ucp'),
    idempotencyKey: text('idempotency_key'),
    requestHash: text('request_hash').notNull(),
    status: text('status', { enum: ['pending', 'created', 'failed'] })
      .notNull()
      .default('pending'),
    platformOrderId: text('platform_order_id'),
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
    lines: jsonb('lines').notNull(),
    shipping: jsonb('shipping').notNull(),
    /** The response sent for this order, replayed verbatim for a repeated Idempotency-Key. */
    response: jsonb('response'),
    responseStatus: integer('response_status'),
    attempts: integer('attempts').notNull().default(0),
    totalPrice: numeric('total_price', { precision: 12, scale: 2 }),
    /**
     * Who works on a pending order (a request or a reconciler) and until when: nobody else
     * touches it before `lease_until`, which the holder keeps renewing while it works. A pending
     * order without an owner is parked: it is looked up at the store again at `lease_until`.
     */
    leaseOwner: text('lease_owner'),
    leaseUntil: timestamp('lease_until', { withTimezone: true, mode: 'date' }),
    /** From this time on, a store lookup that misses the order proves the store never made it. */
    settleAfter: timestamp('settle_after', { withTimezone: true, mode: 'date' }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('orders_idempotency_uq').on(t.developerId, t.idempotencyKey),
    index('orders_profile_idx').on(t.developerId, t.profileId, t.createdAt),
    index('orders_store_idx').on(t.storeId, t.createdAt),
    index('orders_pending_idx')
      .on(t.leaseUntil)
      .where(sql`${t.status} = 'pending'`),
    // Concurrent completes of one checkout meet here: one order, whoever inserts first; a
    // failed one (the store refused it) leaves room for the next attempt.
    uniqueIndex('orders_checkout_uq')
      .on(t.checkoutId)
      .where(sql`${t.checkoutId} IS NOT NULL AND ${t.status} <> 'failed'`),
  ],
);

/**
 * A store's rules for UCP checkouts (shipping rates, discount codes, promotions, customers and
 * their saved addresses): synced from the store's platform (lib/catalog/store-rules-sync.ts) or
 * imported from a UCP test-data directory (lib/ucp/rules); storeRuleSources says which. Ids
 * stay as the source gives them (opaque text); money is in the store currency's minor units.
 * On Citus these small tables are reference tables, like stores (migrations 0023, 0025).
 */
/** The store a rules row belongs to, removed with it. */
function ruleStoreId() {
  return text('store_id')
    .notNull()
    .references(() => stores.id, { onDelete: 'cascade' });
}

export const storeShippingRates = pgTable(
  'store_shipping_rates',
  {
    storeId: ruleStoreId(),
    id: text('id').notNull(),
    /** ISO 3166-1 alpha-2, or 'default' for every country without its own rate of the level. */
    countryCode: text('country_code').notNull(),
    serviceLevel: text('service_level').notNull(),
    price: bigint('price', { mode: 'number' }).notNull(),
    title: text('title').notNull(),
  },
  // A Shopify rate belongs to a zone of several countries: one row per country, under its id.
  (t) => [primaryKey({ columns: [t.storeId, t.countryCode, t.id] })],
);

export const storeDiscountCodes = pgTable(
  'store_discount_codes',
  {
    storeId: ruleStoreId(),
    code: text('code').notNull(),
    // Plain text in the database (no CHECK): the enum is TypeScript's only.
    type: text('type', { enum: ['percentage', 'fixed_amount', 'free_shipping'] }).notNull(),
    /** Percent for 'percentage', minor units for 'fixed_amount', 0 (unused) for 'free_shipping'. */
    value: bigint('value', { mode: 'number' }).notNull(),
    description: text('description').notNull().default(''),
  },
  (t) => [primaryKey({ columns: [t.storeId, t.code] })],
);

export const storePromotions = pgTable(
  'store_promotions',
  {
    storeId: ruleStoreId(),
    id: text('id').notNull(),
    type: text('type', { enum: ['free_shipping'] }).notNull(),
    /** The subtotal (minor units) from which it applies; null: any subtotal. */
    minSubtotal: bigint('min_subtotal', { mode: 'number' }),
    /** It applies when the checkout holds one of these items; empty: any item. */
    eligibleItemIds: text('eligible_item_ids')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    description: text('description').notNull().default(''),
  },
  (t) => [primaryKey({ columns: [t.storeId, t.id] })],
);

export const storeCustomers = pgTable(
  'store_customers',
  {
    storeId: ruleStoreId(),
    id: text('id').notNull(),
    name: text('name').notNull().default(''),
    email: text('email').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.storeId, t.id] }),
    // A checkout finds its buyer's saved addresses by e-mail, whatever its case.
    index('store_customers_email_idx').on(t.storeId, sql`lower(${t.email})`),
  ],
);

export const storeCustomerAddresses = pgTable(
  'store_customer_addresses',
  {
    storeId: ruleStoreId(),
    id: text('id').notNull(),
    customerId: text('customer_id').notNull(),
    streetAddress: text('street_address').notNull().default(''),
    extendedAddress: text('extended_address'),
    city: text('city').notNull().default(''),
    /** State, province or region code, as the address gives it. */
    region: text('region').notNull().default(''),
    postalCode: text('postal_code').notNull().default(''),
    /** ISO 3166-1 alpha-2. */
    country: text('country').notNull().default(''),
    firstName: text('first_name'),
    lastName: text('last_name'),
    createdAt: timestamps.createdAt,
  },
  (t) => [
    primaryKey({ columns: [t.storeId, t.id] }),
    index('store_customer_addresses_customer_idx').on(t.storeId, t.customerId),
  ],
);

/**
 * Where each part of a store's rules comes from: 'shopify' (written by the sync after a catalogue
 * sync, lib/catalog/store-rules-sync.ts) or 'import' (store import-rules). The sync leaves an
 * imported part alone, so an import is never overwritten; `store sync-rules` hands parts back.
 * No row: nothing has written the part yet.
 */
export const storeRuleSources = pgTable(
  'store_rule_sources',
  {
    storeId: ruleStoreId(),
    part: text('part', {
      enum: ['shipping_rates', 'discounts', 'promotions', 'customers', 'stock'],
    }).notNull(),
    source: text('source', { enum: ['shopify', 'import'] }).notNull(),
    updatedAt: timestamps.updatedAt,
  },
  (t) => [primaryKey({ columns: [t.storeId, t.part] })],
);

/**
 * How a store serves UCP: who may call (only developers' API keys, or also keyless agents that
 * name their profile) and which payment handlers it accepts (UCP handler configs, as its
 * discovery profile lists them). No row: API keys only, no handler.
 */
export const storeUcpSettings = pgTable('store_ucp_settings', {
  storeId: text('store_id')
    .primaryKey()
    .references(() => stores.id, { onDelete: 'cascade' }),
  agentAccess: text('agent_access', { enum: ['keys', 'open'] })
    .notNull()
    .default('keys'),
  paymentHandlers: jsonb('payment_handlers')
    .$type<Record<string, unknown>[]>()
    .notNull()
    .default(sql`'[]'::jsonb`),
  updatedAt: timestamps.updatedAt,
});

/**
 * UCP checkout sessions. A session belongs to its caller (`owner`: 'developer:{id}' or
 * 'agent:{profile url}'); `checkout` is its UCP body as last answered, card data stripped.
 * Kept on the coordinator on Citus, like orders, which a completion writes in the same
 * transaction.
 */
export const checkoutSessions = pgTable(
  'checkout_sessions',
  {
    id: text('id').primaryKey(),
    storeId: text('store_id').notNull(),
    owner: text('owner').notNull(),
    developerId: text('developer_id'),
    agentProfile: text('agent_profile'),
    status: text('status', {
      enum: [
        'incomplete',
        'requires_escalation',
        'ready_for_complete',
        'complete_in_progress',
        'completed',
        'canceled',
      ],
    }).notNull(),
    checkout: jsonb('checkout').notNull(),
    /** The buyer's e-mail, lower case: whose saved addresses the checkout offers. */
    buyerEmail: text('buyer_email'),
    orderId: text('order_id'),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    ...timestamps,
  },
  (t) => [index('checkout_sessions_owner_idx').on(t.owner, t.createdAt)],
);

/**
 * UCP Idempotency-Key records: the first answer to a key, replayed for the same request and
 * refused (409) for another. `response_status` is null while the first request runs.
 */
export const ucpIdempotency = pgTable(
  'ucp_idempotency',
  {
    owner: text('owner').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    responseStatus: integer('response_status'),
    responseBody: jsonb('response_body'),
    createdAt: timestamps.createdAt,
  },
  (t) => [
    primaryKey({ columns: [t.owner, t.key] }),
    index('ucp_idempotency_created_idx').on(t.createdAt),
  ],
);

/**
 * UCP order webhooks waiting to be delivered (an outbox: written in the transaction that records
 * the event, delivered and retried with backoff by lib/ucp/webhooks).
 */
export const ucpWebhookOutbox = pgTable(
  'ucp_webhook_outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    storeId: text('store_id').notNull(),
    orderId: text('order_id').notNull(),
    eventType: text('event_type', { enum: ['order_placed', 'order_shipped'] }).notNull(),
    /** The agent's webhook URL once known (the profile is read at delivery when it is not). */
    url: text('url'),
    payload: jsonb('payload').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' })
      .notNull()
      .defaultNow(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true, mode: 'date' }),
    lastError: text('last_error'),
    createdAt: timestamps.createdAt,
  },
  (t) => [
    index('ucp_webhook_outbox_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.deliveredAt} IS NULL`),
  ],
);

/**
 * Per-key request counts of the API rate limiter (rate-limiter-flexible's Drizzle store): one
 * row per key and window, so every replica on this database counts the same requests.
 */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  points: integer('points').notNull().default(0),
  expire: timestamp('expire', { withTimezone: true, mode: 'date' }),
});
