import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '@cs/config';
import { criteriaAssessor, type JobCriteria } from '@cs/job-criteria';
import { DocumentsRepository } from '@cs/records';
import { SPARSE_CLIENT, type SparseClient } from '@cs/ports';
import type { SearchMatch } from '@cs/records';
import { MATCH_CANDIDATES, MAX_NEAR_MISSES, type CandidateMatch, type MatchOutcome } from '@cs/search-domain';
import type { SearchFilter } from '@cs/search-filters';
import { InjectConfig } from '@cs/service-kit';
import { analyze, type ParsedQuery } from '@cs/text-analysis';
import { DocumentTexts } from '../../document-texts';
import { clamp01, round4, type Candidate } from '../../stages/candidate';
import { DenseRetrieval, denseMetadataOf } from '../../stages/dense-retrieval';
import { explainResults } from '../../stages/explain';
import { fuseLegsInSpan } from '../../stages/fusion';
import { Reranking } from '../../stages/reranking';
import { ResultDocuments } from '../../stages/result-documents';
import type { SearchCommand, SearchOutcome } from '../../stages/search-command';
import { SkillPhrases, skillPhrasesOf } from '../../stages/skill-phrases';
import { SparseRetrieval } from '../../stages/sparse-retrieval';
import { StageClock } from '../../stages/stage-clock';
import { inStageSpan } from '../../stages/stage-span';
import { NOTHING_TO_SEARCH, failUnsearchable } from '../../stages/unsearchable-query';

/** The records read here: the profiles the criteria are assessed against, the near misses' names. */
export type CandidateProfiles = Pick<DocumentsRepository, 'getProfiles' | 'getSearchable'>;

type AssessedCandidate = Candidate & { match: CandidateMatch };

/**
 * The client's filter with the CVs holding its text-matched skills, as the search's own filter
 * found them (its phrases are among the search's): the stores apply a phrase by its holders.
 */
function withPhraseHolders(base: SearchFilter | null, searched: SearchFilter | null): SearchFilter | null {
  if (!base?.skills?.phrases) return base;
  return { ...base, skills: { ...base.skills, phraseHolders: searched?.skills?.phraseHolders ?? [] } };
}

/** Most ids of CVs holding required skills matched as text that one requirement count carries. */
export const MAX_COUNTED_PHRASE_IDS = 5000;

/** The dense leg and the reranker read this much of the criteria's text. */
const MEANING_CHARS = 500;

/**
 * What the dense leg and the reranker read: the title and the work as the posting describes it
 * (a description reads as CVs do; a list of skill names read as a sentence ranked worse); criteria
 * without a description, the title and the required skills, weightiest first.
 */
export function meaningOf(criteria: JobCriteria): string {
  const words = criteria.summary === null ? criteria.skills.required.map((s) => s.name) : [criteria.summary];
  let text = criteria.title ?? '';
  for (const word of words) {
    const next = text ? `${text}, ${word}` : word;
    if (next.length <= MEANING_CHARS) text = next;
    else if (words.length === 1) text = next.slice(0, MEANING_CHARS).replace(/\s+\S*$/, '');
  }
  return text;
}

/** The keyword leg's query: the title's words and every skill, each a part of its own. */
export function keywordQueryOf(criteria: JobCriteria): ParsedQuery {
  const texts = [criteria.title, ...criteria.skills.required.map((s) => s.name), ...criteria.skills.preferred.map((s) => s.name)];
  const parts = texts
    .filter((t): t is string => t !== null)
    .map((text) => ({ text, terms: analyze(text).map((t) => t.term), phrase: false }))
    .filter((p) => p.terms.length > 0);
  return { raw: parts.map((p) => p.text).join(', '), parts };
}

/**
 * match: CVs ranked against a job posting's criteria. Both legs, fused as hybrid's are: the
 * keyword leg searches the title and the skills, the dense leg reads `meaningOf` them; the
 * builtin reranker reads the best MATCH_CANDIDATES.reranked, the best `assessed` (or `top_k`) of
 * its order are assessed against the criteria (libs/job-criteria), and the results are ranked
 * by both scores, `matchCriteriaShare` (RankingTuning) of it the criteria's. Strict, the requirements were
 * already filters (the search's filter, applied by every leg).
 */
@Injectable()
export class RunMatchSearch {
  constructor(
    private readonly denseRetrieval: DenseRetrieval,
    private readonly sparseRetrieval: SparseRetrieval,
    private readonly reranking: Reranking,
    private readonly resultDocuments: ResultDocuments,
    private readonly texts: DocumentTexts,
    @Inject(DocumentsRepository) private readonly documents: CandidateProfiles,
    @Inject(SPARSE_CLIENT) private readonly sparse: Pick<SparseClient, 'requirementCounts'>,
    private readonly skillPhrases: SkillPhrases,
    @InjectConfig('rankingTuning') private readonly tuning: Pick<AppConfig['rankingTuning'], 'hybridDenseShare' | 'matchCriteriaShare'>,
  ) {}

