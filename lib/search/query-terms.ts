import { queryTerms } from './analyzer';
import {
  documentFrequency,
  termsWithPrefix,
  type LexicalSnapshot,
  type QueryTerm,
} from './lexical-snapshot';

/** A corrected term counts a little less than one the shopper typed right. */
const CORRECTION_WEIGHT = 0.8;

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

/**
 * The query's terms with their weights. A word the store's vocabulary lacks is replaced by the
 * closest known term sharing its first two letters (1 edit for short words, 2 for long ones),
 * most frequent first.
 */
export function resolveQueryTerms(snapshot: LexicalSnapshot, text: string): QueryTerm[] {
  const out: QueryTerm[] = [];
  for (const term of queryTerms(text)) {
    const edits = allowedEdits(term);
    if (documentFrequency(snapshot, term) > 0 || edits === 0) {
      out.push({ term, weight: 1 });
      continue;
    }
    let best: { term: string; distance: number; df: number } | undefined;
    for (const candidate of termsWithPrefix(snapshot, term.slice(0, 2))) {
      const distance = editDistance(term, candidate, edits);
      if (distance > edits) continue;
      const df = documentFrequency(snapshot, candidate);
      if (!best || distance < best.distance || (distance === best.distance && df > best.df)) {
        best = { term: candidate, distance, df };
      }
    }
    out.push(best ? { term: best.term, weight: CORRECTION_WEIGHT } : { term, weight: 1 });
  }
  return out;
}
