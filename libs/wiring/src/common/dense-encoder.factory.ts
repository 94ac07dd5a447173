import type { DenseModelConfig } from '@cs/config';
import { BuiltinEncoder, type SentenceEmbedder } from '@cs/embeddings';
import { HostedEmbeddingsEncoder } from '@cs/hosted-embeddings';
import { OnnxSentenceEncoder } from '@cs/onnx-encoder';
import type { DenseEncoder } from '@cs/ports';

/**
 * The encoder a DENSE_MODEL value names. A model that cannot load (a folder lacking a file, a
 * wrong pooling config) throws a sentence saying what is wrong, which stops the service at start.
 * `words`: the word vectors, given when some model is builtin.
 */
export function createDenseEncoder(config: DenseModelConfig, words: SentenceEmbedder | undefined): Promise<DenseEncoder> {
  switch (config.kind) {
    case 'builtin':
      if (!words) return Promise.reject(new Error('the builtin dense model needs the word vectors, which were not loaded'));
      return Promise.resolve(new BuiltinEncoder(words));
    case 'onnx':
      return OnnxSentenceEncoder.load(config.modelDir, config);
    case 'http':
      // In a promise, so that settings the encoder refuses reject like the other kinds' failures.
      return new Promise((resolve) => resolve(new HostedEmbeddingsEncoder(config)));
  }
}
