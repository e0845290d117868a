import cliProgress from 'cli-progress';
import type { ProgressListener } from '../catalog/ingest';

interface Bar {
  update(value: number, total: number, payload?: object): void;
  stop(): void;
}

/**
 * A terminal bar on stderr (stdout stays clean for --json), started at the first report: a
 * bar with nothing to count yet would draw as full.
 */
function lazyBar(format: string): Bar {
  const bar = new cliProgress.SingleBar(
    { format, hideCursor: true, stream: process.stderr },
    cliProgress.Presets.shades_classic,
  );
  let running = false;
  return {
    update(value, total, payload = {}) {
      if (!running) {
        running = true;
        bar.start(total, value, payload);
        return;
      }
      bar.setTotal(total);
      bar.update(value, payload);
    },
    stop() {
      if (running) bar.stop();
    },
  };
}

/**
 * The bar of a sync or import. Its total grows as pages arrive; a product counts as done once
 * it is indexed, found unchanged or skipped as bad. The rate is products indexed per second.
 */
export function catalogueBar(label: string): { listener: ProgressListener; stop(): void } {
  const bar = lazyBar(
    `${label} [{bar}] {value}/{total} | +{added} ~{changed} ={unchanged} -{removed} !{failed} | {rate} products/s`,
  );
  const started = performance.now();
  return {
    listener(p) {
      const seconds = (performance.now() - started) / 1000;
      const done = p.unchanged + p.failed + p.embedded;
      bar.update(done, Math.max(p.seen, done), {
        ...p,
        rate: (seconds > 0 ? p.embedded / seconds : 0).toFixed(1),
      });
    },
    stop: () => bar.stop(),
  };
}

/** A bar of things done out of a total: `reindex`'s products, `sync-all`'s stores. */
export function indexBar(label: string): {
  onProgress: (done: number, total: number) => void;
  stop(): void;
} {
  const bar = lazyBar(`${label} [{bar}] {value}/{total} | {eta_formatted} left`);
  return { onProgress: (done, total) => bar.update(done, total), stop: () => bar.stop() };
}