  async execute(command: SearchCommand): Promise<SearchOutcome<'match'>> {
    const clock = new StageClock<'retrieval' | 'rerank' | 'documents' | 'explain'>();
    const match = command.match;
    if (!match) throw new Error('a match search without its criteria');
    // Counted beside the search: the counts read the keyword store's attributes, not the ranking.
    const counting = match.requirements ? this.countRequirements(command, match.requirements) : Promise.resolve(null);
    // Awaited below; marked handled now, so that a failure of the search first leaves no unhandled rejection.
    counting.catch(() => undefined);
    const parsed = keywordQueryOf(match.criteria);
    const { ranked, denseLeg, fusion, reranker } = await this.rank(command, match, parsed, MATCH_CANDIDATES.reranked, () =>
      clock.lap('retrieval'),
    );
    const assessed = await inStageSpan(
      'rerank criteria',
      command,
      (a) => a.length,
      () => this.assess(command, match, ranked),
    );
    clock.lap('rerank');
    const documents = await this.resultDocuments.read(command, assessed.slice(0, command.topK));
    clock.lap('documents');
    const matches = new Map(assessed.map((a) => [a.documentId, a.match]));
    const results = await inStageSpan(
      'explain',
      command,
      (r) => r.length,
      () => explainResults(documents, parsed).map((r) => ({ ...r, match: matches.get(r.documentId) })),
    );
    clock.lap('explain');
    // Strict, every assessed candidate met the requirements' filters: near misses come from a search without them.
    // Strict, near misses come from the search without the requirements; a result is no near miss, whatever its assessment says.
    const shown = new Set(results.map((r) => r.documentId));
    const missing = match.strict
      ? (await this.assessedWithoutRequirements(command, match, parsed)).filter((a) => !shown.has(a.documentId))
      : assessed;
    const counts = await counting;
    // A search queued before its requirements were stored has none to count: it reports no outcome.
    const matchOutcome = counts ? { ...counts, nearMisses: await this.nearMisses(command, missing) } : undefined;
    return {
      results,
      metadata: {
        topK: command.topK,
        rerankTopN: MATCH_CANDIDATES.reranked,
        reranker,
        ...denseMetadataOf(denseLeg),
        strict: match.strict,
        criteriaShare: this.tuning.matchCriteriaShare,
        fusion,
        stageTimingsMs: clock.timings(),
      },
      ...(matchOutcome ? { matchOutcome } : {}),
    };
  }

  /** Both legs fused (then `retrieved` is called), then the builtin reranker's best `reranked`. */
  private async rank(command: SearchCommand, match: SearchMatch, parsed: ParsedQuery, reranked: number, retrieved?: () => void) {
    const meaning: SearchCommand = { ...command, query: meaningOf(match.criteria), rerankTopN: reranked };
    const depth = Math.max(command.topK, MATCH_CANDIDATES.legs);
    const [denseLeg, sparseHits] = await Promise.all([
      meaning.query ? this.denseRetrieval.retrieve(meaning, depth) : null,
      parsed.parts.length ? this.sparseRetrieval.retrieve(command, parsed, depth) : Promise.resolve([]),
    ]);
    if ((!denseLeg || denseLeg.noKnownWords) && !parsed.parts.length) failUnsearchable(NOTHING_TO_SEARCH);
    if (!denseLeg) throw new Error('criteria with keywords but no text for the dense leg');
    const { candidates, fusion } = await fuseLegsInSpan(command, denseLeg.candidates, sparseHits, this.tuning.hybridDenseShare);
    retrieved?.();
    const { ranked, reranker } = await this.reranking.builtin(meaning, candidates, denseLeg);
    return { ranked, denseLeg, fusion, reranker };
  }

  /**
   * The candidates a strict search's requirements kept out, assessed: the search again with the
   * client's own filters only, its reranker reading fewer (these are a short list, not the results).
   */
  private async assessedWithoutRequirements(command: SearchCommand, match: SearchMatch, parsed: ParsedQuery): Promise<AssessedCandidate[]> {
    const relaxed: SearchCommand = { ...command, filter: withPhraseHolders(match.requirements?.base ?? null, command.filter) };
    return inStageSpan(
      'near misses',
      command,
      (a) => a.length,
      async () => {
        const { ranked } = await this.rank(relaxed, match, parsed, MATCH_CANDIDATES.assessed);
        return this.assess(relaxed, match, ranked);
      },
    );
  }

