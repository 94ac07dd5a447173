import type { DenseModelConfig } from '@cs/config';
import { BuiltinEncoder, type SentenceEmbedder } from '@cs/embeddings';
import type { DenseEncoder } from '@cs/ports';

/**
 * The encoder a DENSE_MODEL value names. A model that cannot load (a folder lacking a file, a
 * wrong pooling config) throws a sentence saying what is wrong, which stops the service at start.
 * `words`: the word vectors, given when some model is builtin; `feedbackWeight`, the builtin model's query feedback (RankingTuning). ONNX Runtime and the HTTP client
 * are loaded only for a model that needs them (import()).
 */
export async function createDenseEncoder(
  config: DenseModelConfig,
  words: SentenceEmbedder | undefined,
  feedbackWeight?: number,
): Promise<DenseEncoder> {
  switch (config.kind) {
    case 'builtin':
      if (!words) throw new Error('the builtin dense model needs the word vectors, which were not loaded');
      return new BuiltinEncoder(words, undefined, feedbackWeight);
    case 'onnx':
      return (await import('@cs/onnx-encoder')).OnnxSentenceEncoder.load(config.modelDir, config);
    case 'http':
      // Settings the encoder refuses reject, like the other kinds' failures (an async function).
      return new (await import('@cs/hosted-embeddings')).HostedEmbeddingsEncoder(config);
  }
}
