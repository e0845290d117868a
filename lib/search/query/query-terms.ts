import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/client';
import { queryPrepared } from '../../db/prepared';
import { FOOT_MARK, queryTerms, stem } from './analyzer';
import { idf } from '../rank/bm25';
import { textArray } from '../../sql/arrays';
import { packedArrays, packedRows } from '../../sql/packed-rows';

/** A corrected term counts a little less than one the shopper typed right. */
const CORRECTION_WEIGHT = 0.8;

export interface QueryTerm {
  term: string;
  /** IDF times 1, or times less for a typo correction: the term's share of a BM25 score. */
  weight: number;
  /** Where an all-stores search starts reading its postings (term-floors.ts); none: all of them. */
  floor?: number;
  /**
   * For a term with a floor, how many products hold it: few enough, and the postings cache holds
   * all of them (term-postings-cache.ts).
   */
  df?: number;
  /**
   * The term's version in search_terms when the query was read, which keys its cached postings
   * (term-postings-cache.ts); absent for a term that did not come from the index.
   */
  version?: number;
}

/** A query ready for lexical retrieval, with the global statistics it is scored by. */
export interface LexicalQuery {
  /** Terms the catalogue holds; a term no store holds only adds to idfTotal. */
  terms: QueryTerm[];
  /** Sum of the IDF of every query term (known or not): what full coverage means. */
  idfTotal: number;
  avgdl: number;
}

/** Optimal string alignment distance (Levenshtein plus adjacent transpositions), capped. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d = Math.min(d, prev2[j - 2]! + 1);
      }
      cur.push(d);
      rowMin = Math.min(rowMin, d);
    }
    if (rowMin > max) return max + 1;
    prev2 = prev;
    prev = cur;
  }
  return prev[b.length]!;
}

function allowedEdits(term: string): number {
  if (term.length < 4 || /\d/.test(term)) return 0;
  return term.length < 8 ? 1 : 2;
}

interface Statistics {
  docCount: number;
  totalLen: number;
  /** Each known term's df, floor and version as search_terms holds them. */
  held: Map<string, { df: number; floor: number | null; version: number }>;
}

/**
 * The terms as a list of parameters, padded by repeating the last to a power of two (at least 4).
 * Against `= ANY(array)`, a generic plan counts ten elements where a custom plan counts the
 * array's, so the server planned the statement anew on every search (0.3 to 0.4 ms on PGlite,
 * against 0.02 ms for the generic plan); a list is as long for both, and the few lengths keep
 * the prepared texts few.
 */
function termList(terms: string[]): SQL {
  const size = Math.max(4, 2 ** Math.ceil(Math.log2(Math.max(terms.length, 1))));
  const padded = Array.from({ length: size }, (_, i) => terms[Math.min(i, terms.length - 1)] ?? '');
  return sql.join(
    padded.map((term) => sql`${term}`),
    sql`, `,
  );
}

/** The statement behind readStatistics. */
export function statisticsQuery(terms: string[]): SQL {
  return sql`SELECT (SELECT doc_count FROM search_corpus_stats) AS doc_count,
               (SELECT total_len FROM search_corpus_stats) AS total_len,
               (SELECT ${packedRows(['term', 'df', 'floor', 'version'])}
                FROM search_terms WHERE term IN (${termList(terms)})) AS dfs`;
}

/** N and the total length over every store, and the df, floor and version of the terms. */
async function readStatistics(db: Db, terms: string[]): Promise<Statistics> {
  const [row] = await queryPrepared<{ doc_count: number; total_len: number; dfs: unknown }>(
    db,
    statisticsQuery(terms),
  );
  const dfs = packedArrays<[string, number, number | null, number]>(row?.dfs);
  return {
    docCount: Number(row?.doc_count ?? 0),
    totalLen: Number(row?.total_len ?? 0),
    held: new Map(dfs.map(([term, df, floor, version]) => [term, { df, floor, version }])),
  };
}

const isWord = (term: string) => /^[a-z]+$/.test(term);

function footMarkReadings(term: string): [string, string] {
  const number = term.slice(0, -FOOT_MARK.length);
  return [`${number}in`, `${number}ft`];
}

