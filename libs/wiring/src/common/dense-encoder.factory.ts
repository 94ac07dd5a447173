import type { DenseModelConfig } from '@cs/config';
import { BuiltinEncoder, SentenceEmbedder } from '@cs/embeddings';
import { OnnxSentenceEncoder } from '@cs/onnx-encoder';
import type { DenseEncoder } from '@cs/ports';

/**
 * The encoder DENSE_MODEL names. A model that cannot load (a folder lacking a file, a wrong
 * pooling config) throws a sentence saying what is wrong, which stops the service at start.
 */
export function createDenseEncoder(config: DenseModelConfig, builtin: SentenceEmbedder): Promise<DenseEncoder> {
  switch (config.kind) {
    case 'builtin':
      return Promise.resolve(new BuiltinEncoder(builtin));
    case 'onnx':
      return OnnxSentenceEncoder.load(config.modelDir, config);
    case 'http':
      return Promise.reject(new Error('DENSE_MODEL=http:… is not available yet'));
  }
}
