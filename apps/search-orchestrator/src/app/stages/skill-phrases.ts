import { Inject, Injectable } from '@nestjs/common';
import { SPARSE_CLIENT, type SparseClient } from '@cs/ports';
import { MAX_TEXT_SKILL_CVS, type SearchFilter } from '@cs/search-filters';
import type { SearchCommand } from './search-command';
import { inStageSpan } from './stage-span';
import { failUnsearchable } from './unsearchable-query';

/** The skills of a filter that the vocabulary does not know, matched as phrases of the CVs' text: `all`, `any`, then `none`. */
export function skillPhrasesOf(filter: SearchFilter | null): string[] {
  const phrases = filter?.skills?.phrases;
  return phrases ? [...new Set([...phrases.all, ...phrases.any, ...phrases.none])] : [];
}

/**
 * Skills matched as text, found before the legs run: the keyword store, which keeps the CVs'
 * words in order, finds the company's CVs holding each phrase, and the filter every leg receives
 * carries those ids (`phraseHolders`), which every store applies as passesFilter does. A phrase
 * more than MAX_TEXT_SKILL_CVS CVs hold fails the search at once, not retryable: its ids would
 * weigh on every leg's request, and a vocabulary skill or a query keyword selects such CVs better.
 */
@Injectable()
export class SkillPhrases {
  constructor(@Inject(SPARSE_CLIENT) private readonly sparse: SparseClient) {}

  /** The command with its phrases' holders in its filter; as it was when the filter has no phrase. */
  async resolve(command: SearchCommand): Promise<SearchCommand> {
    const phrases = skillPhrasesOf(command.filter);
    if (phrases.length === 0 || !command.filter?.skills) return command;
    const skills = command.filter.skills;
    const phraseHolders = await inStageSpan(
      'skill phrases',
      command,
      (holders) => holders.reduce((n, h) => n + h.documentIds.length, 0),
      () =>
        Promise.all(
          phrases.map(async (phrase) => {
            const documentIds = await this.holdersOf(command.companyId, phrase);
            if (documentIds === null)
              failUnsearchable(
                `filters.skills: ${JSON.stringify(phrase)} is not in the skills vocabulary, and more than ${MAX_TEXT_SKILL_CVS} of the company's CVs hold it as text, too many to filter by; use a skill of the vocabulary or a keyword of the query instead`,
              );
            return { phrase, documentIds };
          }),
        ),
    );
    return { ...command, filter: { ...command.filter, skills: { ...skills, phraseHolders } } };
  }

  /** The company's CVs holding the phrase; null when more than MAX_TEXT_SKILL_CVS do. */
  async holdersOf(companyId: string, phrase: string): Promise<string[] | null> {
    const documentIds = await this.sparse.documentsWithPhrase(companyId, phrase, MAX_TEXT_SKILL_CVS + 1);
    return documentIds.length > MAX_TEXT_SKILL_CVS ? null : documentIds;
  }
}
