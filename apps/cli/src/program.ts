import type { FacetField } from '@candidate-search/client/node';
import { FACET_FIELDS } from '@cs/search-filters/facets';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { CliContext, type CliIo } from './cli-context';
import type { GlobalOptions } from './config/connection';
import { deleteDocument, DOCUMENT_STATUSES, getDocument, listDocuments } from './commands/documents.command';
import { login, logout } from './commands/login.command';
import { runSearch, SEARCH_CHOICES, type SearchChoice } from './commands/search.command';
import { runMatch } from './commands/match.command';
import { runSimilar } from './commands/similar.command';
import { upload } from './commands/upload.command';
import { EXIT_CODE_HELP, ExitCode } from './exit-codes';
import { describeFailure } from './failure';
import { addFilterOptions, filtersFromFlags, type FilterFlags } from './search/filter-flags';

const intIn = (min: number, max: number) => (value: string) => {
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max)
    throw new InvalidArgumentError(`must be an integer from ${min} to ${max}`);
  return Number(value);
};
const monthYear = (value: string) => {
  if (!/^(0[1-9]|1[0-2])-(19|20)\d\d$/.test(value)) throw new InvalidArgumentError('must be MM-YYYY, for example 03-2024');
  return value;
};

/** `seniority,skills`: profile fields to count, each once, in the order given. */
const facetList = (value: string): FacetField[] => {
  const fields = value.split(',').map((field) => field.trim());
  const unknown = fields.filter((field) => !(FACET_FIELDS as readonly string[]).includes(field));
  if (unknown.length) throw new InvalidArgumentError(`${unknown.join(', ')}: not ${FACET_FIELDS.join(', ')}`);
  return [...new Set(fields as FacetField[])];
};
/** The options `search` and `similar` share: results shown, and how long to wait. */
const limitOption = (description: string) => new Option('--limit <n>', description).argParser(intIn(1, 100)).default(10);
const timeoutOption = () => new Option('--timeout <seconds>', 'give up waiting after this long').argParser(intIn(1, 600)).default(90);

const EXIT_CODES = `Exit codes:\n${EXIT_CODE_HELP.map(([code, meaning]) => `  ${String(code).padStart(3)}  ${meaning}`).join('\n')}`;
const ENVIRONMENT = `Environment:
  CANDIDATE_SEARCH_URL      the service (default: the one logged in to, else http://localhost:8080)
  CANDIDATE_SEARCH_API_KEY  the API key (default: the one login stored)
  XDG_CONFIG_HOME           where the config folder is (candidate-search/ under it)`;

/**
 * The `candidate-search` command line. Every command takes --base-url, --api-key and --json; it
 * resolves to the exit code, never exits itself, so that tests run it in process.
 */
