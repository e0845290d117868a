import fs from 'node:fs';
import path from 'node:path';

/** What a process holding an embedded data directory tells others about itself. */
export interface LockInfo {
  pid: number;
  /** Loopback port of the PGlite wire server the holder shares, when it shares one. */
  socketPort?: number;
  /**
   * Image URL prefixes the holder trusts (its in-process demo simulator's images): a CLI that
   * joins it may fetch them too, to re-embed the demo's images.
   */
  imagePrefixes?: string[];
  startedAt: string;
}

type LockHandle = ReturnType<typeof acquireLock>;

/** The lock this process holds, if any (on globalThis: Next.js bundles modules apart). */
const slot = globalThis as unknown as { __heldLock?: LockHandle };

/** Tells other processes more about the holder, when this process holds a data directory. */
export function updateHeldLock(patch: Partial<LockInfo>): void {
  slot.__heldLock?.update(patch);
}

export class DataDirLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly holder: LockInfo,
  ) {
    super(
      `The data directory ${dir} is in use by process ${holder.pid} (since ${holder.startedAt}). ` +
        'PGlite is single-process: stop that process, use another DATA_DIR, or set DATABASE_URL.',
    );
    this.name = 'DataDirLockedError';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function lockPath(dir: string): string {
  return path.join(dir, 'server.lock');
}

export function readLock(dir: string): LockInfo | undefined {
  try {
    const info = JSON.parse(fs.readFileSync(lockPath(dir), 'utf8')) as LockInfo;
    return isAlive(info.pid) ? info : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes the data directory for this process. The lock file is created exclusively, so two
 * processes racing for it cannot both win; a lock left by a dead process is taken over.
 */
export function acquireLock(dir: string): {
  update(info: Partial<LockInfo>): void;
  release(): void;
} {
  fs.mkdirSync(dir, { recursive: true });
  const file = lockPath(dir);
  const info: LockInfo = { pid: process.pid, startedAt: new Date().toISOString() };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, JSON.stringify(info), { flag: 'wx' });
      const write = () => fs.writeFileSync(file, JSON.stringify(info));
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        try {
          const current = JSON.parse(fs.readFileSync(file, 'utf8')) as LockInfo;
          if (current.pid === process.pid) fs.unlinkSync(file);
        } catch {
          // Already gone: nothing to release.
        }
      };
      process.once('exit', release);
      const handle = {
        update(patch: Partial<LockInfo>) {
          Object.assign(info, patch);
          write();
        },
        release() {
          release();
          if (slot.__heldLock === handle) slot.__heldLock = undefined;
        },
      };
      slot.__heldLock = handle;
      return handle;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = readLock(dir);
      if (holder) throw new DataDirLockedError(dir, holder);
      fs.rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not lock the data directory ${dir}`);
}
