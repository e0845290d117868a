/**
 * A synthetic catalogue K times the size of a real one (`npm run bench -- --scale K`). Copy 0 of
 * each product is the product itself; copy k is a product of its own, with ids no other product
 * has and its title varied by a size, a pack count, a colour or a model number taken from the
 * titles of the catalogue itself, so that the vocabulary, postings and document frequencies grow
 * as a larger catalogue's do. Its text vector is the original's plus small seeded noise, so the
 * vector index holds K times as many distinct vectors without K times the model's time.
 */

import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

type Json = Record<string, unknown>;

/** What a title may be varied by, each list most frequent first. */
export interface Vocabulary {
  sizes: string[];
  packs: string[];
  colours: string[];
  models: string[];
}

type VariationKind = keyof Vocabulary;

const KINDS: VariationKind[] = ['sizes', 'packs', 'colours', 'models'];

/** Each kind's pattern in a title; its first group is the entry. */
const PATTERNS: Record<VariationKind, RegExp> = {
  sizes:
    /(?:^|\s)(\d+(?:[./]\d+)?(?:-\d+\/\d+)?\s?-?(?:in|ft|gal|oz|lb|qt|mm|cm|Watt|Amp|sq)\.?)(?=[\s,)]|$)/g,
  packs: /\((\d+-Pack)\)/g,
  colours: / in ([A-Z][a-z]+(?: [A-Z][a-z]+)?)(?= \(|$)/g,
  models: /(?:^|\s)#?([A-Z]{1,4}-?\d{2,}[A-Z0-9-]*)(?=[\s,)]|$)/g,
};

/** How each kind is added to a title. */
const SUFFIX: Record<VariationKind, (entry: string) => string> = {
  sizes: (e) => `, ${e}`,
  packs: (e) => ` (${e})`,
  colours: (e) => ` in ${e}`,
  models: (e) => ` ${e}`,
};

/** An entry seen once may be a typo; the lists keep the catalogue's recurring words. */
const MIN_OCCURRENCES = 2;
const MAX_ENTRIES = 300;

/** The sizes, pack counts, colours and model numbers that recur in the titles. */
export function vocabularyOf(titles: readonly string[]): Vocabulary {
  const counts = Object.fromEntries(KINDS.map((k) => [k, new Map<string, number>()])) as Record<
    VariationKind,
    Map<string, number>
  >;
  for (const title of titles) {
    for (const kind of KINDS) {
      for (const match of title.matchAll(PATTERNS[kind])) {
        const entry = match[1]!;
        counts[kind].set(entry, (counts[kind].get(entry) ?? 0) + 1);
      }
    }
  }
  const ranked = (m: Map<string, number>) =>
    [...m]
      .filter(([, n]) => n >= MIN_OCCURRENCES)
      .sort(([a, n], [b, o]) => o - n || (a < b ? -1 : a > b ? 1 : 0))
      .slice(0, MAX_ENTRIES)
      .map(([entry]) => entry);
  return {
    sizes: ranked(counts.sizes),
    packs: ranked(counts.packs),
    colours: ranked(counts.colours),
    models: ranked(counts.models),
  };
}

/** FNV-1a over the text: a stable 32-bit seed, the same on every machine and run. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * Copy k's title. The kinds the vocabulary holds take turns from a place the product's id
 * chooses, and each turn takes the next entry of its kind, so the copies of one product never
 * share a title while every kind has more entries than the copies need.
 */
export function variedTitle(
  title: string,
  productId: string,
  copy: number,
  vocabulary: Vocabulary,
): string {
  if (copy === 0) return title;
  const kinds = KINDS.filter((k) => vocabulary[k].length > 0);
  if (kinds.length === 0) throw new Error('the catalogue has no sizes, packs, colours or models');
  const seed = hash32(productId);
  const turn = copy - 1;
  const kind = kinds[(seed + turn) % kinds.length]!;
  const entries = vocabulary[kind];
  const entry =
    entries[(hash32(`${productId}:${kind}`) + Math.floor(turn / kinds.length)) % entries.length]!;
  return `${title}${SUFFIX[kind](entry)}`;
}

/** The power of ten above every id: copy k's ids are the original's plus k times it. */
function idStride(ids: number[]): number {
  return 10 ** String(ids.reduce((max, id) => Math.max(max, id), 0)).length;
}

function numericId(value: unknown, what: string): number {
  const id = Number(value);
  if (!Number.isSafeInteger(id) || id < 0) throw new Error(`--scale needs numeric ${what} ids`);
  return id;
}

const titleOf = (record: Json) => (typeof record.title === 'string' ? record.title : '');

function variantsOf(record: Json): Json[] {
  return Array.isArray(record.variants) ? (record.variants as Json[]) : [];
}

/** The original catalogue K times over, made one product at a time on demand. */
export interface ScaledCatalogue {
  /** Products in all: K times the originals. */
  size: number;
  scale: number;
  /** Products [start, end): the originals in order, then copy 1 of each, and so on. */
  slice(start: number, end: number): Json[];
  /** Product i as copy k of original `records[original]`. */
  origin(i: number): { original: number; copy: number };
}

export function scaledCatalogue(records: readonly unknown[], scale: number): ScaledCatalogue {
  if (!Number.isInteger(scale) || scale < 1) throw new Error('--scale must be an integer >= 1');
  const originals = records as readonly Json[];
  const stride = scale > 1 ? idStride(originals.map((r) => numericId(r.id, 'product'))) : 0;
  const variantStride =
    scale > 1
      ? idStride(originals.flatMap((r) => variantsOf(r).map((v) => numericId(v.id, 'variant'))))
      : 0;
  const vocabulary = scale > 1 ? vocabularyOf(originals.map(titleOf)) : undefined;
  const origin = (i: number) => ({
    original: i % originals.length,
    copy: Math.floor(i / originals.length),
  });
  const product = (i: number): Json => {
    const { original, copy } = origin(i);
    const record = originals[original]!;
    if (copy === 0) return record;
    const id = Number(record.id) + copy * stride;
    return {
      ...record,
      id,
      title: variedTitle(titleOf(record), String(record.id), copy, vocabulary!),
      handle: `${String(record.handle ?? record.id)}-${copy}`,
      variants: variantsOf(record).map((v) => ({
        ...v,
        id: Number(v.id) + copy * variantStride,
        product_id: id,
      })),
    };
  };
  const size = originals.length * scale;
  return {
    size,
    scale,
    origin,
    slice: (start, end) =>
      Array.from({ length: Math.max(0, Math.min(end, size) - start) }, (_, n) =>
        product(start + n),
      ),
  };
}

/** How far a copy's vector is moved: the noise's length against the unit vector's. */
export const NOISE_NORM = 0.25;

/**
 * Copy k's text vector: the original's plus Gaussian noise seeded by the product's id and k, of
 * length about NOISE_NORM, then brought back to unit length (cosine to the original about 0.97).
 */
export function noisyVector(
  original: readonly number[],
  productId: string,
  copy: number,
): number[] {
  if (copy === 0) return [...original];
  const generator = xoroshiro128plus(hash32(`${productId}:${copy}:vector`));
  const random = () => uniformFloat64(generator);
  const sd = NOISE_NORM / Math.sqrt(original.length);
  const moved = original.map((x) => {
    // Box-Muller: two uniform numbers give one standard normal one.
    const u = 1 - random();
    const v = random();
    return x + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  });
  const length = Math.hypot(...moved);
  return moved.map((x) => x / length);
}
