import { RRF_K, reciprocalRankFusion } from '@cs/ranking';
import type { FusionMetadata } from '@cs/search-domain';
import { round4, type Candidate } from './candidate';

/**
 * Hybrid's two legs as one list by reciprocal-rank fusion: a CV found by both outranks one found
 * by one. Each candidate keeps both legs' scores and dense's best chunk (for its highlight).
 */
export function fuseLegs(
  denseHits: readonly Candidate[],
  sparseHits: readonly Candidate[],
): { candidates: Candidate[]; fusion: FusionMetadata } {
  const fused = reciprocalRankFusion([denseHits.map((h) => h.documentId), sparseHits.map((h) => h.documentId)]);
  const denseById = new Map(denseHits.map((h) => [h.documentId, h]));
  const sparseById = new Map(sparseHits.map((h) => [h.documentId, h]));
  const candidates: Candidate[] = fused.map((f) => {
    const d = denseById.get(f.id);
    const s = sparseById.get(f.id);
    return {
      documentId: f.id,
      score: f.normalized,
      scores: { ...(d ? { dense: d.scores.dense } : {}), ...(s ? { sparse: s.scores.sparse } : {}), fused: round4(f.normalized) },
      chunkIndex: d?.chunkIndex,
    };
  });
  return {
    candidates,
    fusion: {
      method: 'reciprocal-rank-fusion',
      k: RRF_K,
      denseCandidates: denseHits.length,
      sparseCandidates: sparseHits.length,
      fusedCandidates: candidates.length,
    },
  };
}
