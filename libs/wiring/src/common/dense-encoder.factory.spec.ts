/**
 * @jest-environment ./scripts/jest-native-typed-arrays.environment.js
 */
import * as path from 'node:path';
import { loadConfig } from '@cs/config';
import type { SentenceEmbedder } from '@cs/embeddings';
import { createDenseEncoder } from './dense-encoder.factory';

// The onnx-encoder's stand-in model: prompts `query: ` / `passage: `, 8 dimensions.
const TINY = path.resolve(__dirname, '../../../onnx-encoder/src/testing/tiny-bi-encoder');
// Only the builtin model reads the word vectors.
const NO_WORD_VECTORS = {} as SentenceEmbedder;

describe('createDenseEncoder', () => {
  it('loads the ONNX folder DENSE_MODEL names, with the prefixes and token budget of the config', async () => {
    const env = { DENSE_MODEL: `onnx:${TINY}`, DENSE_PASSAGE_PREFIX: 'query: ', DENSE_ONNX_MAX_TOKENS: '8' };
    const encoder = await createDenseEncoder(loadConfig(env).denseModel, NO_WORD_VECTORS);
    try {
      expect(encoder.model).toEqual({ id: expect.stringMatching(/^onnx:tiny-bi-encoder@[0-9a-f]{12}$/) as unknown, dimensions: 8 });
      // The folder's query prompt and DENSE_PASSAGE_PREFIX are the same words: so are the vectors.
      const { vector } = await encoder.embedQuery('python developer');
      const [passage, long] = await encoder.embedPassages(['python developer', 'python developer chef kitchen nurse']);
      expect([...vector!]).toEqual([...passage!]);
      // Eight tokens: [CLS] query : python developer chef kitchen [SEP], the nurse cut.
      const [cut] = await encoder.embedPassages(['python developer chef kitchen']);
      expect([...long!]).toEqual([...cut!]);
    } finally {
      await encoder.close();
    }
  });

  it('stops the service at start with the sentence naming what the folder lacks', async () => {
    const config = loadConfig({ DENSE_MODEL: `onnx:${path.dirname(TINY)}` }).denseModel;
    await expect(createDenseEncoder(config, NO_WORD_VECTORS)).rejects.toThrow(`DENSE_MODEL folder ${path.dirname(TINY)} lacks model.onnx`);
  });
});
