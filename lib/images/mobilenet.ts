import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import * as tf from '@energetic-ai/core';
import type { io } from '@tensorflow/tfjs-core';
import type { GraphModel, Tensor } from '@tensorflow/tfjs';
import { normalize } from '../embeddings/provider';
import { colourHistogram } from './colour-histogram';
import type { ImageEmbedder } from './embedder';
import { decodeRgb } from './pixels';

const SIZE = 224;
const FEATURES =
  'StatefulPartitionedCall/sequential/keras_layer/StatefulPartitionedCall/StatefulPartitionedCall/StatefulPartitionedCall/predict/feature_vector/SpatialSqueeze';

interface GraphJson {
  modelTopology: io.ModelArtifacts['modelTopology'];
  weightsManifest: { paths: string[]; weights: io.WeightsManifestEntry[] }[];
}

/**
 * The package's files, found from the working directory like lib/db/migrations: a path the
 * Next.js server bundle does not rewrite (it would for require.resolve).
 */
function packagedModelDir(): string {
  return path.resolve(process.cwd(), 'node_modules/nsfwjs/dist/models/mobilenet_v2_mid');
}

/** Evaluates one of nsfwjs's UMD wrappers (`module.exports = <value>`) in an empty context. */
function umdValue(file: string): unknown {
  const sandbox = { module: { exports: {} as unknown }, exports: {} };
  vm.runInNewContext(fs.readFileSync(file, 'utf8'), sandbox, { filename: file });
  return sandbox.module.exports;
}

/**
 * nsfwjs ships its graph as UMD scripts (the model.json topology and base64 weight shards) so
 * that bundlers can inline it; read them straight into memory instead of through its load().
 */
function readPackagedModel(): io.ModelArtifacts {
  const dir = packagedModelDir();
  const graph = umdValue(path.join(dir, 'model.min.js')) as GraphJson;
  const shards = graph.weightsManifest.flatMap((group) =>
    group.paths.map((p) =>
      Buffer.from(umdValue(path.join(dir, `${p}.min.js`)) as string, 'base64'),
    ),
  );
  const weights = Buffer.concat(shards);
  return {
    modelTopology: graph.modelTopology,
    weightSpecs: graph.weightsManifest.flatMap((group) => group.weights),
    weightData: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength),
  };
}

/** Measured best on generated look-alikes (lib/tooling/images/evaluate-descriptors.ts): 0.5. */
export const DEFAULT_COLOUR_WEIGHT = 0.5;

/**
 * The offline image model: the MobileNetV2 graph that the nsfwjs npm package carries (ImageNet
 * pretrained, fine-tuned by nsfwjs for 5 classes), cut before its classifier to give the 1792-dim
 * pooled feature vector, concatenated with a 64-bin colour histogram. MobileNet features see
 * shape and texture but barely colour; the histogram sees colour only; the blend weights them so
 * that cosine(a, b) = (1 - w) * cos(features) + w * cos(histograms), w = colourWeight. It
 * compares images with images; it has no text tower, so it cannot place an image near words.
 */
export class MobileNetImageEmbedder implements ImageEmbedder {
  readonly modelId: string;
  readonly dimensions: number;
  private readonly colourWeight: number;
  private model?: Promise<GraphModel>;

  constructor(opts: { colourWeight?: number } = {}) {
    this.colourWeight = opts.colourWeight ?? DEFAULT_COLOUR_WEIGHT;
    const blended = this.colourWeight > 0;
    this.modelId = blended
      ? `mobilenet-v2-mid-1792+rgb64-w${this.colourWeight}`
      : 'mobilenet-v2-mid-1792';
    this.dimensions = blended ? 1792 + 64 : 1792;
  }

  private load(): Promise<GraphModel> {
    this.model ??= (async () => {
      // @energetic-ai/core bundles tfjs (core, converter, wasm backend) for USE lite. tfjs keeps
      // its engine and kernel registry on globalThis, so a second copy (@tensorflow/tfjs +
      // tfjs-backend-wasm) in the same process overwrites the first one's wasm kernels and
      // whichever model loaded first fails ("wasmFunc is not a function"): use the one copy.
      if (tf.getBackend() !== 'wasm') await tf.setBackend('wasm');
      await tf.ready();
      return tf.loadGraphModel(tf.io.fromMemory(readPackagedModel()));
    })().catch((err: unknown) => {
      this.model = undefined;
      throw err;
    });
    return this.model;
  }

  /** Unit length again, since both parts are unit length and the weights' squares sum to 1. */
  private blend(shape: number[], pixels: Float32Array): number[] {
    if (this.colourWeight <= 0) return shape;
    const a = Math.sqrt(1 - this.colourWeight);
    const b = Math.sqrt(this.colourWeight);
    return [...shape.map((x) => x * a), ...colourHistogram(pixels).map((x) => x * b)];
  }

  async embedImages(images: Uint8Array[]): Promise<number[][]> {
    const model = await this.load();
    const out: number[][] = [];
    for (const image of images) {
      const pixels = await decodeRgb(image, SIZE);
      const input = tf.tensor4d(pixels, [1, SIZE, SIZE, 3]);
      const features = model.execute(input, FEATURES) as Tensor;
      try {
        out.push(this.blend(normalize(await features.data()), pixels));
      } finally {
        input.dispose();
        features.dispose();
      }
    }
    return out;
  }
}
