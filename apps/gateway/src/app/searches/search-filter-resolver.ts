import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { invalid } from '@cs/contracts';
import { DOMAIN_NAMES, languageName } from '@cs/cv-understanding';
import { preloadGazetteer, resolveParts, resolvePlace } from '@cs/gazetteer';
import { InvalidFilterError, compileFilters, type SearchFilter, type SearchFilters } from '@cs/search-filters';

/**
 * A search's filters resolved for the stores when it is created: skills through the vocabulary,
 * places through the gazetteer. A name neither knows is the client's 400, at once, not a search
 * that fails later; the resolved filter is stored with the search, so running it needs neither.
 */
@Injectable()
export class SearchFilterResolver implements OnApplicationBootstrap {
  /**
   * The gazetteer is read once started, not by the first search that names a place: that search
   * would wait the second it takes (longer on a busy machine).
   */
  onApplicationBootstrap(): void {
    setTimeout(preloadGazetteer, 0).unref();
  }

  resolve(filters: SearchFilters | null | undefined): SearchFilter | null {
    try {
      return compileFilters(filters, { places: { resolvePlace, resolveParts }, domains: DOMAIN_NAMES, language: languageName });
    } catch (error) {
      if (error instanceof InvalidFilterError) throw invalid(error.message);
      throw error;
    }
  }
}
