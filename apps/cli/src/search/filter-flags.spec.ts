import { SearchFilters as SearchFiltersSchema } from '@cs/search-filters/body';
import { Command, CommanderError } from 'commander';
import { CliError, ExitCode } from '../exit-codes';
import { addFilterOptions, filtersFromFlags, type FilterFlags } from './filter-flags';

/** The filters a search's flags give, parsed by commander as the CLI parses them. */
function filtersOf(args: string[]) {
  const command = addFilterOptions(new Command('search').exitOverride().configureOutput({ writeErr: () => undefined }));
  command.parse(args, { from: 'user' });
  return filtersFromFlags(command.opts<FilterFlags>());
}
const failureOf = (args: string[]): unknown => {
  try {
    filtersOf(args);
  } catch (error) {
    return error;
  }
  throw new Error(`${args.join(' ')} was accepted`);
};

describe('the filter flags of search', () => {
  it('give no filters when none is given, so the body has none', () => {
    expect(filtersOf([])).toBeUndefined();
  });

  it('turn every flag into its filter, repeated flags into lists, in the shape the API validates', () => {
    const filters = filtersOf([
      '--skill',
      'java',
      '--skill',
      'k8s',
      '--any-skill',
      'aws',
      '--any-skill',
      'gcp',
      '--exclude-skill',
      'php',
      '--min-years',
      '5',
      '--max-years',
      '15.5',
      '--seniority',
      'senior',
      '--seniority',
      'lead',
      '--domain',
      'Software engineering',
      '--near',
      'Austin, TX',
      '--radius',
      '80',
      '--degree',
      'bachelor',
      '--language',
      'spanish',
      '--language',
      'english',
    ]);
    expect(filters).toStrictEqual({
      skills: { all: ['java', 'k8s'], any: ['aws', 'gcp'], none: ['php'] },
      experienceYears: { gte: 5, lte: 15.5 },
      seniority: ['senior', 'lead'],
      domain: ['Software engineering'],
      location: { near: 'Austin, TX', radiusKm: 80 },
      degree: { gte: 'bachelor' },
      languages: { all: ['spanish', 'english'] },
    });
    expect(SearchFiltersSchema.safeParse(filters).success).toBe(true);
  });

  it('give --near a radius of 50 km unless --radius says otherwise', () => {
    expect(filtersOf(['--near', 'Berlin, Germany'])).toStrictEqual({ location: { near: 'Berlin, Germany', radiusKm: 50 } });
  });

  it('give only what was asked: one skill and a minimum of years', () => {
    expect(filtersOf(['--skill', 'kubernetes', '--min-years', '3'])).toStrictEqual({
      skills: { all: ['kubernetes'] },
      experienceYears: { gte: 3 },
    });
  });

  it.each([
    [['--min-years', 'ten'], /--min-years <n>' argument 'ten' is invalid\. must be a number of years/],
    [['--max-years', '-1'], /--max-years <n>' argument '-1' is invalid/],
    [['--near', 'Austin, TX', '--radius', 'far'], /--radius <km>' argument 'far' is invalid\. must be a number of kilometres/],
    [['--near', 'Austin, TX', '--radius', '0'], /above 0 and at most 1000/],
    [['--near', 'Austin, TX', '--radius', '1001'], /above 0 and at most 1000/],
    [['--seniority', 'boss'], /--seniority <level>' argument 'boss' is invalid\. must be one of executive, director/],
    [['--degree', 'phd'], /--degree <min>' argument 'phd' is invalid/],
  ])('refuse %j as commander refuses a bad argument (exit 2 in the CLI)', (args, message) => {
    const error = failureOf(args);
    expect(error).toBeInstanceOf(CommanderError);
    expect((error as CommanderError).message).toMatch(message);
  });

  it.each([
    [['--radius', '10'], '--radius needs --near <place>: the distance is from that place'],
    [
      ['--min-years', '20', '--max-years', '10'],
      '--min-years, --max-years: filters.experienceYears.gte must not be above filters.experienceYears.lte',
    ],
    [['--min-years', '81'], '--min-years: filters.experienceYears must be a number of years from 0 to 80'],
    [['--skill', 'x'.repeat(101)], '--skill: must be a name of 1 to 100 characters, not blank and without NUL characters'],
    [['--skill', '   '], '--skill: must be a name of 1 to 100 characters, not blank and without NUL characters'],
  ])('refuse %j as a usage error naming the flag, before any request', (args, message) => {
    const error = failureOf(args);
    expect(error).toBeInstanceOf(CliError);
    expect({ message: (error as CliError).message, exitCode: (error as CliError).exitCode }).toEqual({ message, exitCode: ExitCode.usage });
  });
});
