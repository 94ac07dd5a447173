import { Inject, Injectable } from '@nestjs/common';
import { DocumentsRepository } from '@cs/records';
import { skillKey } from '@cs/search-filters';
import { KeywordQueryError, conditionJudge, conditionsOf, parseKeywordQuery, type KeywordQuery } from '@cs/text-analysis';
import { DocumentTexts } from '../document-texts';
import type { Candidate } from './candidate';
import type { DenseLeg } from './dense-retrieval';
import type { SearchCommand } from './search-command';
import { inStageSpan } from './stage-span';
import { failUnsearchable } from './unsearchable-query';

/**
 * The search's query in the keyword query language (sparse and hybrid). The gateway refused a
 * malformed one when the search was created; one it let through before it checked fails the
 * search at once, not retryable.
 */
export function keywordQueryOf(command: SearchCommand): KeywordQuery {
  try {
    return parseKeywordQuery(command.query, { skillKey });
  } catch (error) {
    if (error instanceof KeywordQueryError) failUnsearchable(`query ${error.message}`);
    throw error;
  }
}

/** The records read here: the profile's skills of CVs, for `skill:` conditions. */
export interface ProfileSkillReads {
  /** A profile stored before skills were read has none. */
  getMany(companyId: string, ids: string[], options: { withText: boolean }): Promise<ReadonlyMap<string, { profile: object | null }>>;
}

/**
 * Holds hybrid's dense candidates to the query's + and - clauses: the keyword index applied them
 * to its own hits, but the dense leg reads meaning and knows nothing of words. Each dense
 * candidate the keyword leg did not return is judged from its text (and its profile's skills) as
 * the keyword indexes judge a CV (`conditionJudge`), so no hybrid result holds an excluded word.
 */
@Injectable()
export class KeywordConditions {
  constructor(
    @Inject(DocumentsRepository) private readonly documents: ProfileSkillReads,
    private readonly texts: DocumentTexts,
  ) {}

  /** The dense leg without the candidates that fail the conditions; `checked` are the keyword leg's hits, which meet them. */
  async holdDenseLeg(command: SearchCommand, query: KeywordQuery, leg: DenseLeg, checked: readonly Candidate[]): Promise<DenseLeg> {
    const conditions = conditionsOf(query);
    if (!conditions.any || leg.candidates.length === 0) return leg;
    const known = new Set(checked.map((c) => c.documentId));
    const unchecked = leg.candidates.map((c) => c.documentId).filter((id) => !known.has(id));
    const meeting = await inStageSpan(
      'conditions',
      command,
      (ids) => ids.size,
      async () => {
        // The reranker reads these texts next: they stay in the cache for it.
        const [texts, skills] = await Promise.all([
          this.texts.texts(command.companyId, unchecked),
          conditions.readSkills ? this.skillsOf(command.companyId, unchecked) : new Map<string, string[]>(),
        ]);
        const meets = conditionJudge(query);
        return new Set(
          unchecked.filter((id) => {
            const text = texts.get(id);
            return text !== undefined && meets(text, skills.get(id) ?? []);
          }),
        );
      },
    );
    return { ...leg, candidates: leg.candidates.filter((c) => known.has(c.documentId) || meeting.has(c.documentId)) };
  }

  /** Each CV's skills as the stores' attributes name them (vocabulary keys); none for a profile stored before skills were read. */
  private async skillsOf(companyId: string, ids: string[]): Promise<Map<string, string[]>> {
    const documents = await this.documents.getMany(companyId, ids, { withText: false });
    return new Map([...documents].map(([id, d]) => [id, profileSkills(d.profile).flatMap((name) => skillKey(name) ?? [])]));
  }
}

/** The skills a stored profile names; none where it names none (stored before skills were read). */
function profileSkills(profile: object | null): string[] {
  const skills: unknown = profile && 'skills' in profile ? profile.skills : undefined;
  return Array.isArray(skills) ? skills.filter((s): s is string => typeof s === 'string') : [];
}

// Nest injects the repository untyped: this fails to compile should its reads stop fitting.
const _repositoryReadsProfiles = (documents: DocumentsRepository): ProfileSkillReads => documents;
