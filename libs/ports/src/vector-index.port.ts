/** One embedded chunk of a document. Chunk -1 is the whole-document vector. */
export interface ChunkVector {
  chunkIndex: number;
  vector: Float32Array;
}

export interface VectorHit {
  documentId: string;
  /** Cosine similarity of the query and the whole-document vector (chunk -1). */
  score: number;
  /** The passage closest to the query, for its highlight (-1: the document has none). */
  chunkIndex: number;
}

/**
 * Stores unit-length vectors per company; every query is scoped to one company. Documents rank
 * by their whole-document vector; passage vectors only say where in the document the query fits.
 */
export interface VectorIndex {
  upsert(companyId: string, documentId: string, vectors: ChunkVector[]): Promise<void>;
  delete(companyId: string, documentId: string): Promise<number>;
  search(companyId: string, query: Float32Array, topK: number): Promise<VectorHit[]>;
  /** The whole-document vectors (chunk -1) of these documents; ids the company lacks are left out. */
  documentVectors(companyId: string, documentIds: readonly string[]): Promise<Map<string, Float32Array>>;
  count(companyId: string): Promise<number>;
  close(): Promise<void>;
}
export const VECTOR_INDEX = Symbol('VectorIndex');
