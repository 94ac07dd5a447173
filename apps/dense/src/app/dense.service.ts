import { Inject, Injectable } from '@nestjs/common';
import { QUERY_FEEDBACK, SentenceEmbedder, feedbackQuery, type Chunk } from '@cs/embeddings';
import { VECTOR_INDEX, type ChunkVector, type DenseClient, type DenseSearchResult, type VectorIndex } from '@cs/ports';
import { SENTENCE_EMBEDDER } from '@cs/wiring';

/** Embeds CVs (the whole with its headline, and each passage) and queries, and searches the vector index. */
@Injectable()
export class DenseService implements DenseClient {
  constructor(
    @Inject(SENTENCE_EMBEDDER) private readonly embedder: SentenceEmbedder,
    @Inject(VECTOR_INDEX) private readonly index: VectorIndex,
  ) {}

  async upsert(companyId: string, documentId: string, text: string, chunks: Chunk[]): Promise<number> {
    const vectors: ChunkVector[] = [];
    const whole = this.embedder.embedDocument(text);
    if (whole) vectors.push({ chunkIndex: -1, vector: whole });
    for (const chunk of chunks) {
      const vector = this.embedder.embed(chunk.text);
      if (vector) vectors.push({ chunkIndex: chunk.index, vector });
    }
    await this.index.upsert(companyId, documentId, vectors);
    return vectors.length;
  }

  /** Vectors of several texts; an empty vector where no word of a text is known. */
  embedMany(texts: string[]): Float32Array[] {
    return texts.map((t) => this.embedder.embed(t) ?? new Float32Array(0));
  }

  delete(companyId: string, documentId: string): Promise<number> {
    return this.index.delete(companyId, documentId);
  }

  /** The query's nearest CVs, searched again with the query moved towards its best few (see QUERY_FEEDBACK). */
  async search(companyId: string, query: string, topK: number, wordContexts?: ReadonlyMap<string, string>): Promise<DenseSearchResult> {
    const { vector, unknownWords } = this.embedder.readQuery(query, wordContexts);
    if (!vector) return { hits: [], noKnownWords: true, unknownWords };
    const first = await this.index.search(companyId, vector, QUERY_FEEDBACK.minDocuments);
    if (first.length < QUERY_FEEDBACK.minDocuments) return { hits: first.slice(0, topK), noKnownWords: false, unknownWords };
    const best = await this.index.documentVectors(
      companyId,
      first.slice(0, QUERY_FEEDBACK.documents).map((hit) => hit.documentId),
    );
    const moved = feedbackQuery(vector, [...best.values()]);
    return { hits: await this.index.search(companyId, moved, topK), noKnownWords: false, unknownWords };
  }

  count(companyId: string): Promise<number> {
    return this.index.count(companyId);
  }
}
