import {
  DEFAULT_RADIUS_KM,
  DEGREE_LEVELS,
  SENIORITY_LEVELS,
  searchFilters,
  type DegreeLevel,
  type SearchFilters,
  type SeniorityLevel,
} from '@candidate-search/client/node';
import { MAX_RADIUS_KM, SearchFilters as SearchFiltersSchema } from '@cs/search-filters/body';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { CliError, ExitCode } from '../exit-codes';

/** The filter flags of `search`, as commander parses them (repeatable ones absent until given). */
export interface FilterFlags {
  skill?: string[];
  anySkill?: string[];
  excludeSkill?: string[];
  minYears?: number;
  maxYears?: number;
  seniority?: SeniorityLevel[];
  domain?: string[];
  near?: string;
  radius?: number;
  degree?: DegreeLevel;
  language?: string[];
}

const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];
const collectChoice =
  <T extends string>(choices: readonly T[]) =>
  (value: string, previous: T[] | undefined): T[] => {
    if (!(choices as readonly string[]).includes(value)) throw new InvalidArgumentError(`must be one of ${choices.join(', ')}`);
    return [...(previous ?? []), value as T];
  };
/** A number as a person types it (5, 2.5); its bounds are the API's, checked with the rest of the filters. */
const NUMBER = /^\d+(\.\d+)?$/;
const number = (what: string) => (value: string) => {
  if (!NUMBER.test(value)) throw new InvalidArgumentError(`must be a number of ${what}, for example 5`);
  return Number(value);
};

// Checked here rather than by the schema, whose answer for a place condition names only its two shapes.
const radius = (value: string) => {
  if (!NUMBER.test(value) || Number(value) <= 0 || Number(value) > MAX_RADIUS_KM)
    throw new InvalidArgumentError(`must be a number of kilometres above 0 and at most ${MAX_RADIUS_KM}`);
  return Number(value);
};

const FILTERS = 'Filters (every result meets them; repeat a flag to give several):';

/** Adds the filter flags to a command, under a help heading of their own. */
export function addFilterOptions(command: Command): Command {
  const option = (flags: string, description: string) => new Option(flags, description).helpGroup(FILTERS);
  return command
    .addOption(option('--skill <name>', 'a skill every result names (synonyms count: k8s is Kubernetes)').argParser(collect))
    .addOption(option('--any-skill <name>', 'results name at least one of these skills').argParser(collect))
    .addOption(option('--exclude-skill <name>', 'a skill no result names').argParser(collect))
    .addOption(option('--min-years <n>', 'at least this many years of experience').argParser(number('years')))
    .addOption(option('--max-years <n>', 'at most this many years of experience').argParser(number('years')))
    .addOption(
      option('--seniority <level>', `a seniority level results may have: ${SENIORITY_LEVELS.join(', ')}`).argParser(
        collectChoice(SENIORITY_LEVELS),
      ),
    )
    .addOption(option('--domain <name>', 'a domain results are in, as the profile names it (Software engineering)').argParser(collect))
    .addOption(option('--near <place>', 'results within --radius of this place ("Austin, TX", "Berlin, Germany")'))
    .addOption(option('--radius <km>', `the distance --near allows, in km (default ${DEFAULT_RADIUS_KM})`).argParser(radius))
    .addOption(option('--degree <min>', 'the lowest degree results hold (in this order; a higher one passes)').choices(DEGREE_LEVELS))
    .addOption(option('--language <name>', 'a language every result names').argParser(collect));
}

/** The flags each filter field comes from, for messages: the longest prefix of an issue's path wins. */
const FLAGS_OF: readonly (readonly [string, string])[] = [
  ['skills.all', '--skill'],
  ['skills.any', '--any-skill'],
  ['skills.none', '--exclude-skill'],
  ['experienceYears.gte', '--min-years'],
  ['experienceYears.lte', '--max-years'],
  ['experienceYears', '--min-years, --max-years'],
  ['seniority', '--seniority'],
  ['domain', '--domain'],
  ['location', '--near, --radius'],
  ['degree', '--degree'],
  ['languages', '--language'],
];
const flagsFor = (path: readonly PropertyKey[]) => {
  const at = path.map(String).join('.');
  return FLAGS_OF.find(([prefix]) => at === prefix || at.startsWith(`${prefix}.`))?.[1] ?? 'filters';
};

/**
 * The `filters` of a search from its flags, or undefined when none is given. Checked here with
 * the API's own schema (bounds, lengths, a minimum above the maximum), so a bad value is a usage
 * error naming its flag before any request; what only the service knows (skills, places,
 * domains) it checks, answering a 400.
 */
export function filtersFromFlags(flags: FilterFlags): SearchFilters | undefined {
  if (flags.radius !== undefined && flags.near === undefined)
    throw new CliError('--radius needs --near <place>: the distance is from that place', ExitCode.usage);
  let builder = searchFilters()
    .allSkills(...(flags.skill ?? []))
    .anySkill(...(flags.anySkill ?? []))
    .noSkill(...(flags.excludeSkill ?? []))
    .seniority(...(flags.seniority ?? []))
    .domain(...(flags.domain ?? []))
    .allLanguages(...(flags.language ?? []));
  if (flags.minYears !== undefined) builder = builder.minYears(flags.minYears);
  if (flags.maxYears !== undefined) builder = builder.maxYears(flags.maxYears);
  if (flags.near !== undefined) builder = builder.near(flags.near, flags.radius ?? DEFAULT_RADIUS_KM);
  if (flags.degree !== undefined) builder = builder.minDegree(flags.degree);
  const filters = builder.build();
  if (Object.keys(filters).length === 0) return undefined;
  const checked = SearchFiltersSchema.safeParse(filters);
  if (!checked.success)
    throw new CliError(checked.error.issues.map((issue) => `${flagsFor(issue.path)}: ${issue.message}`).join('; '), ExitCode.usage);
  return filters;
}

/** The filters' names, for the line above a table: `skills, experienceYears`. */
export function filterNames(filters: SearchFilters | undefined): string {
  return Object.keys(filters ?? {}).join(', ');
}
