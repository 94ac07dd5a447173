import { Inject, Injectable } from '@nestjs/common';
import { DocumentsRepository } from '@cs/records';
import { DocumentTexts, type DocumentContent } from '../document-texts';
import type { Candidate } from './candidate';
import type { SearchCommand } from './search-command';
import { inStageSpan } from './stage-span';

/** A ranked candidate that is still a searchable document, with what its result shows and explains. */
export interface ResultDocument {
  candidate: Candidate;
  documentName: string;
  documentDate: string;
  content: DocumentContent;
}

/** The records read here: which documents may still be shown, and their names and dates. */
export type SearchableDocuments = Pick<DocumentsRepository, 'getSearchable'>;

/** Reads the ranked documents the results will show, after the last stage. */
@Injectable()
export class ResultDocuments {
  constructor(
    @Inject(DocumentsRepository) private readonly documents: SearchableDocuments,
    private readonly texts: DocumentTexts,
  ) {}

  /** The candidates, in their order, whose documents are still searchable and have their text. */
  async read(command: SearchCommand, ranked: readonly Candidate[]): Promise<ResultDocument[]> {
    // A delete wins over any index lag: only documents still searchable become results.
    const ids = ranked.map((r) => r.documentId);
    const [searchable, contents] = await inStageSpan(
      'documents',
      command,
      ([found]) => found.size,
      () => Promise.all([this.documents.getSearchable(command.companyId, ids), this.texts.contents(command.companyId, ids)]),
    );
    return ranked.flatMap((candidate) => {
      const found = searchable.get(candidate.documentId);
      const content = contents.get(candidate.documentId);
      return found && content ? [{ candidate, documentName: found.documentName, documentDate: found.documentDate, content }] : [];
    });
  }
}
