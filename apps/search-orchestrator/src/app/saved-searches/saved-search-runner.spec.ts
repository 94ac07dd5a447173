import { JobFailure } from '@cs/contracts';
import type { ClaimedArrivals, SavedSearchRecord, SavedSearchRun, SavedSearchesRepository } from '@cs/records';
import type { StoredResult } from '@cs/search-domain';
import type { SearchPipelineService } from '../search-pipeline.service';
import type { SearchCommand } from '../stages/search-command';
import { SAVED_SEARCH_RUN, SavedSearchRunner } from './saved-search-runner';

const at = (minute: number) => new Date(Date.UTC(2026, 10, 30, 9, minute));

const savedSearch = (id: string, query: string, createdAt: Date): SavedSearchRecord => ({
  id,
  companyId: 'c1',
  name: id,
  searchType: 'sparse',
  query,
  filters: null,
  resolvedFilter: null,
  topK: 3,
  createdAt,
  matchesCount: 0,
  lastMatchAt: null,
});

const result = (documentId: string, rank: number) => ({ documentId, rank, score: 1 / rank }) as StoredResult;

/** A runner over one company's claimed CVs (claimed `attempts` times) and saved searches, with a pipeline that answers each query as `answer` says. */
function runnerOver(saved: SavedSearchRecord[], answer: (command: SearchCommand) => StoredResult[], attempts = 1) {
  const claims: ClaimedArrivals[] = [
    {
      companyId: 'c1',
      token: 't1',
      attempts,
      arrivals: [
        { documentId: 'd1', arrivedAt: at(10) },
        { documentId: 'd2', arrivedAt: at(20) },
      ],
    },
  ];
  const recorded: { token: string; runs: SavedSearchRun[] }[] = [];
  const commands: SearchCommand[] = [];
  const repository = {
    claimCompany: async () => claims.shift() ?? null,
    renew: async () => true,
    ofCompany: async () => saved,
    record: async (_company: string, token: string, runs: SavedSearchRun[]) => {
      recorded.push({ token, runs });
      return new Map(runs.map((r) => [r.savedSearchId, r.firstPage.length]));
    },
  } as unknown as SavedSearchesRepository;
  const pipeline = {
    runCommand: async (command: SearchCommand) => {
      commands.push(command);
      return { results: answer(command) };
    },
  } as unknown as SearchPipelineService;
  return { runner: new SavedSearchRunner(repository, pipeline, 1000), recorded, commands };
}

describe('SavedSearchRunner', () => {
  it('runs each saved search once over the CVs claimed, as a command of its first page, and records what it ranked', async () => {
    const { runner, recorded, commands } = runnerOver(
      [savedSearch('s1', 'chef', at(0)), savedSearch('s2', 'nurse', at(15)), savedSearch('late', 'java', at(30))],
      (command) => (command.query === 'chef' ? [result('d1', 1), result('old', 2)] : [result('d2', 1)]),
    );
    await runner.runOnce();
    // Saved after every CV claimed, `late` is not run.
    expect(commands.map((c) => [c.query, c.topK, c.rerankTopN, c.type])).toEqual([
      ['chef', 3, 3, 'sparse'],
      ['nurse', 3, 3, 'sparse'],
    ]);
    expect(recorded).toEqual([
      {
        token: 't1',
        runs: [
          {
            savedSearchId: 's1',
            firstPage: [
              { documentId: 'd1', rank: 1, score: 1 },
              { documentId: 'old', rank: 2, score: 0.5 },
            ],
          },
          { savedSearchId: 's2', firstPage: [{ documentId: 'd2', rank: 1, score: 1 }] },
        ],
      },
    ]);
  });

  it('passes over a saved search that cannot run, and leaves the CVs claimed while a search may succeed later', async () => {
    const unsearchable = runnerOver([savedSearch('bad', 'the', at(0)), savedSearch('good', 'chef', at(0))], (command) => {
      if (command.query === 'the') throw new JobFailure('the query has no searchable keywords', false);
      return [result('d1', 1)];
    });
    await unsearchable.runner.runOnce();
    expect(unsearchable.recorded[0].runs.map((r) => r.savedSearchId)).toEqual(['good']);

    const flaky = (command: SearchCommand) => {
      if (command.query === 'java') throw new Error('the keyword store is unavailable');
      return [result('d1', 1)];
    };
    const searches = [savedSearch('down', 'java', at(0)), savedSearch('good', 'chef', at(0))];
    const down = runnerOver(searches, flaky);
    expect(await down.runner.runOnce()).toBe(0);
    // Nothing recorded: the claim runs out and a later run takes the CVs again.
    expect(down.recorded).toEqual([]);
    // Claimed as often as allowed, the failing one is passed over and the others' matches kept.
    const givenUp = runnerOver(searches, flaky, SAVED_SEARCH_RUN.attempts);
    expect(await givenUp.runner.runOnce()).toBe(1);
    expect(givenUp.recorded[0].runs.map((r) => r.savedSearchId)).toEqual(['good']);
  });
});
