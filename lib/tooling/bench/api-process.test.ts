// @no-test-database
import fs from 'node:fs';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { startApiProcess, type ApiProcess } from './api-process';

/** The process ids whose parent is `pid` (Linux /proc). */
function childrenOf(pid: number): number[] {
  return fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .flatMap((d) => {
      try {
        const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid ? [+d] : [];
      } catch {
        return [];
      }
    });
}

/** Whether the process still runs: an exited one can stay a zombie until its new parent reaps it. */
function running(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

let api: ApiProcess | undefined;
afterAll(async () => {
  await api?.stop();
});

describe("the bench's API replicas", () => {
  it('serves one port from several processes and sums their peak memory on stop', async () => {
    // An in-memory database per replica: this checks the processes, not what they share.
    const alone = await startApiProcess({ url: 'memory://' });
    const aloneMb = await alone.stop();
    api = await startApiProcess({ url: 'memory://' }, 2);
    // The primary is the child of this process that has two children of its own.
    const primary = childrenOf(process.pid).find((pid) => childrenOf(pid).length === 2);
    expect(primary).toBeDefined();
    const processes = [primary!, ...childrenOf(primary!)];
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        fetch(`${api!.url}/api/health`, { headers: { connection: 'close' } }),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(6).fill(200));
    const rssMb = await api.stop();
    api = undefined;
    expect(rssMb).toBeGreaterThan(1.5 * aloneMb);
    await vi.waitFor(() => expect(processes.filter(running)).toEqual([]), { timeout: 10_000 });
  }, 120_000);
});
