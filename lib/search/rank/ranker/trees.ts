import { z } from 'zod';

/**
 * A gradient-boosted ensemble of regression trees (LambdaMART, lib/tooling/eval/lambdamart.ts)
 * and its scorer. Every node carries a value (the leaf value it would have had as a leaf), so a
 * candidate's walk from root to leaf splits its margin into one share per feature: each split
 * adds (child value − node value) to the feature it tests, and the roots' values sum into the
 * bias (Saabas, "Interpreting random forests", 2014). bias + sum of the shares is the margin, exactly.
 */

/** A split: go left when feature `f` (an index into the model's `features`) is <= `t`. */
const splitNode = z.object({
  f: z.number().int().nonnegative(),
  t: z.number().finite(),
  l: z.number().int().positive(),
  r: z.number().int().positive(),
  v: z.number().finite(),
});
const leafNode = z.object({ v: z.number().finite() }).strict();

/** A tree is its nodes, the root first; a split names its children by their index. */
export const treeSchema = z
  .array(z.union([splitNode, leafNode]))
  .min(1)
  .refine(
    (nodes) =>
      nodes.every(
        (n, i) => !('f' in n) || (n.l > i && n.r > i && n.l < nodes.length && n.r < nodes.length),
      ),
    { message: 'a split names a child before itself or past the last node' },
  );

export type Tree = z.infer<typeof treeSchema>;

/**
 * The margin of a feature vector (values in the order of `features`, the model's own names) and,
 * when `explain`, each feature's share of it: `shares` then gets a share per feature index that
 * any split tested (ranking alone skips that bookkeeping).
 */
export function walkTrees(
  base: number,
  trees: Tree[],
  values: number[],
  explain = false,
): { margin: number; bias: number; shares: Map<number, number> } {
  let bias = base;
  let margin = base;
  const shares = new Map<number, number>();
  for (const tree of trees) {
    let node = tree[0]!;
    bias += node.v;
    while ('f' in node) {
      const child = tree[values[node.f]! <= node.t ? node.l : node.r]!;
      if (explain) shares.set(node.f, (shares.get(node.f) ?? 0) + child.v - node.v);
      node = child;
    }
    margin += node.v;
  }
  return { margin, bias, shares };
}
