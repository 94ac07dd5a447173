import { QUERY_FEEDBACK } from './query-feedback';
import type { SentenceEmbedder } from './sentence-embedder';

/**
 * Names the builtin model's vectors. Raise the version whenever a change alters a CV's vector
 * (the document recipe, the word vectors): stored vectors then no longer match, and the service
 * refuses to start until they are made again (`admin reindex --dense`). Query-side changes
 * (typo repair, synonyms) keep it. 2: the words' two dominant directions removed from every vector.
 */
export const BUILTIN_MODEL_VERSION = 2;

/** Each version's dominant directions removed: the versions this code can still read. */
const DOMINANT_DIRECTIONS_OF_VERSION: Readonly<Record<number, number>> = { 1: 0, 2: 2 };

/** The version of a builtin model id (`builtin:glove-sif-100d-v2` is 2); null for another model's id. */
export function builtinVersionOf(modelId: string): number | null {
  const match = /^builtin:glove-sif-\d+d-v(\d+)$/.exec(modelId);
  return match ? Number(match[1]) : null;
}

/**
 * The shipped encoder: SIF-weighted GloVe sentence vectors (SentenceEmbedder), behind the same
 * asynchronous shape as the ONNX and hosted encoders. It matches `DenseEncoder` (libs/ports) by
 * shape, since a domain library imports no port.
 */
export class BuiltinEncoder {
  readonly model: { id: string; dimensions: number };
  /** Dense search moves the query towards its best few CVs and searches again (QUERY_FEEDBACK); absent at weight 0. */
  readonly queryFeedback?: typeof QUERY_FEEDBACK;

  constructor(
    readonly embedder: SentenceEmbedder,
    readonly version = BUILTIN_MODEL_VERSION,
    private readonly feedbackWeight = QUERY_FEEDBACK.weight,
  ) {
    this.model = { id: `builtin:glove-sif-${embedder.dimensions}d-v${version}`, dimensions: embedder.dimensions };
    if (feedbackWeight > 0) this.queryFeedback = { ...QUERY_FEEDBACK, weight: feedbackWeight };
  }

  /**
   * The encoder of an earlier version over the same word vectors, whose stored vectors it reads
   * exactly until a reindex makes this version's; null for a version this code no longer knows.
   */
  atVersion(version: number): BuiltinEncoder | null {
    const directions = DOMINANT_DIRECTIONS_OF_VERSION[version];
    if (directions === undefined) return null;
    return new BuiltinEncoder(this.embedder.withDominantDirections(directions), version, this.feedbackWeight);
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
