import fs from 'node:fs/promises';
import type { Db } from '../db/client';
import { ingestPages, type ProgressListener } from './ingest';
import { PAGE_SIZE } from './products-feed';
import { claimStore, runClaimedJob, type JobOutcome } from './store-job';

export interface ProductsFile {
  records: unknown[];
  /** The shop's name, when the file names it (`{"shop": {"name": ...}}` or `{"name": ...}`). */
  shopName?: string;
}

/**
 * The records of a products.json file: `{"products": [...]}` as the storefront and the Admin
 * API answer, or a bare array of products as exports often hold.
 */
export async function readProductsFile(file: string): Promise<ProductsFile> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    throw new Error(`Cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new Error(`${file} is not JSON: ${(err as Error).message}`);
  }
  if (Array.isArray(parsed)) return { records: parsed };
  const doc = parsed as { products?: unknown; shop?: { name?: unknown }; name?: unknown } | null;
  if (!Array.isArray(doc?.products)) {
    throw new Error(`${file} holds no product list: expected {"products": [...]} or [...]`);
  }
  const name = doc.shop?.name ?? doc.name;
  return {
    records: doc.products,
    ...(typeof name === 'string' && name.trim() ? { shopName: name.trim() } : {}),
  };
}

function* inPages(files: ProductsFile[]): Generator<unknown[]> {
  for (const { records } of files) {
    for (let i = 0; i < records.length; i += PAGE_SIZE) yield records.slice(i, i + PAGE_SIZE);
  }
}

/**
 * Imports products.json files into a store through the same path as a sync. Files are read
 * and checked before anything is written; an import adds and updates products but removes
 * none, since a file may hold only part of a catalogue.
 */
export async function importFiles(
  db: Db,
  storeId: string,
  files: string[],
  opts: { onProgress?: ProgressListener; signal?: AbortSignal } = {},
): Promise<JobOutcome> {
  const contents = await Promise.all(files.map(readProductsFile));
  await claimStore(db, storeId);
  return runClaimedJob(db, storeId, (latest) =>
    ingestPages(db, storeId, inPages(contents), {
      removeVanished: false,
      signal: opts.signal,
      onProgress: (p) => {
        latest(p);
        opts.onProgress?.(p);
      },
    }),
  );
}
