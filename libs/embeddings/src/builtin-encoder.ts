import type { SentenceEmbedder } from './sentence-embedder';

/**
 * Names the builtin model's vectors. Raise the version whenever a change alters a CV's vector
 * (the document recipe, the word vectors): stored vectors then no longer match, and the service
 * refuses to start until they are made again (`admin reindex --dense`). Query-side changes
 * (typo repair, synonyms) keep it. 2: the words' two dominant directions removed from every vector.
 */
export const BUILTIN_MODEL_VERSION = 2;

/**
 * The shipped encoder: SIF-weighted GloVe sentence vectors (SentenceEmbedder), behind the same
 * asynchronous shape as the ONNX and hosted encoders. It matches `DenseEncoder` (libs/ports) by
 * shape, since a domain library imports no port.
 */
export class BuiltinEncoder {
  readonly model: { id: string; dimensions: number };

  constructor(readonly embedder: SentenceEmbedder) {
    this.model = { id: `builtin:glove-sif-${embedder.dimensions}d-v${BUILTIN_MODEL_VERSION}`, dimensions: embedder.dimensions };
  }

  embedQuery(
    text: string,
    options: { wordContexts?: ReadonlyMap<string, string> } = {},
  ): Promise<{ vector: Float32Array | null; unknownWords: string[] }> {
    return Promise.resolve(this.embedder.readQuery(text, options.wordContexts));
  }

  embedPassages(texts: readonly string[]): Promise<(Float32Array | null)[]> {
    return Promise.resolve(texts.map((t) => this.embedder.embed(t)));
  }

  embedCv(text: string, passages: readonly string[]): Promise<{ whole: Float32Array | null; passages: (Float32Array | null)[] }> {
    return Promise.resolve({ whole: this.embedder.embedDocument(text), passages: passages.map((p) => this.embedder.embed(p)) });
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