/**
 * Every term whose document frequency the rewrite may consult: the typed terms, both readings of
 * a foot mark and each adjacent pair of words joined.
 */
export function vocabularyLookups(typed: string[]): string[] {
  const lookups = new Set(typed);
  typed.forEach((term, i) => {
    if (term.endsWith(FOOT_MARK)) footMarkReadings(term).forEach((t) => lookups.add(t));
    const next = typed[i + 1];
    if (next !== undefined && isWord(term) && isWord(next)) lookups.add(term + next);
  });
  return [...lookups];
}

/**
 * The query's terms rewritten by what the catalogue holds (df, 0 when unknown):
 * - a number with a foot mark reads as inches or feet, whichever the catalogue holds more
 *   often (inches on a tie: the more common meaning in shoppers' queries);
 * - two adjacent words are joined when the catalogue knows the joined word and not one of the
 *   parts ("cordl ess" -> "cordless"; "dish washer" stays two words when both are known).
 * Words still unknown are left for spelling correction. Splitting an unknown glued word in two
 * known ones was measured too and lost on every metric (docs/relevance-log.md), so it is not done.
 */
export function rewriteTerms(typed: string[], df: (term: string) => number): string[] {
  const out: string[] = [];
  for (let i = 0; i < typed.length; i++) {
    const term = typed[i]!;
    if (term.endsWith(FOOT_MARK)) {
      const [inch, foot] = footMarkReadings(term);
      out.push(df(foot) > df(inch) ? foot : inch);
      continue;
    }
    const next = typed[i + 1];
    if (
      next !== undefined &&
      isWord(term) &&
      isWord(next) &&
      df(term + next) > 0 &&
      (df(term) === 0 || df(next) === 0)
    ) {
      out.push(term + next);
      i++;
      continue;
    }
    out.push(term);
  }
  return [...new Set(out)];
}

interface SpellingCandidate {
  term: string;
  df: number;
  floor: number | null;
  version: number | string;
}

/**
 * Where a mistyped word's letters may have gone wrong, tried in this order: after its first two
 * letters (the usual typo), in its first letter (substituted, added or dropped: "olastic"), then
 * in its second letter (substituted, added or dropped), or its first two swapped ("psint",
 * "riobi", "poerated"). The first place reads a range of the primary key (the word's first two
 * letters), the others the terms that share three letters with the word where the rest of it would
 * stand, through the indexes on a term's first, second and third three letters (migrations 0014
 * and 0020): a lookup reads a few terms however large the vocabulary.
 */
export type TypoPlace = 'later' | 'first' | 'second';
export const TYPO_PLACES: TypoPlace[] = ['later', 'first', 'second'];

/** The lookup of the vocabulary terms that could be `term` mistyped at `place`, within `edits`. */
export function spellingLookup(term: string, edits: number, place: TypoPlace): SQL {
  const lengths = sql`length(term) BETWEEN ${term.length - edits} AND ${term.length + edits}`;
  const where = {
    later: () => {
      const prefix = term.slice(0, 2);
      const after = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(1) + 1);
      return sql`term >= ${prefix} AND term < ${after}`;
    },
    first: () => sql`(substr(term, 2, 3) = ${term.slice(1, 4)}
               OR substr(term, 1, 3) = ${term.slice(1, 4)}
               OR substr(term, 2, 3) = ${term.slice(0, 3)})`,
    // Substituted or swapped (the rest from the third letter on), added, or dropped.
    second: () => sql`((substr(term, 3, 3) = ${term.slice(2, 5)}
                AND (substr(term, 1, 1) = ${term[0]!} OR substr(term, 1, 2) = ${term[1]! + term[0]!}))
               OR (substr(term, 2, 3) = ${term.slice(2, 5)} AND substr(term, 1, 1) = ${term[0]!})
               OR (substr(term, 3, 3) = ${term.slice(1, 4)} AND substr(term, 1, 1) = ${term[0]!}))`,
  }[place]();
  return sql`SELECT term, df, floor, version FROM search_terms WHERE ${where} AND ${lengths} ORDER BY term`;
}

