import { Inject, Injectable } from '@nestjs/common';
import { DOMAIN_NAMES } from '@cs/cv-understanding';
import { SPARSE_CLIENT, type SparseClient } from '@cs/ports';
import type { SearchFacets } from '@cs/search-domain';
import { foldName, skillName, type FacetCounts, type FacetField } from '@cs/search-filters';
import type { SearchCommand } from './search-command';
import { inStageSpan } from './stage-span';

const DOMAIN_OF = new Map(DOMAIN_NAMES.map((name) => [foldName(name), name]));

/** Values as the profile writes them (the stores count keys): a facet's value is a filter's value. */
function named(counts: FacetCounts): FacetCounts {
  const fields = { ...counts.fields };
  if (fields.skills) fields.skills = fields.skills.map((c) => ({ ...c, value: skillName(c.value) }));
  if (fields.domain) fields.domain = fields.domain.map((c) => ({ ...c, value: DOMAIN_OF.get(c.value) ?? c.value }));
  return { ...counts, fields };
}

/**
 * The search's facets: each asked field's values counted over the company's CVs that pass its
 * filters, and over its results. The keyword store counts both (it keeps every CV's attributes).
 */
@Injectable()
export class FacetCounting {
  constructor(@Inject(SPARSE_CLIENT) private readonly sparse: SparseClient) {}

  /** Over the CVs that pass: independent of the results, so it runs beside the search. */
  passing(command: SearchCommand, fields: readonly FacetField[]): Promise<FacetCounts> {
    return inStageSpan(
      'facets passing',
      command,
      (c) => c.cvs,
      async () => named(await this.sparse.facets(command.companyId, command.filter, fields)),
    );
  }

  /** Over the results, which all pass. */
  async results(command: SearchCommand, fields: readonly FacetField[], documentIds: string[]): Promise<FacetCounts> {
    if (documentIds.length === 0) return { cvs: 0, fields: Object.fromEntries(fields.map((f) => [f, []])) };
    return named(await this.sparse.facets(command.companyId, { documentIds }, fields));
  }

  async count(
    command: SearchCommand,
    fields: readonly FacetField[],
    passing: Promise<FacetCounts>,
    documentIds: string[],
  ): Promise<SearchFacets> {
    const [all, results] = await Promise.all([passing, this.results(command, fields, documentIds)]);
    return { passing: all, results };
  }
}
