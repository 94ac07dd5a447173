import type { DenseModelConfig } from '@cs/config';
import { BuiltinEncoder, SentenceEmbedder } from '@cs/embeddings';
import { HostedEmbeddingsEncoder } from '@cs/hosted-embeddings';
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
      return Promise.reject(new Error('DENSE_MODEL=onnx:… is not available yet'));
    case 'http':
      // In a promise, so that settings the encoder refuses reject like the other kinds' failures.
      return new Promise((resolve) => resolve(new HostedEmbeddingsEncoder(config)));
  }
}