/** The closest known term within `edits` (most frequent among equals), or undefined. */
async function correction(db: Db, term: string, edits: number) {
  for (const place of TYPO_PLACES) {
    let best: (SpellingCandidate & { distance: number }) | undefined;
    const candidates = await queryRows<SpellingCandidate>(db, spellingLookup(term, edits, place));
    for (const candidate of candidates) {
      const distance = editDistance(term, candidate.term, edits);
      if (distance > edits) continue;
      if (
        !best ||
        distance < best.distance ||
        (distance === best.distance && candidate.df > best.df)
      ) {
        best = { ...candidate, distance };
      }
    }
    if (best) return best;
  }
  return undefined;
}

/** The shortest part a glued word is split into. */
const SHORTEST_PART = 3;

/**
 * An unknown word that no typo explains, read as two known words glued ("doorknob",
 * "carpetshampoo"): of the ways to cut it, the one whose rarer part is the most frequent.
 */
async function gluedParts(db: Db, term: string): Promise<SpellingCandidate[]> {
  const cuts: Array<[string, string]> = [];
  for (let i = SHORTEST_PART; i <= term.length - SHORTEST_PART; i++) {
    cuts.push([stem(term.slice(0, i)), stem(term.slice(i))]);
  }
  if (cuts.length === 0) return [];
  const known = new Map(
    (
      await queryRows<SpellingCandidate>(
        db,
        sql`SELECT term, df, floor, version FROM search_terms WHERE term = ANY(${textArray(cuts.flat())})`,
      )
    ).map((r) => [r.term, r]),
  );
  let best: SpellingCandidate[] = [];
  let bestRarer = 0;
  for (const [a, b] of cuts) {
    const [left, right] = [known.get(a), known.get(b)];
    if (!left || !right) continue;
    const rarer = Math.min(left.df, right.df);
    if (rarer > bestRarer) [best, bestRarer] = [[left, right], rarer];
  }
  return best;
}

/** A query term as the index holds it: its floor and df, if it has a floor, and its version. */
function indexedTerm(
  term: string,
  weight: number,
  held: { df: number | string; floor?: number | null; version: number | string },
): QueryTerm {
  const version = Number(held.version);
  return held.floor === null || held.floor === undefined
    ? { term, weight, version }
    : { term, weight, floor: Number(held.floor), df: Number(held.df), version };
}

/**
 * The query's terms with their weights and the statistics of every store together, so that a
 * score means the same in any store. The typed terms are first rewritten by the catalogue's
 * vocabulary (rewriteTerms); a word no store holds then is replaced by the closest known term
 * (correction), 1 edit for short words, 2 for long ones, or, when none is that close, by the two
 * known words it glues (gluedParts), at CORRECTION_WEIGHT.
 */
export async function resolveQueryTerms(db: Db, text: string): Promise<LexicalQuery> {
  const typed = queryTerms(text);
  const stats = await readStatistics(db, vocabularyLookups(typed));
  const dfOf = (term: string) => stats.held.get(term)?.df ?? 0;
  const docCount = Math.max(stats.docCount, 1);
  const terms: QueryTerm[] = [];
  let idfTotal = 0;
  for (const term of rewriteTerms(typed, dfOf)) {
    const df = dfOf(term);
    const edits = allowedEdits(term);
    if (df > 0 || edits === 0) {
      idfTotal += idf(docCount, df);
      if (df > 0) terms.push(indexedTerm(term, idf(docCount, df), stats.held.get(term)!));
      continue;
    }
    const best = await correction(db, term, edits);
    const found = best ? [best] : await gluedParts(db, term);
    if (found.length === 0) idfTotal += idf(docCount, 0);
    for (const part of found) {
      // A word the query holds already, as typed or found ("carpet carpetshampoo"), counts once.
      if (terms.some((t) => t.term === part.term)) continue;
      idfTotal += idf(docCount, part.df);
      const weight = CORRECTION_WEIGHT * idf(docCount, part.df);
      terms.push(indexedTerm(part.term, weight, part));
    }
  }
  return { terms, idfTotal, avgdl: Math.max(stats.totalLen / docCount, 1e-9) };
}
