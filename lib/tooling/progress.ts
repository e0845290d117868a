/**
 * A progress line to stderr at most every 10 s, with rate and time left; the first after 10 s,
 * so that work done sooner prints none.
 */
export function progressLine(label: string) {
  const started = performance.now();
  let lastPrint = started;
  return (done: number, total: number) => {
    const now = performance.now();
    if (now - lastPrint < 10_000) return;
    lastPrint = now;
    const rate = done / Math.max((now - started) / 1000, 1e-3);
    const eta = rate > 0 ? (total - done) / rate : 0;
    process.stderr.write(
      `${label}: ${done}/${total} (${rate.toFixed(1)}/s, ETA ${Math.round(eta)} s)\n`,
    );
  };
}
