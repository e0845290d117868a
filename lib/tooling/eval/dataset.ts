import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { readProductsFile } from '../../catalog/import-files';

export interface Judgments {
  queries: Array<{ id: string; text: string }>;
  /** query id -> product id -> relevance (1..3). */
  qrels: Map<string, Map<string, number>>;
}

function readTsv(file: string): string[][] {
  const lines = fs.readFileSync(file, 'utf8').split(/\r?\n/).filter(Boolean);
  return lines.slice(1).map((l) => l.split('\t'));
}

export type Half = 'a' | 'b';

/**
 * The fixed half of the queries a query id belongs to: the low bit of the first byte of the
 * SHA-256 of the id. Choices are made on half a and confirmed on half b; a hash rather than
 * file order keeps the halves alike whatever order the file lists queries in.
 */
export function queryHalf(queryId: string): Half {
  return createHash('sha256').update(queryId).digest()[0]! % 2 === 0 ? 'a' : 'b';
}

/**
 * Queries with at least one judged product, in file order, those of `half` when given, the
 * first `limit` of them.
 */
export function readJudgments(
  queriesFile: string,
  qrelsFile: string,
  limit?: number,
  half?: Half,
): Judgments {
  const qrels = new Map<string, Map<string, number>>();
  for (const [qid, pid, rel] of readTsv(qrelsFile)) {
    if (!qid || !pid || rel === undefined) continue;
    const judged = qrels.get(qid) ?? new Map<string, number>();
    judged.set(pid, Number(rel));
    qrels.set(qid, judged);
  }
  const queries = readTsv(queriesFile)
    .filter(([id, text]) => id && text && qrels.has(id) && (!half || queryHalf(id) === half))
    .map(([id, text]) => ({ id: id!, text: text! }))
    .slice(0, limit ?? Infinity);
  return { queries, qrels };
}

/**
 * The catalogue to import: the whole products file, or (with maxProducts) every product judged
 * for the chosen queries plus the file's first products up to that many, written to a temporary
 * file in the same products.json shape. Returns the file and a key naming that product set.
 */
export async function catalogueFile(
  productsFile: string,
  judgments: Judgments,
  maxProducts?: number,
): Promise<{ file: string; key: string; count: number }> {
  const { records } = (await readProductsFile(productsFile)) as { records: Array<{ id: unknown }> };
  const baseKey = `${path.basename(productsFile)}:${fs.statSync(productsFile).size}`;
  if (!maxProducts || maxProducts >= records.length) {
    return { file: productsFile, key: hash(baseKey), count: records.length };
  }
  const judged = new Set<string>();
  for (const q of judgments.queries) {
    for (const id of judgments.qrels.get(q.id)?.keys() ?? []) judged.add(id);
  }
  const chosen = records.filter((r) => judged.has(String(r.id)));
  for (const r of records) {
    if (chosen.length >= maxProducts) break;
    if (!judged.has(String(r.id))) chosen.push(r);
  }
  const key = hash(`${baseKey}:${[...judged].sort().join(',')}:${maxProducts}`);
  const file = path.join(os.tmpdir(), `eval-products-${key}.json`);
  fs.writeFileSync(file, JSON.stringify({ products: chosen }));
  return { file, key, count: chosen.length };
}

function hash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 12);
}