export function buildProgram(io: CliIo, done: (code: ExitCode) => void): Command {
  const program = new Command('candidate-search')
    .description('Upload CVs to Candidate Search and search them from the command line.')
    .option('--base-url <url>', 'the service address (env CANDIDATE_SEARCH_URL)')
    .option('--api-key <key>', 'the API key (env CANDIDATE_SEARCH_API_KEY; prefer login: a flag shows in the process list)')
    .option('--json', 'machine-readable output: one JSON document on stdout, nothing else there')
    .showHelpAfterError()
    .addHelpText('after', `\n${ENVIRONMENT}\n\n${EXIT_CODES}\n`)
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) })
    .exitOverride();

  /** Runs a command's body with its context, turning whatever it throws into a message and an exit code. */
  const action =
    <A extends unknown[]>(body: (ctx: CliContext, ...args: A) => Promise<ExitCode>) =>
    async (...args: A) => {
      const ctx = new CliContext(io, program.opts<GlobalOptions>());
      try {
        done(await body(ctx, ...args));
      } catch (error) {
        const failure = describeFailure(error, ctx.baseUrl);
        if (ctx.out.json)
          io.stdout.write(
            `${JSON.stringify({ error: { exitCode: failure.exitCode, message: failure.message, hint: failure.hint } }, null, 2)}\n`,
          );
        io.stderr.write(`error: ${failure.message}\n${failure.hint ? `hint: ${failure.hint}\n` : ''}`);
        done(failure.exitCode);
      }
    };

  program
    .command('login')
    .description(
      'check an API key and store it (0600) in the config folder; reads the key from --api-key, CANDIDATE_SEARCH_API_KEY, a hidden prompt on a terminal, or stdin (echo $KEY | candidate-search login)',
    )
    .action(action((ctx) => login(ctx)));

  program
    .command('logout')
    .description('remove the stored key')
    .action(action((ctx) => logout(ctx)));

  program
    .command('upload')
    .description(
      'upload CV files (pdf, docx, doc, txt) and folders of them, wait until each is searchable, and report duplicates, invalid files and failures; Ctrl-C stops, the same command resumes',
    )
    .argument('<paths...>', 'files and folders (searched recursively)')
    .addOption(new Option('--concurrency <n>', 'uploads in flight').argParser(intIn(1, 16)).default(4))
    .option('--no-wait', 'do not wait until the CVs are searchable')
    .addOption(
      new Option('--wait-timeout <seconds>', 'stop waiting after this long without any CV finishing')
        .argParser(intIn(1, 86_400))
        .default(600),
    )
    .option('--no-resume', 'upload every file again, forgetting what an earlier run recorded (the server still spots duplicates)')
    .option('--document-date <MM-YYYY>', "the CVs' date (default: each file's modification month)", monthYear)
    .action(
      action(
        (ctx, paths: string[], o: { concurrency: number; wait: boolean; waitTimeout: number; resume: boolean; documentDate?: string }) =>
          upload(ctx, paths, {
            concurrency: o.concurrency,
            wait: o.wait,
            waitTimeoutSeconds: o.waitTimeout,
            resume: o.resume,
            documentDate: o.documentDate,
          }),
      ),
    );

  const search = program
    .command('search')
    .description(
      'run one search type and print its ranking, or all four side by side with how far they agree; filters keep to the CVs that meet them',
    )
    .addArgument(program.createArgument('<type>', 'dense, sparse, hybrid, builtin-rerank, or all').choices(SEARCH_CHOICES))
    .argument('<query...>', 'what to look for (quote it, or give it as several words)')
    .addOption(
      new Option('--top-k <n>', 'results (dense, sparse) or first-stage candidates (hybrid, builtin-rerank)').argParser(intIn(1, 100)),
    )
    .addOption(new Option('--rerank-top-n <n>', 'results after reranking (hybrid, builtin-rerank)').argParser(intIn(1, 100)))
    .addOption(limitOption('results shown per search type (and the N of the overlap)'))
    .addOption(timeoutOption());
  addFilterOptions(search).action(
    action(
      async (
        ctx,
        type: SearchChoice,
        words: string[],
        o: { topK?: number; rerankTopN?: number; limit: number; timeout: number } & FilterFlags,
      ) =>
        runSearch(ctx, type, words.join(' '), {
          topK: o.topK,
          rerankTopN: o.rerankTopN,
          limit: o.limit,
          timeoutSeconds: o.timeout,
          filters: filtersFromFlags(o),
        }),
    ),
  );

  const similar = program
    .command('similar')
    .description(
      "more like this: the company's CVs most like one of its CVs (by its vector and its most distinctive words), that one left out; filters keep to the CVs that meet them",
    )
    .argument('<documentId>', 'the CV to start from: its document id (candidate-search documents list), a CV whose status is completed')
    .addOption(new Option('--top-k <n>', 'results (default 20)').argParser(intIn(1, 100)))
    .addOption(limitOption('results shown'))
    .addOption(
      new Option('--facets <fields>', `count these profile fields, comma-separated: ${FACET_FIELDS.join(', ')}`).argParser(facetList),
    )
    .addOption(timeoutOption());
  addFilterOptions(similar).action(
    action(async (ctx, documentId: string, o: { topK?: number; limit: number; facets?: FacetField[]; timeout: number } & FilterFlags) =>
      runSimilar(ctx, documentId, {
        topK: o.topK,
        limit: o.limit,
        facets: o.facets,
        timeoutSeconds: o.timeout,
        filters: filtersFromFlags(o),
      }),
    ),
  );

  const match = program
    .command('match')
    .description(
      "the company's CVs ranked against a job posting: its criteria are read from it and printed, and each CV's line says which it meets, partly meets, misses or does not say",
    )
    .argument(
      '<posting>',
      'the posting: a text file, a PDF, DOCX or DOC file (uploaded as a job posting), or - to read its text from stdin',
    )
    .addOption(new Option('--top-k <n>', 'results (default 20)').argParser(intIn(1, 100)))
    .addOption(limitOption('results shown'))
    .option('--strict', 'the requirements as filters: a CV missing one is not returned')
    .addOption(timeoutOption());
  addFilterOptions(match).action(
    action(async (ctx, posting: string, o: { topK?: number; limit: number; strict?: boolean; timeout: number } & FilterFlags) =>
      runMatch(ctx, posting, {
        topK: o.topK,
        limit: o.limit,
        strict: o.strict,
        timeoutSeconds: o.timeout,
        filters: filtersFromFlags(o),
      }),
    ),
  );

  const documents = program.command('documents').description("the company's documents");
  documents
    .command('list')
    .description('a page of documents, newest first')
    .addOption(new Option('--status <status>', 'only documents with this status').choices(DOCUMENT_STATUSES))
    .addOption(new Option('--kind <kind>', 'only CVs, or only job postings').choices(['cv', 'job'] as const))
    .addOption(new Option('--limit <n>', 'documents per page').argParser(intIn(1, 100)).default(20))
    .addOption(new Option('--offset <n>', 'documents to skip').argParser(intIn(0, 1_000_000)).default(0))
    .action(
      action((ctx, o: { status?: (typeof DOCUMENT_STATUSES)[number]; kind?: 'cv' | 'job'; limit: number; offset: number }) =>
        listDocuments(ctx, o),
      ),
    );
  documents
    .command('get')
    .description('one document: its status and what was read from it')
    .argument('<id>', 'the document id')
    .option('--text', 'also print the text extracted from the file')
    .action(action((ctx, id: string, o: { text?: boolean }) => getDocument(ctx, id, { text: o.text === true })));
  documents
    .command('delete')
    .description('delete a document, its file and its index entries (asks first on a terminal)')
    .argument('<id>', 'the document id')
    .option('--yes', 'do not ask (required when stdin is not a terminal)')
    .action(action((ctx, id: string, o: { yes?: boolean }) => deleteDocument(ctx, id, { yes: o.yes === true })));

  // Each command's --help ends with the exit codes too: a script author reads the command's page.
  const withExitCodes = (command: Command): void => {
    for (const sub of command.commands) {
      sub.addHelpText('after', `\n${EXIT_CODES}\n`);
      withExitCodes(sub);
    }
  };
  withExitCodes(program);
  return program;
}

/** Runs the CLI on these arguments (without node and the script) and resolves to its exit code. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  let code: ExitCode = ExitCode.ok;
  const program = buildProgram(io, (c) => (code = c));
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    // Help and version are not failures; anything else commander refused is a usage error.
    return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
  }
  return code;
}
