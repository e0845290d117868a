// @no-test-database
import { afterAll, describe, expect, it } from 'vitest';
import { loadTextModel } from '../models';
import { PooledTextProvider } from '../pool';
import { cosine } from '../provider';

const TITLES = [
  'Cordless drill with two batteries',
  'Stainless steel kitchen sink, 33 in.',
  '3/4 in. copper pipe fitting',
  'Outdoor string lights, warm white',
  '',
  'Queen size memory foam mattress',
];

/** Enough text that one in-thread call keeps the model busy for a while. */
const LARGE = Array.from(
  { length: 160 },
  (_, i) => `${TITLES[i % TITLES.length]} model ${i}${' extra'.repeat(i % 7)}`,
);

const pool = new PooledTextProvider('use-lite', 2);

afterAll(() => pool.close());

describe('text embeddings in worker threads', () => {
  it('gives the in-thread model’s vectors, in order, whatever the batch', async () => {
    const local = loadTextModel('use-lite');
    const expected = await local.embedTexts(LARGE.slice(0, 70));
    const pooled = await pool.embedTexts(LARGE.slice(0, 70));
    expect(pool.modelId).toBe(local.modelId);
    expect(pooled).toHaveLength(70);
    expect(pooled).toEqual(expected);
    // Both sides batch by length, so each slot is checked against its text embedded alone.
    // Padding to a batch's longest text moves the last digits only; another text moves more.
    for (const k of [0, 6, 13, 69]) {
      const [alone] = await local.embedTexts([LARGE[k]!]);
      expect(cosine(pooled[k]!, alone!)).toBeGreaterThan(0.999999);
      expect(cosine(pooled[k]!, pooled[(k + 1) % 70]!)).toBeLessThan(0.9999);
    }
    expect(await pool.embedTexts(TITLES)).toEqual(await local.embedTexts(TITLES));
    expect(await pool.embedTexts([])).toEqual([]);
  });

  it('keeps the event loop free while a large batch embeds', async () => {
    await pool.embedTexts(TITLES); // models loaded: the measure is the embedding, not the load
    const ticks: number[] = [];
    const timer = setInterval(() => ticks.push(performance.now()), 5);
    const started = performance.now();
    await pool.embedTexts(LARGE);
    const elapsed = performance.now() - started;
    clearInterval(timer);
    const gaps = ticks.slice(1).map((t, i) => t - ticks[i]!);
    // In this thread the model holds the loop for most of the batch; in workers the timer keeps
    // firing throughout, so the longest pause is a small share of the whole.
    expect(ticks.length).toBeGreaterThan(10);
    expect(Math.max(...gaps)).toBeLessThan(elapsed / 4);
  });

  it('keeps one worker, model loaded, past the idle timeout in a server, and none otherwise', async () => {
    const server = new PooledTextProvider('use-lite', 2, {
      keepOneLoaded: true,
      idleTimeoutMs: 100,
    });
    const cli = new PooledTextProvider('use-lite', 2, { idleTimeoutMs: 100 });
    try {
      await server.load();
      // Read as the CLI's work ends: when the server's ends later (a loaded machine), the CLI's
      // idle timeout may already have let its workers go.
      const [, cliThreadsAtEnd] = await Promise.all([
        server.embedTexts(LARGE),
        cli.embedTexts(LARGE).then(() => cli.runningThreads),
      ]);
      expect(cliThreadsAtEnd).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(server.runningThreads).toBe(1);
      expect(cli.runningThreads).toBe(0);
    } finally {
      await Promise.all([server.close(), cli.close()]);
    }
  });
});
