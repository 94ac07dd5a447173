import { Inject, Injectable } from '@nestjs/common';
import type { Chunk } from '@cs/embeddings';
import {
  DENSE_ENCODER,
  VECTOR_INDEX,
  type ChunkVector,
  type DenseClient,
  type DenseEncoder,
  type DenseSearchResult,
  type VectorIndex,
} from '@cs/ports';

/** Embeds CVs (the whole and each passage) and queries with the dense encoder, and searches the vector index. */
@Injectable()
export class DenseService implements DenseClient {
  constructor(
    @Inject(DENSE_ENCODER) private readonly encoder: DenseEncoder,
    @Inject(VECTOR_INDEX) private readonly index: VectorIndex,
  ) {}

  async upsert(companyId: string, documentId: string, text: string, chunks: Chunk[]): Promise<number> {
    const { whole, passages } = await this.encoder.embedCv(
      text,
      chunks.map((c) => c.text),
    );
    const vectors: ChunkVector[] = [];
    if (whole) vectors.push({ chunkIndex: -1, vector: whole });
    passages.forEach((vector, i) => {
      if (vector) vectors.push({ chunkIndex: chunks[i].index, vector });
    });
    await this.index.upsert(companyId, documentId, vectors);
    return vectors.length;
  }

  /** Vectors of several texts; an empty vector where the model reads nothing of a text. */
  async embedMany(texts: string[]): Promise<Float32Array[]> {
    return (await this.encoder.embedPassages(texts)).map((v) => v ?? new Float32Array(0));
  }

  delete(companyId: string, documentId: string): Promise<number> {
    return this.index.delete(companyId, documentId);
  }

  async search(companyId: string, query: string, topK: number, wordContexts?: ReadonlyMap<string, string>): Promise<DenseSearchResult> {
    const model = this.encoder.model;
    const { vector, unknownWords } = await this.encoder.embedQuery(query, { wordContexts });
    if (!vector) return { hits: [], noKnownWords: true, unknownWords, model };
    return { hits: await this.index.search(companyId, vector, topK), noKnownWords: false, unknownWords, model };
  }

  count(companyId: string): Promise<number> {
    return this.index.count(companyId);
  }
}
