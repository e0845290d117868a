import { z } from 'zod';
import { idInput, storeDomainInput } from './common';

/** Upper bound of max_result_count: a page an agent can read, and a bounded query for us. */
export const MAX_RESULT_CAP = 100;
export const DEFAULT_RESULT_COUNT = 2;
export const DEFAULT_SIMILARITY_THRESHOLD = 0.25;
/** Weights a request leaves out: the query alone, or mostly the query when a style is given. */
export const DEFAULT_QUERY_WEIGHT = 1;
export const DEFAULT_QUERY_WEIGHT_WITH_STYLE = 0.7;
export const DEFAULT_STYLE_WEIGHT = 0.3;
export const QUERY_TEXT_MAX = 500;

/** Messages leave the field out: issues are shown as `<path> <message>`. */
const unit = z
  .number({ error: 'must be a number' })
  .min(0, 'must be between 0 and 1')
  .max(1, 'must be between 0 and 1');

/** Prices arrive as numbers or decimal strings ("19.99"); both mean the same amount. */
const priceInput = z
  .union([
    z.number(),
    z
      .string()
      .trim()
      .regex(/^\d+(\.\d+)?$/, 'must be a decimal number'),
  ])
  .transform((v) => Number(v))
  .pipe(z.number().min(0, 'must not be negative').finite());

const resultCount = z
  .number()
  .int('must be an integer')
  .min(1, 'must be at least 1')
  .max(MAX_RESULT_CAP, `must be at most ${MAX_RESULT_CAP}`);

export const searchProductsRequest = z
  .object({
    query: z.object({
      text: z
        .string()
        .trim()
        .min(1, 'must not be empty')
        .max(QUERY_TEXT_MAX, `must be at most ${QUERY_TEXT_MAX} characters`),
      image_url: z.string().trim().min(1, 'must not be empty').max(2048).optional(),
    }),
    profile_id: idInput.optional(),
    store_id: idInput.optional().meta({
      description:
        'Store to search in (takes precedence over store_domain); with neither, every store open to the caller is searched',
    }),
    store_domain: storeDomainInput
      .optional()
      .meta({ description: 'Domain of the store to search in' }),
    query_weight: unit.optional().meta({
      description: `Weight of the query: default ${DEFAULT_QUERY_WEIGHT}, or ${DEFAULT_QUERY_WEIGHT_WITH_STYLE} with a style`,
    }),
    style_weight: unit
      .optional()
      .meta({ description: `Weight of the style: default ${DEFAULT_STYLE_WEIGHT}` }),
    similarity_threshold: unit.default(DEFAULT_SIMILARITY_THRESHOLD),
    max_result_count: resultCount.optional().meta({
      description: `Maximum number of results: 1 to ${MAX_RESULT_CAP}, default ${DEFAULT_RESULT_COUNT}`,
    }),
    result_count: resultCount.optional().meta({ description: 'Alias of max_result_count' }),
    exclude_variant_ids: z.array(idInput).max(1000).default([]),
    price_min: priceInput.optional(),
    price_max: priceInput.optional(),
    explain: z.boolean({ error: 'must be a boolean' }).default(false).meta({
      description:
        'Extension for operators: true adds score_details to each result. Needs the operator token in the X-Operator-Token header beside the API key (403 FORBIDDEN_FEATURE without it)',
    }),
  })
  .refine(
    (b) => b.price_min === undefined || b.price_max === undefined || b.price_min <= b.price_max,
    { message: 'price_min must not exceed price_max', path: ['price_min'] },
  )
  .meta({ id: 'SearchProductsRequest' });

/** The operator token beside the API key, for `explain` (lib/auth/operator.ts). */
export const searchHeaders = z.object({
  'X-Operator-Token': z
    .string()
    .optional()
    .meta({ description: 'The operator token (OPERATOR_TOKEN); required only with explain: true' }),
});

/** The request as a caller writes it (defaults may be left out). */
export type SearchProductsRequest = z.input<typeof searchProductsRequest>;
/** The request as the service receives it: validated, defaults filled in. */
export type ParsedSearchProductsRequest = z.output<typeof searchProductsRequest>;

/** Shopify's variant ids are integers and stay numbers; another platform's opaque ids stay text. */
const platformVariantId = z.union([z.number().int(), z.string()]).meta({
  description:
    'Platform variant id: a number where the platform’s id is an integer (Shopify), else the id as the platform gives it',
});

export const searchVariant = z
  .object({
    id: platformVariantId,
    title: z.string(),
    option1: z.string().nullable(),
    option2: z.string().nullable(),
    option3: z.string().nullable(),
    price: z.string().meta({ description: 'Decimal string', example: '19.99' }),
    available: z.boolean(),
    checkout_url: z.string(),
    checkout_url_with_shipping: z.string().optional(),
  })
  .meta({ id: 'SearchVariant' });

const nullableSignal = (description: string) => z.number().nullable().meta({ description });

/**
 * Each part of one result's score (explain), after Meilisearch's showRankingScoreDetails: the
 * signals retrieval computed, the formula's similarity that similarity_threshold reads, and the
 * learned ranker's features with each one's contribution to its margin.
 */
