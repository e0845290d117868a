import type { Command } from 'commander';
import { indexBar } from '../progress-bar';
import { reindexImages } from '../../images/indexer';
import { getStoreSummary } from '../../stores/registry';
import { emit, withDatabase } from '../context';

/** How many failures the human output names; --json carries them all. */
const SHOWN_FAILURES = 5;

export function registerImageCommands(program: Command): void {
  const images = program.command('images').description('Product image vectors (image search)');
  images
    .command('reindex')
    .description(
      'Embed product images for the active IMAGE_EMBEDDING_MODEL: every product without a vector (failed fetches, new model), or all with --all; drops other image models',
    )
    .option('--store <storeId>', 'only this store')
    .option('--all', 'fetch and embed every image again, also those that have a vector')
    .option('--json', 'print JSON')
    .action(async (opts: { store?: string; all?: boolean; json?: boolean }) => {
      await withDatabase(async ({ db }) => {
        if (opts.store) await getStoreSummary(db, opts.store);
        const started = performance.now();
        const bar = indexBar('Images');
        let result: Awaited<ReturnType<typeof reindexImages>>;
        try {
          result = await reindexImages(db, {
            storeId: opts.store,
            all: opts.all,
            onProgress: bar.onProgress,
          });
        } finally {
          bar.stop();
        }
        const seconds = (performance.now() - started) / 1000;
        const failures = result.failed
          .slice(0, SHOWN_FAILURES)
          .map((f) => `  ${f.url}: ${f.error}`);
        emit(
          opts.json,
          { ...result, seconds: Number(seconds.toFixed(2)) },
          [
            `Images for ${result.modelId}: ${result.products} products, ${result.embedded} embedded, ` +
              `${result.unchanged} unchanged, ${result.withoutImage} without image, ` +
              `${result.failed.length} failed, in ${seconds.toFixed(1)} s`,
            ...failures,
            ...(result.failed.length > SHOWN_FAILURES
              ? [`  ... and ${result.failed.length - SHOWN_FAILURES} more (--json lists them)`]
              : []),
          ].join('\n'),
        );
      });
    });
}
