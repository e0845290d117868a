import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

/**
 * A maker of temporary directories named `prefix-XXXXXX` for one test file, every one of them
 * removed after the file's tests, passed or failed.
 */
export function tempDirsForFile(prefix: string): () => string {
  const made: string[] = [];
  afterAll(() => {
    for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
    made.push(dir);
    return dir;
  };
}
