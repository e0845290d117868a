/**
 * Relevance metrics as ../shared/datasets/homedepot/README.md defines them: judgments run from
 * 1 (irrelevant) to 3 (highly relevant); unjudged products count as irrelevant.
 */

export const RELEVANT = 2.5;

export interface QueryScores {
  ndcg10: number | null;
  recall100: number | null;
  mrr: number | null;
}

/** NDCG@10 with gain = relevance - 1; null when no judged product has any gain. */
export function ndcgAt10(ranked: string[], judged: Map<string, number>): number | null {
  const gain = (id: string) => Math.max(0, (judged.get(id) ?? 1) - 1);
  const dcg = (gains: number[]) =>
    gains.slice(0, 10).reduce((sum, g, i) => sum + g / Math.log2(i + 2), 0);
  const ideal = dcg([...judged.values()].map((r) => Math.max(0, r - 1)).sort((a, b) => b - a));
  if (ideal === 0) return null;
  return dcg(ranked.map(gain)) / ideal;
}

/** Share of the products judged >= 2.5 found in the first 100; null when there are none. */
export function recallAt100(ranked: string[], judged: Map<string, number>): number | null {
  const relevant = [...judged].filter(([, r]) => r >= RELEVANT).map(([id]) => id);
  if (relevant.length === 0) return null;
  const top = new Set(ranked.slice(0, 100));
  return relevant.filter((id) => top.has(id)).length / relevant.length;
}

/** 1 / rank of the first product judged >= 2.5 (0 if none is retrieved); null when none exist. */
export function reciprocalRank(ranked: string[], judged: Map<string, number>): number | null {
  if (![...judged.values()].some((r) => r >= RELEVANT)) return null;
  const index = ranked.findIndex((id) => (judged.get(id) ?? 0) >= RELEVANT);
  return index < 0 ? 0 : 1 / (index + 1);
}

export function scoreQuery(ranked: string[], judged: Map<string, number>): QueryScores {
  return {
    ndcg10: ndcgAt10(ranked, judged),
    recall100: recallAt100(ranked, judged),
    mrr: reciprocalRank(ranked, judged),
  };
}

/** Means over the queries where each metric is defined. */
export function averageScores(all: QueryScores[]): {
  ndcg10: number;
  recall100: number;
  mrr: number;
} {
  const mean = (key: keyof QueryScores) => {
    const values = all.map((s) => s[key]).filter((v): v is number => v !== null);
    return values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0;
  };
  return { ndcg10: mean('ndcg10'), recall100: mean('recall100'), mrr: mean('mrr') };
}
