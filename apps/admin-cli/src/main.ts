import { readFileSync } from 'node:fs';
import { Presets, SingleBar } from 'cli-progress';
import { Command, InvalidArgumentError } from 'commander';
import { loadAdminCliConfig } from '@cs/config';
import { WEBHOOK_EVENT_TYPES } from '@cs/webhooks/events';

const CATEGORIES = ['search', 'read', 'upload-burst', 'upload-sustained'];
const QUEUES = ['search', 'ingestion'];
const EVENTS: readonly string[] = WEBHOOK_EVENT_TYPES;
const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'];

class CliError extends Error {}

function adminToken(): string {
  const config = loadAdminCliConfig();
  if (config.token) return config.token;
  try {
    return readFileSync(config.tokenFile, 'utf8').trim();
  } catch {
    throw new CliError(
      `no admin token: set ADMIN_TOKEN, or start the service once so it writes ${config.tokenFile} (set DATA_DIR if it uses another data folder)`,
    );
  }
}

/** One call to the admin API; prints the JSON answer on stdout. */
async function call(method: string, path: string, body?: unknown): Promise<void> {
  process.stdout.write(`${JSON.stringify(await request(method, path, body), null, 2)}\n`);
}

/** One call to the admin API; its JSON answer. */
async function request(method: string, path: string, body?: unknown): Promise<unknown> {
  const { url } = loadAdminCliConfig();
  let response: Response;
  try {
    response = await fetch(`${url}/admin/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${adminToken()}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(
      `cannot reach the service at ${url} (${String((error as Error).cause ?? error)}); start it with npm start, or set ADMIN_URL`,
    );
  }
  const text = await response.text();
  if (!response.ok) {
    let message = text;
    try {
      message = (JSON.parse(text) as { message?: string }).message ?? text;
    } catch {
      // not JSON: print as is
    }
    throw new CliError(`HTTP ${response.status}: ${message}`);
  }
  return JSON.parse(text);
}

interface ReindexView {
  reindexId: string;
  state: 'running' | 'completed' | 'failed';
  documentsTotal: number;
  documentsDone: number;
  documentsSkipped: number;
  error: string | null;
}

/** How often a followed reindex is asked how far it got. */
const REINDEX_POLL_MS = 500;

/** Follows a reindex with a progress bar (on stderr) until it ends; prints its last state, or fails with its error. */
async function followReindex(started: ReindexView): Promise<void> {
  const bar = new SingleBar(
    { format: 'Reindexing [{bar}] {value}/{total} CVs | {percentage}% | ETA {eta_formatted}', noTTYOutput: true, notTTYSchedule: 2000 },
    Presets.shades_classic,
  );
  bar.start(started.documentsTotal, started.documentsDone);
  let reindex = started;
  try {
    while (reindex.state === 'running') {
      await new Promise((resolve) => setTimeout(resolve, REINDEX_POLL_MS));
      reindex = (await request('GET', `/dense/reindexes/${reindex.reindexId}`)) as ReindexView;
      bar.update(reindex.documentsDone);
    }
  } finally {
    bar.stop();
  }
  process.stdout.write(`${JSON.stringify(reindex, null, 2)}\n`);
  if (reindex.documentsSkipped > 0)
    process.stderr.write(
      `${reindex.documentsSkipped} CVs failed alone and were passed over (the first in skippedDocumentIds): dense search does not find them in the new model's set until they are uploaded again; the service's log says why each failed\n`,
    );
  if (reindex.state === 'failed') throw new CliError(`the reindex failed: ${reindex.error ?? 'no reason given'}`);
}

const positiveInt = (value: string): number => {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError('must be a positive integer');
  return Number(value);
};
const category = (value: string): string => {
  if (!CATEGORIES.includes(value)) throw new InvalidArgumentError(`must be one of ${CATEGORIES.join(', ')}`);
  return value;
};
const queue = (value: string): string => {
  if (!QUEUES.includes(value)) throw new InvalidArgumentError(`must be one of ${QUEUES.join(', ')}`);
  return value;
};
const events = (value: string): string[] => {
  const list = value.split(',').map((e) => e.trim());
  const unknown = list.filter((e) => !EVENTS.includes(e));
  if (unknown.length)
    throw new InvalidArgumentError(`unknown event ${unknown.join(', ')}: give a comma-separated list of ${EVENTS.join(', ')}`);
  return list;
};
const deliveryStatus = (value: string): string => {
  if (!DELIVERY_STATUSES.includes(value)) throw new InvalidArgumentError(`must be one of ${DELIVERY_STATUSES.join(', ')}`);
  return value;
};
const webhookPath = (id: string, action = '') => `/webhooks/${encodeURIComponent(id)}${action}`;
const letterPath = (q: string, id?: string) => `/dead-letters/${q}${id === undefined ? '' : `/${encodeURIComponent(id)}`}`;

const program = new Command('admin')
  .description(
    'Operate a running Candidate Search service: companies, API keys, rate limits, dead letters, webhooks, dense reindexes.\nTalks to ADMIN_URL (default http://localhost:$PORT) with ADMIN_TOKEN or the token in $DATA_DIR/admin-token.',
  )
  .showHelpAfterError();

const companies = program.command('companies').description('companies (each has its own CVs, searches and keys)');
companies
  .command('create')
  .description('create a company and its first API key (printed once)')
  .requiredOption('--name <name>', 'company name')
  .action((o: { name: string }) => call('POST', '/companies', { name: o.name }));
companies
  .command('list')
  .description('list companies with their limits')
  .action(() => call('GET', '/companies'));

const keys = program.command('keys').description('API keys (stored hashed; shown once when created)');
keys
  .command('create')
  .description('issue another key for a company (for rotation: create, switch, revoke the old one)')
  .requiredOption('--company <companyId>', 'company id')
  .action((o: { company: string }) => call('POST', `/companies/${encodeURIComponent(o.company)}/keys`));
keys
  .command('list')
  .description("list a company's keys by prefix")
  .requiredOption('--company <companyId>', 'company id')
  .action((o: { company: string }) => call('GET', `/companies/${encodeURIComponent(o.company)}/keys`));
keys
  .command('revoke')
  .description("revoke a company's live keys starting with a prefix (the first 8 characters, as support quotes them)")
  .requiredOption('--company <companyId>', 'company id')
  .requiredOption('--key-prefix <prefix>', 'e.g. csk_AbCd')
  .action((o: { company: string; keyPrefix: string }) =>
    call('POST', `/companies/${encodeURIComponent(o.company)}/keys/revoke`, { keyPrefix: o.keyPrefix }),
  );

const limits = program.command('limits').description('per-company rate limits (the contract figures are the defaults)');
limits
  .command('set')
  .description('grant a company another limit for one category, or --reset to the default')
  .requiredOption('--company <companyId>', 'company id')
  .requiredOption('--category <category>', CATEGORIES.join(' | '), category)
  .option('--limit <n>', 'requests per window', positiveInt)
  .option('--reset', 'back to the default')
  .action((o: { company: string; category: string; limit?: number; reset?: boolean }) => {
    if (o.limit === undefined && !o.reset) throw new CliError('give --limit <n> or --reset');
    return call('PUT', `/companies/${encodeURIComponent(o.company)}/limits/${o.category}`, { limit: o.reset ? null : o.limit });
  });

const deadLetters = program
  .command('dead-letters')
  .description('jobs the queues gave up on (standalone: the embedded queue; cluster: the NATS dead-letter stream)');
deadLetters
  .command('list')
  .description('a page of dead letters with their reasons (next: the --after of the next page)')
  .option('--queue <queue>', QUEUES.join(' | '), queue)
  .option('--limit <n>', 'letters per page (at most 100)', positiveInt)
  .option('--after <id>', 'the id of the last letter of the previous page')
  .action((o: { queue?: string; limit?: number; after?: string }) => {
    const query = new URLSearchParams();
    if (o.queue) query.set('queue', o.queue);
    if (o.limit !== undefined) query.set('limit', String(o.limit));
    if (o.after !== undefined) query.set('after', o.after);
    return call('GET', `/dead-letters${query.size ? `?${query.toString()}` : ''}`);
  });
deadLetters
  .command('show')
  .description('one dead letter: its job id, payload, reason and deliveries')
  .argument('<queue>', QUEUES.join(' | '), queue)
  .argument('<id>', 'the letter id, as listed')
  .action((q: string, id: string) => call('GET', letterPath(q, id)));
deadLetters
  .command('replay')
  .description('publish the job again (from its first delivery) and remove the letter; --all for every letter of the queue')
  .argument('<queue>', QUEUES.join(' | '), queue)
  .argument('[id]', 'the letter id, as listed')
  .option('--all', 'every dead letter of the queue')
  .action((q: string, id: string | undefined, o: { all?: boolean }) => {
    if (id === undefined && !o.all) throw new CliError('give a letter id, or --all for every letter of the queue');
    if (id !== undefined && o.all) throw new CliError('give a letter id or --all, not both');
    return call('POST', `${letterPath(q, id)}/replay`);
  });
deadLetters
  .command('purge')
  .description('remove one dead letter, or (with --yes) all of a queue; save what you need from them first')
  .argument('<queue>', QUEUES.join(' | '), queue)
  .argument('[id]', 'the letter id, as listed')
  .option('--yes', 'confirm removing every dead letter of the queue')
  .action((q: string, id: string | undefined, o: { yes?: boolean }) => {
    if (id === undefined && !o.yes) throw new CliError(`purging every ${q} dead letter needs --yes`);
    return call('DELETE', letterPath(q, id));
  });

const webhooks = program
  .command('webhooks')
  .description("a company's webhook endpoints: events signed per Standard Webhooks, retried for 24 h, logged");
webhooks
  .command('add')
  .description('register an endpoint (its signing secret is printed once: store it with the receiver)')
  .requiredOption('--company <companyId>', 'company id')
  .requiredOption('--url <url>', 'http(s) URL the events are POSTed to')
  .option('--events <list>', `comma-separated, default all: ${EVENTS.join(',')}`, events)
  .action((o: { company: string; url: string; events?: string[] }) =>
    call('POST', `/companies/${encodeURIComponent(o.company)}/webhooks`, { url: o.url, ...(o.events ? { events: o.events } : {}) }),
  );
webhooks
  .command('list')
  .description("a company's endpoints (without their secrets)")
  .requiredOption('--company <companyId>', 'company id')
  .action((o: { company: string }) => call('GET', `/companies/${encodeURIComponent(o.company)}/webhooks`));
webhooks
  .command('remove')
  .description('remove an endpoint, with its pending deliveries and its delivery log')
  .argument('<webhookId>', 'the endpoint id, as listed')
  .action((id: string) => call('DELETE', webhookPath(id)));
webhooks
  .command('enable')
  .description('send to the endpoint again (its deliveries still pending resume)')
  .argument('<webhookId>', 'the endpoint id, as listed')
  .action((id: string) => call('POST', webhookPath(id, '/enable')));
webhooks
  .command('disable')
  .description('stop sending to the endpoint (new events skip it; pending deliveries wait)')
  .argument('<webhookId>', 'the endpoint id, as listed')
  .action((id: string) => call('POST', webhookPath(id, '/disable')));
webhooks
  .command('test')
  .description('send a webhook.test event now and print its first attempt (a failure is retried like any delivery)')
  .argument('<webhookId>', 'the endpoint id, as listed')
  .action((id: string) => call('POST', webhookPath(id, '/test')));
webhooks
  .command('deliveries')
  .description("the endpoint's recent deliveries, newest first, each with its attempts")
  .argument('<webhookId>', 'the endpoint id, as listed')
  .option('--status <status>', DELIVERY_STATUSES.join(' | '), deliveryStatus)
  .option('--limit <n>', 'deliveries per page (at most 100)', positiveInt)
  .option('--offset <n>', 'deliveries to skip', (v: string) => (v === '0' ? 0 : positiveInt(v)))
  .action((id: string, o: { status?: string; limit?: number; offset?: number }) => {
    const query = new URLSearchParams();
    if (o.status) query.set('status', o.status);
    if (o.limit !== undefined) query.set('limit', String(o.limit));
    if (o.offset !== undefined) query.set('offset', String(o.offset));
    return call('GET', `${webhookPath(id, '/deliveries')}${query.size ? `?${query.toString()}` : ''}`);
  });

program
  .command('dense')
  .description('the dense model searches read, the one DENSE_MODEL_NEXT loads beside it, and the latest reindex')
  .action(() => call('GET', '/dense'));
program
  .command('reindex')
  .description(
    'embed every CV again from its stored text while searches go on: by DENSE_MODEL_NEXT into its own vectors, then switching searches to them (without DENSE_MODEL_NEXT, in place)',
  )
  .requiredOption('--dense', 'the dense vectors (the only ones a reindex makes)')
  .option('--company <companyId>', "one company's CVs only (not with DENSE_MODEL_NEXT, which switches every company at once)")
  .option('--no-wait', 'print the started reindex and return, without following it')
  .action(async (o: { company?: string; wait: boolean }) => {
    const started = (await request('POST', '/dense/reindexes', o.company ? { companyId: o.company } : {})) as ReindexView;
    if (!o.wait) return call('GET', `/dense/reindexes/${started.reindexId}`);
    return followReindex(started);
  });

program.parseAsync(process.argv).catch((error: unknown) => {
  process.stderr.write(`admin: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