export const scoreDetails = z
  .object({
    score: z.number().meta({
      description:
        'What the order follows: the ranker text score blended with image and style as the formula blends them',
    }),
    similarity: z
      .number()
      .meta({ description: "The formula's similarity, compared with similarity_threshold" }),
    coverage: z.number().meta({ description: "Share of the query's IDF mass the product holds" }),
    bm25: z.number().meta({ description: "BM25 over the query's IDF mass" }),
    lexical: z
      .number()
      .meta({ description: "The formula's lexical similarity (coverage and BM25)" }),
    vector: nullableSignal('Cosine of query and product text embeddings; null without a vector'),
    image: nullableSignal('Image similarity (0..1); null without a query image or product image'),
    style: nullableSignal("Cosine of the profile's style and the product; null without a style"),
    text: z.number().meta({ description: "The formula's text similarity (lexical and vector)" }),
    ranker: z
      .object({
        score: z.number().meta({ description: 'sigmoid(bias + sum of contributions)' }),
        bias: z.number().meta({
          description:
            "The margin before any feature's share: a linear model's bias, or a tree ensemble's base plus its roots' values",
        }),
        features: z.record(z.string(), z.number()),
        contributions: z.record(z.string(), z.number()).meta({
          description:
            "Each feature's share of the margin: weight * value, plus for a tree ensemble the change of node value at every split on that feature along the candidate's paths",
        }),
      })
      .nullable()
      .meta({ description: 'The learned ranker (docs/search.md); null when it did not rank' }),
  })
  .meta({ id: 'ScoreDetails' });

export type ScoreDetails = z.infer<typeof scoreDetails>;

export const searchProduct = z
  .object({
    id: z.string(),
    title: z.string(),
    handle: z.string(),
    description: z.string(),
    product_type: z.string(),
    images: z.array(z.string()),
    options: z.array(z.object({ name: z.string(), values: z.array(z.string()) })),
    variants: z.array(searchVariant),
    store_id: z.string(),
    store_name: z.string(),
    store_domain: z.string(),
    currency: z.string().nullable().meta({
      description:
        "Extension: ISO 4217 code of the prices, the store's currency as its platform states it; null until the store is verified",
      example: 'USD',
    }),
    score_details: scoreDetails.optional().meta({
      description: 'Extension: only with explain: true and the operator token',
    }),
  })
  .meta({ id: 'SearchProduct' });

export type SearchProduct = z.infer<typeof searchProduct>;

export const searchProductsResponse = z
  .object({
    results: z.array(searchProduct),
    product_ids: z.array(z.string()),
    code: z.enum(['SEARCH_SUCCESS', 'NO_RESULTS_FOUND']),
  })
  .meta({ id: 'SearchProductsResponse' });

/** Legacy price bounds: whole currency units, at least 1; numeric strings are read as numbers. */
const legacyPrice = z
  .union([z.number(), z.string().trim().regex(/^\d+$/, 'must be an integer')])
  .transform((v) => Number(v))
  .pipe(z.number().int('must be an integer').min(1, 'must be at least 1'));

export const legacySearchRequest = z
  .object({
    q: z.string().trim().min(1, 'must not be empty').max(QUERY_TEXT_MAX),
    store_id: idInput,
    user_id: idInput,
    price_min: legacyPrice.optional(),
    price_max: legacyPrice.optional(),
  })
  .refine(
    (b) => b.price_min === undefined || b.price_max === undefined || b.price_min <= b.price_max,
    { message: 'price_min must not exceed price_max', path: ['price_min'] },
  )
  .meta({ id: 'LegacySearchRequest' });

export type LegacySearchRequest = z.output<typeof legacySearchRequest>;

export const legacyProduct = z
  .object({
    id: z.string(),
    title: z.string(),
    description: z.string().nullable(),
    product_type: z.string(),
    tags: z.string().meta({ description: 'Comma-separated tags' }),
    options: z.array(
      z.object({
        id: z.number().int(),
        product_id: z.number().int(),
        name: z.string(),
        position: z.number().int(),
        values: z.array(z.string()),
      }),
    ),
    images: z.array(
      z.object({
        id: z.number().int(),
        alt: z.string(),
        position: z.number().int(),
        product_id: z.number().int(),
        created_at: z.string(),
        updated_at: z.string(),
        admin_graphql_api_id: z.string(),
        width: z.number().int(),
        height: z.number().int(),
        src: z.string(),
        variant_ids: z.array(z.number().int()),
      }),
    ),
    variants: z.array(z.object({ id: platformVariantId, title: z.string(), price: z.string() })),
  })
  .meta({ id: 'LegacyProduct' });

export type LegacyProduct = z.infer<typeof legacyProduct>;

export const legacySearchResponse = z
  .object({
    results: z.array(legacyProduct),
    code: z.enum(['SEARCH_SUCCESS', 'NO_RESULTS_FOUND']),
  })
  .meta({ id: 'LegacySearchResponse' });
