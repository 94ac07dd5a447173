import { DENSE_SHARE, convexFusion } from '@cs/ranking';
import type { FusionMetadata } from '@cs/search-domain';
import { round4, type Candidate } from './candidate';
import type { SearchCommand } from './search-command';
import { inStageSpan } from './stage-span';

/**
 * Hybrid's two legs as one list by a convex combination of their min-max normalised scores (see
 * convexFusion): over reciprocal-rank fusion, hybrid nDCG@10 0.872 -> 0.877 on the dev queries and
 * 0.761 -> 0.784 on the semantic dev ones. Each candidate keeps both legs' scores and dense's best
 * chunk (for its highlight).
 */
export function fuseLegs(
  denseHits: readonly Candidate[],
  sparseHits: readonly Candidate[],
  denseShare = DENSE_SHARE,
): { candidates: Candidate[]; fusion: FusionMetadata } {
  const fused = convexFusion(
    denseHits.map((h) => ({ id: h.documentId, score: h.score })),
    sparseHits.map((h) => ({ id: h.documentId, score: h.score })),
    denseShare,
  );
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
      method: 'convex-combination',
      denseShare,
      denseCandidates: denseHits.length,
      sparseCandidates: sparseHits.length,
      fusedCandidates: candidates.length,
    },
  };
}

/** fuseLegs, as the search's `fusion` span. */
export function fuseLegsInSpan(
  command: SearchCommand,
  denseHits: readonly Candidate[],
  sparseHits: readonly Candidate[],
  denseShare: number,
): Promise<{ candidates: Candidate[]; fusion: FusionMetadata }> {
  return inStageSpan(
    'fusion',
    command,
    (fused) => fused.candidates.length,
    async () => fuseLegs(denseHits, sparseHits, denseShare),
  );
}
