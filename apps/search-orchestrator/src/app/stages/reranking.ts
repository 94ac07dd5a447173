import { Inject, Injectable } from '@nestjs/common';
import { RERANKER_CLIENT, type CandidateTexts, type RerankCandidate, type RerankResponse, type RerankerClient } from '@cs/ports';
import type { RerankerMetadata } from '@cs/search-domain';
import { DocumentTexts } from '../document-texts';
import { clamp01, round4, type Candidate } from './candidate';
import type { DenseLeg } from './dense-retrieval';
import type { SearchCommand } from './search-command';
import { inStageSpan } from './stage-span';

/** The reranked candidates, best first (`rerankTopN` of them at most), and who reranked them. */
export interface Reranked {
  ranked: Candidate[];
  reranker: RerankerMetadata;
}

/** Rescores first-stage candidates: builtin-rerank's builtin scorer, or hybrid's external provider. */
@Injectable()
export class Reranking {
  constructor(
    @Inject(RERANKER_CLIENT) private readonly reranker: RerankerClient,
    private readonly texts: DocumentTexts,
  ) {}

  /** The builtin reranker; the dense leg lets it read the query (and, with another model than builtin, meaning) as dense search did. */
  builtin(command: SearchCommand, candidates: Candidate[], dense: DenseLeg): Promise<Reranked> {
    return this.rerank('rerankBuiltin', command, candidates, dense);
  }

  /** The external provider; when it fails, the reranker service answers with the builtin one, degraded. */
  external(command: SearchCommand, candidates: Candidate[], dense: DenseLeg): Promise<Reranked> {
    return this.rerank('rerankExternal', command, candidates, dense);
  }

  private async rerank(
    call: 'rerankBuiltin' | 'rerankExternal',
    command: SearchCommand,
    candidates: Candidate[],
    dense: DenseLeg,
  ): Promise<Reranked> {
    const response = await inStageSpan(
      'rerank',
      command,
      (r) => r.results.length,
      () =>
        this.reranker[call](
          command.query,
          toRerankCandidates(candidates, dense),
          this.candidateTexts(command.companyId),
          command.rerankTopN,
          dense.wordContexts,
        ),
    );
    return { ranked: applyRerank(candidates, response), reranker: describeReranker(response) };
  }

  /** The reranker reads only the texts it lacks; a CV whose text is gone (deleted meanwhile) drops out. */
  private candidateTexts(companyId: string): CandidateTexts {
    return (ids) => this.texts.texts(companyId, ids);
  }
}

/**
 * The candidates as the reranker takes them. Under a dense model other than the builtin one (whose
 * word vectors the builtin reranker reads itself), each carries that model's cosine; a candidate
 * the dense leg did not find (hybrid's keyword-only ones) gets the leg's lowest, which bounds its own.
 */
function toRerankCandidates(candidates: readonly Candidate[], dense: DenseLeg): RerankCandidate[] {
  if (dense.model.id.startsWith('builtin:')) return candidates.map((c) => ({ id: c.documentId, firstStageScore: c.score }));
  const denseScores = new Map(dense.candidates.map((c) => [c.documentId, c.score]));
  let floor = denseScores.size > 0 ? 1 : 0;
  for (const score of denseScores.values()) floor = Math.min(floor, score);
  return candidates.map((c) => ({ id: c.documentId, firstStageScore: c.score, denseScore: denseScores.get(c.documentId) ?? floor }));
}

/** The reranker's order and scores over the candidates it was given; the first stages' scores stay. */
function applyRerank(candidates: readonly Candidate[], response: RerankResponse): Candidate[] {
  const byId = new Map(candidates.map((c) => [c.documentId, c]));
  return response.results.map((r) => {
    const c = byId.get(r.id)!;
    return { ...c, score: clamp01(r.score), scores: { ...c.scores, rerank: round4(clamp01(r.score)) } };
  });
}

function describeReranker(response: RerankResponse): RerankerMetadata {
  return {
    provider: response.provider,
    degraded: Boolean(response.degraded),
    ...(response.degraded ? { degradedReason: response.degraded.reason } : {}),
  };
}
