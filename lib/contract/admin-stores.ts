import { z } from 'zod';
import { isoTimestamp } from './common';

/** Operator API shapes (`/api/admin/stores...`): store registration, sync and access policy. */

const syncProgress = z
  .object({
    pages: z.number().int(),
    seen: z.number().int(),
    added: z.number().int(),
    changed: z.number().int(),
    unchanged: z.number().int(),
    removed: z.number().int(),
    failed: z.number().int(),
    embedded: z.number().int(),
  })
  .meta({ id: 'SyncProgress' });

const imageQueue = z
  .object({
    pending: z.number().int().meta({
      description:
        'Products whose image waits to be embedded in the background (new, changed, or failed before); their text is searchable already',
    }),
    retrying: z.number().int().meta({
      description: 'Of those, the ones whose last fetch failed: tried again after a growing wait',
    }),
    unreachable_hosts: z.array(z.string()).meta({
      description:
        'host[:port] of pending images that could not be reached at the last try (no address, no connection, no answer in time)',
    }),
  })
  .meta({ id: 'StoreImageQueue' });

export const storeSummary = z
  .object({
    id: z.string(),
    domain: z.string().meta({ description: 'Lower-case host name; checkout links use it' }),
    name: z.string(),
    platform: z.literal('shopify'),
    base_url: z
      .string()
      .nullable()
      .meta({ description: 'Where products.json is fetched; null means https://{domain}' }),
    access_policy: z.enum(['open', 'allow']),
    allowed_developer_ids: z.array(z.string()),
    verified: z.boolean(),
    verification_reason: z.string().nullable(),
    verified_at: isoTimestamp.nullable(),
    has_admin_token: z.boolean(),
    product_count: z.number().int(),
    sync: z.object({
      state: z.enum(['never', 'running', 'succeeded', 'failed', 'interrupted']),
      started_at: isoTimestamp.nullable(),
      finished_at: isoTimestamp.nullable(),
      progress: syncProgress.nullable(),
      last_error: z.string().nullable(),
    }),
    images: imageQueue,
    created_at: isoTimestamp,
  })
  .meta({ id: 'StoreSummary' });

/** What the operator API and CLI show of a store. Never the Admin token itself. */
export type StoreSummary = z.output<typeof storeSummary>;
export type SyncProgress = z.output<typeof syncProgress>;
export type AccessPolicy = StoreSummary['access_policy'];
export type ImageQueueStatus = z.output<typeof imageQueue>;

export const addStoreRequest = z
  .object({
    domain: z.string().min(1).max(300),
    name: z.string().trim().min(1).max(200).optional(),
    base_url: z.string().max(2000).nullish(),
  })
  .meta({ id: 'AddStoreRequest' });

export const syncStoreRequest = z
  .object({
    base_url: z
      .string()
      .max(2000)
      .nullish()
      .meta({ description: 'Saved as the store base_url before syncing; null resets it' }),
  })
  .meta({ id: 'SyncStoreRequest' });

export const storePolicyRequest = z
  .object({
    policy: z.enum(['open', 'allow']),
    developer_ids: z
      .array(z.string().min(1).max(128))
      .max(1000)
      .optional()
      .meta({ description: 'With `allow`: the developers admitted (replaces the list)' }),
  })
  .meta({ id: 'StorePolicyRequest' });

export const storeListResponse = z
  .object({ code: z.literal('STORES_LISTED'), stores: z.array(storeSummary) })
  .meta({ id: 'StoreListResponse' });

export const storeResponse = <C extends string>(code: C) =>
  z.object({ code: z.literal(code), store: storeSummary });

export const syncErrorsResponse = z
  .object({
    code: z.literal('SYNC_ERRORS_LISTED'),
    errors: z.array(
      z.object({
        external_id: z.string().nullable(),
        message: z.string(),
        created_at: isoTimestamp,
      }),
    ),
  })
  .meta({ id: 'SyncErrorsResponse' });
