/**
 * Texts per model call (a worker task, or one call of the in-thread model). A batch is padded
 * to its longest text, so small ones waste less: USE lite on Home Depot product inputs, one
 * thread, unsorted, measured in one run on the loaded 2-core machine: 53 texts/s in batches of
 * 4, 44-50 of 8, 38 of 16 and 32, 34-38 of 64, 31 of 128. Sorted by length (embedInLengthOrder),
 * 1,024 titles: 58 texts per CPU-second in batches of 4, 64 of 8, 62 of 16, 54 of 32, 58 of 64.
 */
export const EMBED_TASK_SIZE = 8;

/**
 * Embeds `texts` in batches of `size` taken in order of length, so each batch pads its texts
 * to a length close to theirs (Home Depot titles in pages of 256: 10 to 20 %
 * fewer CPU-seconds than batches in arrival order). Vectors come back in the order given.
 */
export async function embedInLengthOrder(
  texts: string[],
  size: number,
  embedBatch: (batch: string[]) => Promise<number[][]>,
): Promise<number[][]> {
  const order = texts.map((_, i) => i).sort((a, b) => texts[a]!.length - texts[b]!.length);
  const batches: number[][] = [];
  for (let i = 0; i < order.length; i += size) batches.push(order.slice(i, i + size));
  const vectors = await Promise.all(batches.map((b) => embedBatch(b.map((i) => texts[i]!))));
  const out = new Array<number[]>(texts.length);
  batches.forEach((batch, k) =>
    batch.forEach((i, j) => {
      out[i] = vectors[k]![j]!;
    }),
  );
  return out;
}
