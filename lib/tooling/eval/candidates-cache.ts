import { once } from 'node:events';
import fs from 'node:fs';
import readline from 'node:readline';
import { finished } from 'node:stream/promises';
import type { Half } from './dataset';
import type { JudgedQuery } from './setup';

interface CachedQuery {
  half: Half;
  judged: Array<[string, number]>;
  gathered: JudgedQuery['gathered'];
  ids: Array<[number, string]>;
}

/**
 * The gathered candidates of both halves, one query per line: every dev query's candidates
 * (about 455 each) take more JSON than V8's longest string, which one JSON document would need.
 */
export async function writeCandidatesCache(
  file: string,
  halves: Record<Half, JudgedQuery[]>,
): Promise<void> {
  const out = fs.createWriteStream(file);
  for (const half of Object.keys(halves) as Half[]) {
    for (const q of halves[half]) {
      const line: CachedQuery = {
        half,
        judged: [...q.judged],
        gathered: q.gathered,
        ids: [...q.ids],
      };
      if (!out.write(`${JSON.stringify(line)}\n`)) {
        await once(out, 'drain');
      }
    }
  }
  out.end();
  await finished(out);
}

export async function readCandidatesCache(file: string): Promise<Record<Half, JudgedQuery[]>> {
  const halves: Record<Half, JudgedQuery[]> = { a: [], b: [] };
  const lines = readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity });
  for await (const text of lines) {
    if (!text) continue;
    const q = JSON.parse(text) as CachedQuery;
    if (q.half !== 'a' && q.half !== 'b') {
      throw new Error(
        `${file} is not a candidates cache of this train-ranker (one query per line): delete it to gather again`,
      );
    }
    halves[q.half].push({ judged: new Map(q.judged), gathered: q.gathered, ids: new Map(q.ids) });
  }
  return halves;
}
