import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetEnvCache } from '../../config/env';
import { queryRows } from '../../db/client';
import { imageEmbedder, setImageEmbedder } from '../../images/embedder';
import { indexProductImages } from '../../images/indexer';
import { embedQueryImage } from '../../images/query';
import { shapeImage } from '../../testing/images/images';
import { startImageServer, type ImageServer } from '../../testing/images/image-server';
import { insertImageProducts } from '../../testing/images/products';
import { bigintArray } from '../../sql/arrays';
import { startTestServer, type TestServer } from '../../testing/server';
import { writeTinyClip } from '../fixtures/tiny-clip';
import { textEmbedder } from '../index';
import { cosine } from '../provider';
import { ClipProvider } from '../transformers';

let modelsDir: string;
let modelDir: string;
let t: TestServer;
let images: ImageServer;

function unitLength(v: number[]): number {
  return Math.sqrt(cosine(v, v));
}

beforeAll(async () => {
  modelsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tiny-clip-'));
  modelDir = writeTinyClip(path.join(modelsDir, 'tiny-clip'));
  process.env.MODELS_DIR = modelsDir;
  process.env.EMBEDDING_MODEL = 'tiny-clip';
  process.env.IMAGE_EMBEDDING_MODEL = 'tiny-clip';
  process.env.IMAGE_FETCH_ALLOW_HOSTS = '127.0.0.1';
  resetEnvCache();
  setImageEmbedder(undefined);
  t = await startTestServer();
  images = await startImageServer();
});

afterAll(async () => {
  for (const name of [
    'MODELS_DIR',
    'EMBEDDING_MODEL',
    'IMAGE_EMBEDDING_MODEL',
    'IMAGE_FETCH_ALLOW_HOSTS',
  ]) {
    delete process.env[name];
  }
  resetEnvCache();
  setImageEmbedder(undefined);
  await images?.close();
  await t?.close();
  fs.rmSync(modelsDir, { recursive: true, force: true });
});

describe('CLIP through @huggingface/transformers (generated tiny CLIP model)', () => {
  it('writes a small model in the layout transformers.js loads', () => {
    for (const file of [
      'config.json',
      'tokenizer.json',
      'tokenizer_config.json',
      'preprocessor_config.json',
    ]) {
      expect(fs.existsSync(path.join(modelDir, file))).toBe(true);
    }
    const onnxBytes = ['text_model.onnx', 'vision_model.onnx'].map(
      (f) => fs.statSync(path.join(modelDir, 'onnx', f)).size,
    );
    expect(Math.max(...onnxBytes)).toBeLessThan(100_000);
  });

  it('is the text embedder when EMBEDDING_MODEL names a directory under MODELS_DIR', async () => {
    const provider = textEmbedder();
    expect(provider.modelId).toBe('hf:tiny-clip');
    expect(provider.dimensions).toBe(64);
    const [alone] = await provider.embedTexts(['red circle']);
    const batch = await provider.embedTexts([
      'a much longer red striped shirt title',
      'red circle',
    ]);
    expect(alone).toHaveLength(64);
    expect(unitLength(alone!)).toBeCloseTo(1, 5);
    // Padding in a batch must not change a text's vector (attention-masked pooling).
    expect(cosine(alone!, batch[1]!)).toBeCloseTo(1, 5);
  });

  it('embeds images and text into one space through the image model setting', async () => {
    const embedder = await imageEmbedder();
    if (!(embedder instanceof ClipProvider)) throw new Error('expected the CLIP model');
    expect(embedder.modelId).toBe('clip:tiny-clip');
    const [image] = await embedder.embedImages([await shapeImage('circle', [210, 30, 30])]);
    const [text] = await embedder.embedTexts(['red circle']);
    expect(image).toHaveLength(64);
    expect(text).toHaveLength(64);
    expect(unitLength(image!)).toBeCloseTo(1, 5);
    expect(Number.isFinite(cosine(image!, text!))).toBe(true);
  });

  it('indexes product images and ranks them for a query image, end to end', async () => {
    const serve = (p: string, bytes: Buffer) => {
      images.set(p, { headers: { 'content-type': 'image/png' }, body: bytes });
      return `${images.origin}${p}`;
    };
    const ids = await insertImageProducts(t.database.db, [
      {
        title: 'red',
        images: [serve('/red.png', await shapeImage('square', [210, 30, 30]))],
      },
      {
        title: 'blue',
        images: [serve('/blue.png', await shapeImage('square', [30, 60, 200]))],
      },
      {
        title: 'green',
        images: [serve('/green.png', await shapeImage('square', [30, 150, 60]))],
      },
    ]);
    const result = await indexProductImages(t.database.db, ids);
    expect(result).toMatchObject({ embedded: 3, failed: [] });

    const query = await embedQueryImage(
      t.database.db,
      serve('/query-blue.png', await shapeImage('square', [40, 70, 190], [250, 250, 250], 128)),
    );
    expect(query.modelId).toBe('clip:tiny-clip');
    const ranked = await queryRows<{ product_id: string | number }>(
      t.database.db,
      sql`SELECT product_id FROM product_embeddings
          WHERE kind = 'image' AND model_id = ${query.modelId} AND product_id = ANY(${bigintArray(ids)})
          ORDER BY embedding <=> ${`[${query.vector.join(',')}]`}::vector`,
    );
    expect(Number(ranked[0]!.product_id)).toBe(ids[1]);
  });

  it('says why a model cannot be loaded when it is neither local nor downloadable', () => {
    expect(() => new ClipProvider('openai/clip-vit-base-patch32')).toThrow(
      /TRANSFORMERS_ALLOW_REMOTE is off/,
    );
  });
});
