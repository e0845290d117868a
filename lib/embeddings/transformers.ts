import fs from 'node:fs';
import path from 'node:path';
import type { RawImage, Tensor } from '@huggingface/transformers';
import sharp from 'sharp';
import { env } from '../config/env';
import { normalize, type EmbeddingProvider } from './provider';

/**
 * Where a model named by configuration lives: a directory (absolute, ./relative, or a name
 * under MODELS_DIR), else a hub id, which is only usable when TRANSFORMERS_ALLOW_REMOTE is on.
 */
export function resolveModel(name: string): string {
  const config = env();
  const looksLikePath = path.isAbsolute(name) || name.startsWith('./') || name.startsWith('../');
  if (looksLikePath) {
    const dir = path.resolve(name);
    if (!fs.existsSync(path.join(dir, 'config.json'))) {
      throw new Error(`Model directory ${dir} has no config.json`);
    }
    return dir;
  }
  if (config.MODELS_DIR) {
    const dir = path.resolve(config.MODELS_DIR, name);
    if (fs.existsSync(path.join(dir, 'config.json'))) return dir;
  }
  if (!config.TRANSFORMERS_ALLOW_REMOTE) {
    throw new Error(
      `Model "${name}" is not a directory under MODELS_DIR (${config.MODELS_DIR ?? 'unset'}) and ` +
        'TRANSFORMERS_ALLOW_REMOTE is off, so it cannot be downloaded',
    );
  }
  return name;
}

/**
 * The library, loaded on first use (it brings onnxruntime-node with it), with its hub access
 * set from configuration: local files always, downloads only when allowed, into MODELS_DIR.
 */
async function library() {
  const lib = await import('@huggingface/transformers');
  const config = env();
  lib.env.allowLocalModels = true;
  lib.env.allowRemoteModels = config.TRANSFORMERS_ALLOW_REMOTE;
  if (config.MODELS_DIR) lib.env.cacheDir = path.resolve(config.MODELS_DIR);
  return lib;
}

/**
 * The output width a local model's config.json declares (CLIP: projection_dim; encoders:
 * hidden_size, which mean pooling keeps). 0 for a hub model until its first embedding.
 */
function declaredDimensions(location: string): number {
  const file = path.join(location, 'config.json');
  if (!fs.existsSync(file)) return 0;
  const config = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    model_type?: string;
    projection_dim?: number;
    hidden_size?: number;
  };
  return (config.model_type === 'clip' ? config.projection_dim : config.hidden_size) ?? 0;
}

function rows(tensor: Tensor): number[][] {
  return (tensor.tolist() as number[][]).map((row) => normalize(row));
}

/** Decodes with sharp (EXIF rotation, transparency onto white) into the RawImage CLIP expects. */
async function toRawImage(bytes: Uint8Array): Promise<RawImage> {
  const { RawImage } = await library();
  const { data, info } = await sharp(bytes, { failOn: 'error' })
    .rotate()
    .flatten({ background: '#ffffff' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return new RawImage(
    new Uint8ClampedArray(data.buffer, data.byteOffset, data.length),
    info.width,
    info.height,
    3,
  );
}

function once<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    pending ??= load().catch((err: unknown) => {
      pending = undefined;
      throw err;
    });
    return pending;
  };
}

/**
 * A CLIP-family model (text and image towers projected into one space) through
 * @huggingface/transformers: onnx/text_model.onnx and onnx/vision_model.onnx plus the tokenizer
 * and preprocessor files, from a local directory or the hub.
 */
export class ClipProvider implements EmbeddingProvider {
  readonly modelId: string;
  private readonly location: string;
  private dims = 0;

  constructor(name: string) {
    this.location = resolveModel(name);
    this.modelId = `clip:${name}`;
    this.dims = declaredDimensions(this.location);
  }

  get dimensions(): number {
    return this.dims;
  }

  private readonly textTower = once(async () => {
    const { AutoTokenizer, CLIPTextModelWithProjection } = await library();
    const [tokenizer, model] = await Promise.all([
      AutoTokenizer.from_pretrained(this.location),
      CLIPTextModelWithProjection.from_pretrained(this.location),
    ]);
    return { tokenizer, model };
  });

  private readonly visionTower = once(async () => {
    const { AutoImageProcessor, CLIPVisionModelWithProjection } = await library();
    const [processor, model] = await Promise.all([
      AutoImageProcessor.from_pretrained(this.location),
      CLIPVisionModelWithProjection.from_pretrained(this.location),
    ]);
    return { processor, model };
  });

  async embedTexts(texts: string[]): Promise<number[][]> {
    if (texts.length === 0) return [];
    const { tokenizer, model } = await this.textTower();
    const inputs = tokenizer(texts, { padding: true, truncation: true });
    const { text_embeds } = (await model(inputs)) as { text_embeds: Tensor };
    const out = rows(text_embeds);
    this.dims = out[0]!.length;
    return out;
  }

  async embedImages(images: Uint8Array[]): Promise<number[][]> {
    if (images.length === 0) return [];
    const { processor, model } = await this.visionTower();
    const raw = await Promise.all(images.map(toRawImage));
    const { pixel_values } = (await processor(raw)) as { pixel_values: Tensor };
    const { image_embeds } = (await model({ pixel_values })) as { image_embeds: Tensor };
    const out = rows(image_embeds);
    this.dims = out[0]!.length;
    return out;
  }
}

/**
 * A text embedder from any @huggingface/transformers feature-extraction model (mean pooling,
 * normalized); a CLIP model's text tower when the model is CLIP, so its text vectors share the
 * space of its image vectors.
 */
export class TransformersTextProvider implements EmbeddingProvider {
  readonly modelId: string;
  private readonly location: string;
  private dims = 0;

  constructor(name: string) {
    this.location = resolveModel(name);
    this.modelId = `hf:${name}`;
    this.dims = declaredDimensions(this.location);
  }

  get dimensions(): number {
    return this.dims;
  }

  private readonly embedder = once(async (): Promise<(texts: string[]) => Promise<number[][]>> => {
    const { AutoConfig, pipeline } = await library();
    const config = (await AutoConfig.from_pretrained(this.location)) as { model_type?: string };
    if (config.model_type === 'clip') {
      const clip = new ClipProvider(this.location);
      return (texts) => clip.embedTexts(texts);
    }
    const extractor = await pipeline('feature-extraction', this.location);
    return async (texts) => rows(await extractor(texts, { pooling: 'mean', normalize: true }));
  });

  async embedTexts(texts: string[]): Promise<number[][]> {
    if (texts.length === 0) return [];
    const embed = await this.embedder();
    const out = await embed(texts.map((t) => t.trim() || ' '));
    this.dims = out[0]!.length;
    return out;
  }
}
