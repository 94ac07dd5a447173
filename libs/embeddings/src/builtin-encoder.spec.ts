import * as path from 'node:path';
import { BUILTIN_MODEL_VERSION, BuiltinEncoder } from './builtin-encoder';
import { loadWordVectors } from './glove-cache';
import { SentenceEmbedder } from './sentence-embedder';

const CACHE = path.resolve(__dirname, '../../../node_modules/.cache/candidate-search/embeddings');

describe('BuiltinEncoder', () => {
  it('names its model by the word vectors and the recipe version', async () => {
    const encoder = new BuiltinEncoder(new SentenceEmbedder(await loadWordVectors(CACHE)));
    expect(encoder.model).toEqual({ id: `builtin:glove-sif-100d-v${BUILTIN_MODEL_VERSION}`, dimensions: 100 });
  }, 60_000);
});
