import { workerData } from 'node:worker_threads';
import { loadTextModel } from './models';

/** One model per worker thread, loaded on the first task and kept for the worker's life. */
const model = loadTextModel((workerData as { model: string }).model);

export default function embed(texts: string[]): Promise<number[][]> {
  return model.embedTexts(texts);
}
