import type { DegreeLevel, SearchFilters, SeniorityLevel } from './types';

/** A place by name, as `locatedIn` takes it: a country, and a region and city in it when named. */
export interface PlaceFilter {
  city?: string;
  region?: string;
  country?: string;
}

/** Bounds on the date given at upload, `MM-YYYY`, inclusive; either may be left open. */
export interface DateRange {
  from?: string;
  to?: string;
}

/** The radius `near` uses when none is given, in kilometres. */
export const DEFAULT_RADIUS_KM = 50;

type Lists = 'all' | 'any' | 'none';

function finite(value: number, what: string): number {
  // JSON has no NaN or Infinity: they would be sent as null.
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new TypeError(`${what} must be a finite number, not ${String(value)}`);
  return value;
}

/**
 * Builds the `filters` of a search, one condition a method. Immutable: every method returns a new
 * builder and leaves the one it was called on as it was, so a base can be shared and extended.
 * Methods that take names add to what earlier calls gave (called with none, they add nothing);
 * the others replace. It checks only what JSON cannot carry (a number that is not finite): the
 * service checks the rest (bounds, known skills, places and domains) and answers a 400 naming
 * the field.
 *
 * ```ts
 * const filters = searchFilters().allSkills('java', 'k8s').minYears(5).near('Austin, TX', 50).build();
 * await cs.search('hybrid', 'backend engineer', { filters });
 * ```
 */
export class SearchFiltersBuilder {
  private constructor(private readonly filters: Readonly<SearchFilters>) {}

  /** A builder holding a copy of these filters (empty when none). */
  static from(filters: SearchFilters = {}): SearchFiltersBuilder {
    return new SearchFiltersBuilder(structuredClone(filters));
  }

  /**
   * CVs that name every one of these skills (through the skills vocabulary: `k8s` is Kubernetes);
   * a skill the vocabulary does not know, the CVs whose text holds it as a phrase.
   */
  allSkills(...skills: string[]): SearchFiltersBuilder {
    return this.skillList('all', skills);
  }

  /** CVs that name at least one of these skills. */
  anySkill(...skills: string[]): SearchFiltersBuilder {
    return this.skillList('any', skills);
  }

  /** CVs that name none of these skills. */
  noSkill(...skills: string[]): SearchFiltersBuilder {
    return this.skillList('none', skills);
  }

  /** At least this many years of experience. */
  minYears(years: number): SearchFiltersBuilder {
    return this.with({ experienceYears: { ...this.filters.experienceYears, gte: finite(years, 'minYears') } });
  }

  /** At most this many years of experience. */
  maxYears(years: number): SearchFiltersBuilder {
    return this.with({ experienceYears: { ...this.filters.experienceYears, lte: finite(years, 'maxYears') } });
  }

  /** Any of these seniority levels (see SENIORITY_LEVELS). */
  seniority(...levels: SeniorityLevel[]): SearchFiltersBuilder {
    return levels.length ? this.with({ seniority: [...(this.filters.seniority ?? []), ...levels] }) : this;
  }

  /** Any of these domains, as the profile names them (`Software engineering`, `Healthcare`, …). */
  domain(...domains: string[]): SearchFiltersBuilder {
    return domains.length ? this.with({ domain: [...(this.filters.domain ?? []), ...domains] }) : this;
  }

  /** CVs whose place lies within radiusKm (default 50) of this place (`Austin, TX`, `Berlin, Germany`). Replaces any place condition. */
  near(place: string, radiusKm: number = DEFAULT_RADIUS_KM): SearchFiltersBuilder {
    return this.with({ location: { near: place, radiusKm: finite(radiusKm, 'radiusKm') } });
  }

  /** CVs in this country (and region, and city, when named). Replaces any place condition. */
  locatedIn(place: PlaceFilter): SearchFiltersBuilder {
    const { city, region, country } = place;
    return this.with({
      location: {
        ...(city !== undefined ? { city } : {}),
        ...(region !== undefined ? { region } : {}),
        ...(country !== undefined ? { country } : {}),
      },
    });
  }

  /** At least this degree (see DEGREE_LEVELS): `bachelor` passes master and doctorate. */
  minDegree(level: DegreeLevel): SearchFiltersBuilder {
    return this.with({ degree: { ...this.filters.degree, gte: level } });
  }

  /** At most this degree. */
  maxDegree(level: DegreeLevel): SearchFiltersBuilder {
    return this.with({ degree: { ...this.filters.degree, lte: level } });
  }

  /** CVs that name every one of these languages. */
  allLanguages(...languages: string[]): SearchFiltersBuilder {
    return this.languageList('all', languages);
  }

  /** CVs that name at least one of these languages. */
  anyLanguage(...languages: string[]): SearchFiltersBuilder {
    return this.languageList('any', languages);
  }

  /** Documents dated (at upload) from `from` to `to`, `MM-YYYY`, inclusive. Replaces earlier bounds. */
  documentDate(range: DateRange): SearchFiltersBuilder {
    return this.with({
      documentDate: { ...(range.from !== undefined ? { gte: range.from } : {}), ...(range.to !== undefined ? { lte: range.to } : {}) },
    });
  }

  /** Only these documents (with earlier calls', if any). An empty list keeps to no document at all. */
  onlyDocuments(documentIds: readonly string[]): SearchFiltersBuilder {
    return this.with({ documentIds: [...(this.filters.documentIds ?? []), ...documentIds] });
  }

  /** Not these documents. */
  excludeDocuments(documentIds: readonly string[]): SearchFiltersBuilder {
    return this.with({ excludeDocumentIds: [...(this.filters.excludeDocumentIds ?? []), ...documentIds] });
  }

  /** The filters, as a search's `filters` option takes them: a new object each call. */
  build(): SearchFilters {
    return structuredClone(this.filters);
  }

  private with(change: Partial<SearchFilters>): SearchFiltersBuilder {
    return new SearchFiltersBuilder({ ...this.filters, ...change });
  }

  private skillList(list: Lists, skills: string[]): SearchFiltersBuilder {
    if (skills.length === 0) return this;
    const current = this.filters.skills ?? {};
    return this.with({ skills: { ...current, [list]: [...(current[list] ?? []), ...skills] } });
  }

  private languageList(list: Exclude<Lists, 'none'>, languages: string[]): SearchFiltersBuilder {
    if (languages.length === 0) return this;
    const current = this.filters.languages ?? {};
    return this.with({ languages: { ...current, [list]: [...(current[list] ?? []), ...languages] } });
  }
}

/** A new, empty filter builder (or one starting from these filters, say a search's `filters` echoed back). */
export function searchFilters(from?: SearchFilters): SearchFiltersBuilder {
  return SearchFiltersBuilder.from(from);
}
