import fs from 'node:fs/promises';
import path from 'node:path';
import type { ImageFile, ShopOptions } from './shop';

const CONTENT_TYPES: Record<string, string> = {
  '.avif': 'image/avif',
  '.gif': 'image/gif',
  '.jpeg': 'image/jpeg',
  '.jpg': 'image/jpeg',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.webp': 'image/webp',
};

/** The file under the shop's images folder, never outside it. */
async function readFromFolder(folder: string, relative: string): Promise<ImageFile | undefined> {
  const root = path.resolve(folder);
  const file = path.resolve(root, relative);
  const contentType = CONTENT_TYPES[path.extname(file).toLowerCase()];
  if (!contentType || !file.startsWith(root + path.sep)) return undefined;
  try {
    return { contentType, body: await fs.readFile(file) };
  } catch {
    return undefined;
  }
}

/** An image under `{shopUrl}/cdn/`: from the shop's renderer first, then its images folder. */
export async function readShopImage(
  options: Pick<ShopOptions, 'imageRenderer' | 'imagesDir'>,
  encodedPath: string,
): Promise<ImageFile | undefined> {
  let relative: string;
  try {
    relative = decodeURIComponent(encodedPath);
  } catch {
    return undefined;
  }
  const rendered = await options.imageRenderer?.(relative);
  if (rendered) return rendered;
  return options.imagesDir ? readFromFolder(options.imagesDir, relative) : undefined;
}