  /** The best assessed candidates missing exactly one required criterion, with their names. */
  private async nearMisses(command: SearchCommand, assessed: readonly AssessedCandidate[]): Promise<MatchOutcome['nearMisses']> {
    const missingOne = assessed
      .map((a) => ({ candidate: a, missing: a.match.criteria.filter((c) => c.criterion.required && c.status === 'missing') }))
      .filter((a) => a.missing.length === 1)
      .slice(0, MAX_NEAR_MISSES);
    if (missingOne.length === 0) return [];
    const names = await this.documents.getSearchable(
      command.companyId,
      missingOne.map((m) => m.candidate.documentId),
    );
    return missingOne.flatMap(({ candidate, missing }) => {
      const found = names.get(candidate.documentId);
      return found
        ? [
            {
              documentId: candidate.documentId,
              documentName: found.documentName,
              score: round4(candidate.score),
              missing: missing[0].criterion,
              match: candidate.match,
            },
          ]
        : [];
    });
  }

  /**
   * How many CVs meet every requirement, and how many each one alone keeps out, most first. A
   * required skill matched as text counts by the CVs holding it, unless too many do to filter by,
   * or the skills already counted so hold MAX_COUNTED_PHRASE_IDS: a count's request carries every
   * requirement once per requirement (Elasticsearch's buckets), so their ids are bounded.
   */
  private async countRequirements(
    command: SearchCommand,
    requirements: NonNullable<SearchMatch['requirements']>,
  ): Promise<Pick<MatchOutcome, 'candidatesMeetingAll' | 'relaxations'>> {
    return inStageSpan(
      'requirement counts',
      command,
      (c) => c.candidatesMeetingAll,
      async () => {
        const found = new Map((command.filter?.skills?.phraseHolders ?? []).map((h) => [h.phrase, h.documentIds]));
        // Each requirement's phrases with their holders (null: a phrase too many CVs hold), looked up together.
        const holders = await Promise.all(
          requirements.each.map((r) =>
            Promise.all(
              skillPhrasesOf(r.filter).map(async (phrase) => {
                const documentIds = found.get(phrase) ?? (await this.skillPhrases.holdersOf(command.companyId, phrase));
                return documentIds === null ? null : { phrase, documentIds };
              }),
            ),
          ),
        );
        let phraseIds = 0;
        const counted: typeof requirements.each = [];
        requirements.each.forEach((r, i) => {
          const phraseHolders = holders[i];
          if (phraseHolders.length === 0 || !r.filter.skills) {
            counted.push(r);
            return;
          }
          const ids = phraseHolders.reduce((n, h) => n + (h?.documentIds.length ?? 0), 0);
          if (phraseHolders.some((h) => h === null) || phraseIds + ids > MAX_COUNTED_PHRASE_IDS) return;
          phraseIds += ids;
          counted.push({
            ...r,
            filter: { ...r.filter, skills: { ...r.filter.skills, phraseHolders: phraseHolders.filter((h) => h !== null) } },
          });
        });
        const counts = await this.sparse.requirementCounts(
          command.companyId,
          withPhraseHolders(requirements.base, command.filter),
          counted.map((r) => r.filter),
        );
        const relaxations = counted
          .map((r, i) => ({ criterion: r.criterion, additionalCandidates: counts.failingOnly[i] ?? 0 }))
          .sort((a, b) => b.additionalCandidates - a.additionalCandidates);
        return { candidatesMeetingAll: counts.meetingAll, relaxations };
      },
    );
  }

  /** The reranked candidates assessed against the criteria, ranked by both scores; a CV gone meanwhile drops out. */
  private async assess(
    command: SearchCommand,
    match: NonNullable<SearchCommand['match']>,
    ranked: readonly Candidate[],
  ): Promise<AssessedCandidate[]> {
    // The reranker's best are assessed; the rest could rise only by a criteria score far above theirs.
    const best = ranked.slice(0, Math.max(command.topK, MATCH_CANDIDATES.assessed));
    const ids = best.map((c) => c.documentId);
    const [texts, profiles] = await Promise.all([
      this.texts.texts(command.companyId, ids),
      this.documents.getProfiles(command.companyId, ids),
    ]);
    const assessCv = criteriaAssessor(match.criteria, match.place, new Date());
    const share = this.tuning.matchCriteriaShare;
    return best
      .flatMap((c) => {
        const text = texts.get(c.documentId);
        if (text === undefined) return [];
        const found = assessCv({ text, profile: profiles.get(c.documentId) ?? null });
        const score = clamp01((1 - share) * c.score + share * found.score);
        return [{ ...c, score, scores: { ...c.scores, criteria: round4(found.score) }, match: found }];
      })
      .sort((a, b) => b.score - a.score);
  }
}
