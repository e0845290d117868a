import type { SearchProductsRequest } from '@/lib/api-client';
import {
  DEFAULT_QUERY_WEIGHT_WITH_STYLE,
  DEFAULT_SIMILARITY_THRESHOLD,
  DEFAULT_STYLE_WEIGHT,
} from '@/lib/contract/search';

/** The search as it travels in the URL, so a search can be shared and reloaded. */
export interface SearchParams {
  q: string;
  image?: string;
  qw?: number;
  sw?: number;
  th?: number;
  n: number;
  min?: number;
  max?: number;
  store?: string;
}

/** A screenful of cards; the API's own default (2) suits agents more than people. */
export const DASHBOARD_RESULT_COUNT = 12;
/** Contract defaults, shown on the sliders until the shopper moves one. */
export const DEFAULTS = {
  queryWeightWithStyle: DEFAULT_QUERY_WEIGHT_WITH_STYLE,
  styleWeight: DEFAULT_STYLE_WEIGHT,
  threshold: DEFAULT_SIMILARITY_THRESHOLD,
};

type Raw = Record<string, string | string[] | undefined>;

function one(raw: Raw, name: string): string | undefined {
  const v = raw[name];
  const s = (Array.isArray(v) ? v[0] : v)?.trim();
  return s ? s : undefined;
}

function num(raw: Raw, name: string): number | undefined {
  const s = one(raw, name);
  if (s === undefined) return undefined;
  const n = Number(s);
  return Number.isFinite(n) ? n : undefined;
}

export function parseSearchParams(raw: Raw): SearchParams {
  return {
    q: one(raw, 'q') ?? '',
    image: one(raw, 'image'),
    qw: num(raw, 'qw'),
    sw: num(raw, 'sw'),
    th: num(raw, 'th'),
    n: num(raw, 'n') ?? DASHBOARD_RESULT_COUNT,
    min: num(raw, 'min'),
    max: num(raw, 'max'),
    store: one(raw, 'store'),
  };
}

export function toQueryString(p: SearchParams): string {
  const qs = new URLSearchParams();
  const entries: Array<[string, string | number | undefined]> = [
    ['q', p.q],
    ['image', p.image],
    ['qw', p.qw],
    ['sw', p.sw],
    ['th', p.th],
    ['n', p.n === DASHBOARD_RESULT_COUNT ? undefined : p.n],
    ['min', p.min],
    ['max', p.max],
    ['store', p.store],
  ];
  for (const [k, v] of entries) if (v !== undefined && v !== '') qs.set(k, String(v));
  return qs.toString();
}

/** Only what the shopper set is sent: the API applies the contract's defaults to the rest. */
export function toSearchRequest(
  p: SearchParams,
  profileId: string | undefined,
): SearchProductsRequest {
  return {
    query: { text: p.q, ...(p.image ? { image_url: p.image } : {}) },
    max_result_count: p.n,
    ...(profileId ? { profile_id: profileId } : {}),
    ...(p.qw !== undefined ? { query_weight: p.qw } : {}),
    ...(p.sw !== undefined && profileId ? { style_weight: p.sw } : {}),
    ...(p.th !== undefined ? { similarity_threshold: p.th } : {}),
    ...(p.min !== undefined ? { price_min: p.min } : {}),
    ...(p.max !== undefined ? { price_max: p.max } : {}),
    ...(p.store ? { store_domain: p.store } : {}),
  };
}
