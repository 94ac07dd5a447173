/**
 * Which model made a vector. Vectors of two ids are never compared: a company's vectors record
 * the id that made them, and a search reads them only with that model.
 */
export interface DenseModel {
  /** `builtin:…`, `onnx:<model name>` or `http:<provider>/<model>`; changes whenever the vectors would. */
  id: string;
  dimensions: number;
}

/** A query's vector, or null when the model can read nothing of it. */
export interface QueryEmbedding {
  vector: Float32Array | null;
  /** Query words the model could not read (the builtin model's vocabulary); empty for subword models. */
  unknownWords: string[];
}

/** A CV's vectors: the whole (as the model reads a whole CV) and each passage, in order. */
export interface CvEmbedding {
  whole: Float32Array | null;
  passages: (Float32Array | null)[];
}

export interface EmbedOptions {
  signal?: AbortSignal;
}

/**
 * The encoder was not reachable or failed for a reason of its own (a hosted API's outage, rate
 * limit or timeout): the caller should try again later. A search fails retryable; ingestion
 * retries the CV, never marks it invalid.
 */
export class EncoderUnavailableError extends Error {
  readonly retryable = true;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EncoderUnavailableError';
  }
}

/**
 * A dense encoder: text to unit-length vectors whose inner product says how alike two texts'
 * meanings are. Three kinds stand behind it: `builtin` (word vectors, shipped), `onnx:<folder>`
 * (an operator's sentence-transformer) and `http:<provider>` (a hosted embeddings API).
 */
export interface DenseEncoder {
  readonly model: DenseModel;
  /**
   * Set by a model whose searches gain from pseudo-relevance feedback (the builtin one): the query
   * is moved towards the centroid of its best `documents` CVs, at `weight`, and searched again,
   * in a company of `minDocuments` CVs at least.
   */
  readonly queryFeedback?: { documents: number; weight: number; minDocuments: number };
  /**
   * `wordContexts`: text from the company's CVs around query words the model lacks, read as their
   * meaning; only a word-vector model has such words, the others ignore it.
   */
  embedQuery(text: string, options?: EmbedOptions & { wordContexts?: ReadonlyMap<string, string> }): Promise<QueryEmbedding>;
  /** Passages' vectors (in batches where the model runs in batches); null where a text gives the model nothing. */
  embedPassages(texts: readonly string[], options?: EmbedOptions): Promise<(Float32Array | null)[]>;
  /** A CV's whole vector and its passages', in one go so that a batched model batches them together. */
  embedCv(text: string, passages: readonly string[], options?: EmbedOptions): Promise<CvEmbedding>;
  /** Frees what the encoder holds (an inference session, sockets). */
  close(): Promise<void>;
}
export const DENSE_ENCODER = Symbol('DenseEncoder');
/** The encoder of DENSE_MODEL_NEXT, which a reindex moves to; null when none is set. */
export const DENSE_ENCODER_NEXT = Symbol('DenseEncoderNext');
