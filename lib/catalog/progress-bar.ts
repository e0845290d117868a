import cliProgress from 'cli-progress';
import type { SyncProgress } from '../stores/registry';
import type { ProgressListener } from './ingest';

export interface CatalogueBar {
  listener: ProgressListener;
  /** Stops the bar and returns products indexed per second while it ran. */
  stop(): number;
}

/**
 * A terminal progress bar on stderr for a sync or import (stdout stays clean for --json). The
 * total grows as pages arrive; a product counts as done once it is indexed, found unchanged
 * or skipped as bad.
 */
export function catalogueBar(label: string): CatalogueBar {
  const bar = new cliProgress.SingleBar(
    {
      format: `${label} [{bar}] {value}/{total} | +{added} ~{changed} ={unchanged} -{removed} !{failed} | {rate} products/s`,
      hideCursor: true,
      stream: process.stderr,
    },
    cliProgress.Presets.shades_classic,
  );
  const started = performance.now();
  let last: SyncProgress | undefined;
  const rate = () => {
    const seconds = (performance.now() - started) / 1000;
    return seconds > 0 && last ? last.embedded / seconds : 0;
  };
  bar.start(0, 0, { added: 0, changed: 0, unchanged: 0, removed: 0, failed: 0, rate: '0.0' });
  return {
    listener(p) {
      last = { ...p };
      const done = p.unchanged + p.failed + p.embedded;
      bar.setTotal(Math.max(p.seen, done));
      bar.update(done, { ...p, rate: rate().toFixed(1) });
    },
    stop() {
      bar.stop();
      return rate();
    },
  };
}

/** A bar for `reindex`: products indexed out of all products. */
export function indexBar(label: string): {
  onProgress: (done: number, total: number) => void;
  stop(): void;
} {
  const bar = new cliProgress.SingleBar(
    {
      format: `${label} [{bar}] {value}/{total} | {eta_formatted} left`,
      hideCursor: true,
      stream: process.stderr,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(0, 0);
  return {
    onProgress(done, total) {
      bar.setTotal(total);
      bar.update(done);
    },
    stop: () => bar.stop(),
  };
}
