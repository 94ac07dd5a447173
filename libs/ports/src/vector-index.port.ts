import { createHash } from 'node:crypto';
import type { SearchAttributes, SearchFilter } from '@cs/search-filters';
import type { DenseModel } from './dense-encoder.port';

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
 * Each CV's attributes are kept beside its vectors, and a search's filter is applied before its
 * top K, exactly (not by approximate search) when few CVs pass.
 */
export interface VectorIndex {
  /** Without attributes, the CV passes only filters that need no profile (ids, `none`). */
  upsert(companyId: string, documentId: string, vectors: ChunkVector[], attributes?: SearchAttributes): Promise<void>;
  /** Replaces a CV's attributes (a profile read again); false when the company lacks the CV. */
  setAttributes(companyId: string, documentId: string, attributes: SearchAttributes): Promise<boolean>;
  delete(companyId: string, documentId: string): Promise<number>;
  search(companyId: string, query: Float32Array, topK: number, filter?: SearchFilter | null): Promise<VectorHit[]>;
  /** The whole-document vectors (chunk -1) of these documents; ids the company lacks are left out. */
  documentVectors(companyId: string, documentIds: readonly string[]): Promise<Map<string, Float32Array>>;
  count(companyId: string): Promise<number>;
  close(): Promise<void>;
}
export const VECTOR_INDEX = Symbol('VectorIndex');

/**
 * A store's vector sets, one per dense model, and the record of which set searches read: the
 * store knows which model made the vectors it serves, so a search never compares vectors of two
 * models. A reindex fills another model's set beside the one in use, then activates it.
 */
export interface VectorSpaces {
  /** The model whose set searches read; null in a store that holds no vectors yet. */
  active(): Promise<DenseModel | null>;
  /** The set of a model's vectors (created empty, sized for its dimension, when new); the same index each time. */
  open(model: DenseModel): Promise<VectorIndex>;
  /** Searches read `model`'s set from now on (it must have been opened); the others stay until removed. */
  activate(model: DenseModel): Promise<void>;
  /** Closes and removes every set but `model`'s: once no reader is left on them (other replicas switch within seconds). */
  removeAllBut(model: DenseModel): Promise<void>;
  close(): Promise<void>;
}
export const VECTOR_SPACES = Symbol('VectorSpaces');

/** The only model there was before stores recorded theirs: vectors found without a record were made by it. */
export const UNRECORDED_DENSE_MODEL: DenseModel = { id: 'builtin:glove-sif-100d-v1', dimensions: 100 };

/** A folder name for a model's vector set in an embedded store: readable, and distinct for distinct ids. */
export function setFolderName(modelId: string): string {
  const readable = modelId
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .slice(0, 60);
  return `${readable}-${createHash('sha256').update(modelId).digest('hex').slice(0, 8)}`;
}
