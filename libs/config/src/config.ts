import { existsSync } from 'node:fs';
import * as os from 'node:os';
import { z } from 'zod';
import * as path from 'node:path';
import { SHIPPED_TUNING, rankingTuningSchema } from '@cs/ranking/tuning';

const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => v === 'true' || v === '1' || v === 'yes');
const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

const DURATION_UNITS_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
/** `250ms`, `5s`, `2m`, `1h`, `7d`: in milliseconds. */
const duration = z
  .string()
  .regex(/^\d{1,9}(ms|s|m|h|d)$/, 'a whole number and a unit: ms, s, m, h or d (e.g. 30s)')
  .transform((v) => {
    const [, amount, unit] = /^(\d+)(ms|s|m|h|d)$/.exec(v)!;
    return Number(amount) * DURATION_UNITS_MS[unit as keyof typeof DURATION_UNITS_MS];
  });
/** Comma-separated durations, e.g. `5s,30s,2m`. */
const durations = z
  .string()
  .regex(/^\d{1,9}(ms|s|m|h|d)(,\d{1,9}(ms|s|m|h|d)){0,49}$/, 'comma-separated durations, e.g. 5s,30s,2m,10m')
  .transform((v) => v.split(',').map((d) => duration.parse(d)));

/** One trusted proxy: a name Express knows, or an address with an optional prefix length. */
const PROXY = String.raw`(loopback|linklocal|uniquelocal|[0-9a-fA-F:.]+(/\d{1,3})?)`;

/**
 * Every environment variable the service reads, validated once at boot. Each setting's `group`
 * and `description` (and `accepts`, where its pattern is not readable) are the configuration
 * page's rows: `npm run docs:config` writes docs/configuration.md from them.
 */
const envSchema = z.object({
  PORT: int(0, 65535)
    .default(8080)
    .meta({ group: 'Service', description: 'HTTP port of the API (the gateway, or the standalone process).' }),
  METRICS_PORT: int(0, 65535).optional().meta({
    group: 'Service',
    description:
      'Port of `GET /metrics` (Prometheus), `GET /healthz` and `GET /livez`, apart from the API; unset, none is served. The Helm chart sets 9464.',
  }),
  HOST: z.string().min(1).default('0.0.0.0').meta({ group: 'Service', description: 'Interface to listen on.' }),
  TRUST_PROXY: z
    .string()
    .regex(
      new RegExp(`^(\\d+|${PROXY}(\\s*,\\s*${PROXY})*)$`),
      'a hop count, or a comma-separated list of loopback, linklocal, uniquelocal, addresses and CIDRs',
    )
    .default('loopback')
    .meta({
      group: 'Service',
      accepts: 'a hop count, or `loopback`, `linklocal`, `uniquelocal`, addresses and CIDRs, comma-separated',
      description:
        "Express' `trust proxy`: the proxies whose `X-Forwarded-For` is believed. Behind an ingress, the client's address keys the failed-key rate limit only when the ingress is trusted; the Helm chart sets `loopback, uniquelocal`.",
    }),
  DATA_DIR: z.string().min(1).default('./data').meta({
    group: 'Service',
    description:
      'Where standalone mode keeps everything: database, queue, indexes, files, generated secrets. One process at a time: a second started on the folder exits 2 before opening anything; a crashed holder is taken over at the next start.',
  }),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info')
    .meta({ group: 'Service', description: 'Level of the JSON log lines on stdout.' }),
  PUBLIC_BASE_URL: z.url().optional().meta({
    group: 'Service',
    defaultText: '`http://localhost:$PORT`',
    description: 'Base of the presigned upload URLs the gateway signs.',
  }),
  ADMIN_TOKEN: z.string().min(16).optional().meta({
    group: 'Service',
    defaultText: 'standalone: created in `DATA_DIR/admin-token`',
    description:
      "Bearer token of the admin API and the admin CLI. Required by the cluster's gateway, which refuses to start without it: every replica must share one.",
  }),
  PRESIGN_SECRET: z.string().min(16).optional().meta({
    group: 'Service',
    defaultText: 'standalone: created in `DATA_DIR/presign-secret`',
    description: "HMAC key of presigned upload URLs. Required by the cluster's gateway, the same in every replica.",
  }),
  EMBEDDINGS_CACHE_DIR: z.string().min(1).optional().meta({
    group: 'Dense model',
    defaultText: '`DATA_DIR/models`',
    description: "Where the builtin model's binary word-vector cache is built and read.",
  }),
  UPLOAD_FROM_URL_ALLOW_PRIVATE_NETWORKS: bool.default(false).meta({
    group: 'Uploads and ingestion',
    description: 'Let upload-from-url fetch loopback and private addresses (for operators testing on their own network).',
  }),
  CONSOLE_DIR: z.string().min(1).optional().meta({
    group: 'Service',
    description:
      'A built search console (`npm run build` writes `dist/console`; the image sets it), served at `/console`. Unset, standalone bundles the console at start and a cluster gateway serves none.',
  }),
  WEBHOOKS_ALLOW_PRIVATE_NETWORKS: bool
    .default(false)
    .meta({ group: 'Webhooks', description: 'Let webhook endpoints be registered on, and sent to, loopback and private addresses.' }),
  WEBHOOKS_RETRY_SCHEDULE: durations.prefault('5s,30s,2m,10m,30m,1h,3h').meta({
    group: 'Webhooks',
    accepts: 'durations (`ms`, `s`, `m`, `h`, `d`), comma-separated',
    description: 'Waits after the 1st, 2nd... failed delivery attempt; the last repeats.',
  }),
  WEBHOOKS_RETRY_FOR: duration.prefault('24h').meta({
    group: 'Webhooks',
    accepts: 'a duration (`ms`, `s`, `m`, `h`, `d`)',
    description: "No attempt starts later than this after a delivery's first; then it is failed for good.",
  }),
  WEBHOOKS_TIMEOUT_MS: int(1000, 30_000)
    .default(10_000)
    .meta({ group: 'Webhooks', description: "One delivery attempt's deadline, from connecting to the answer's first KB." }),
  WEBHOOKS_POLL_MS: int(50, 60_000)
    .default(1000)
    .meta({ group: 'Webhooks', description: 'How often each gateway (standalone: the process) looks for new events and due deliveries.' }),
  WEBHOOKS_CONCURRENCY: int(1, 64).default(8).meta({ group: 'Webhooks', description: 'Delivery attempts in flight at once per process.' }),
  WEBHOOKS_RETENTION: duration.prefault('7d').meta({
    group: 'Webhooks',
    accepts: 'a duration (`ms`, `s`, `m`, `h`, `d`)',
    description: 'Events, deliveries and their attempts are removed this long after the event.',
  }),
  SEARCH_CONCURRENCY: int(1, 64).default(4).meta({ group: 'Searches and reads', description: 'Searches run at once per process.' }),
  SAVED_SEARCHES_POLL_MS: int(50, 3_600_000).default(10_000).meta({
    group: 'Searches and reads',
    description:
      'How often each search process (standalone: the process) looks for CVs read since the saved searches last ran, and runs the saved searches of their companies again.',
  }),
  INGESTION_CONCURRENCY: int(1, 64).optional().meta({
    group: 'Uploads and ingestion',
    defaultText: '4 per parse worker, at least 6',
    description: 'Documents parsed and indexed at once per process; several per parse worker keep it busy while others are indexed.',
  }),
  PARSE_WORKERS: int(0, 32).optional().meta({
    group: 'Uploads and ingestion',
    defaultText: 'the CPU cores, 1 to 4',
    description: 'Worker threads that parse PDF, DOCX and DOC files off the main thread; `0` parses on it.',
  }),
  DENSE_MODEL: z
    .string()
    .regex(
      /^(builtin|onnx:.+|http:(openai|cohere|voyage|tei))$/,
      'builtin, onnx:<model folder>, or http:openai, http:cohere, http:voyage or http:tei',
    )
    .default('builtin')
    .meta({
      group: 'Dense model',
      accepts: '`builtin`, `onnx:<folder>`, `http:openai`, `http:cohere`, `http:voyage`, `http:tei`',
      description:
        "The dense encoder: the shipped word-vector model, an operator's sentence-transformer exported to ONNX, or a hosted embeddings API. Its id and dimension are in each search's `metadata`; changing it needs a reindex (docs/dense-models.md).",
    }),
  DENSE_MODEL_NEXT: z
    .string()
    .regex(
      /^(builtin|onnx:.+|http:(openai|cohere|voyage|tei))$/,
      'builtin, onnx:<model folder>, or http:openai, http:cohere, http:voyage or http:tei',
    )
    .optional()
    .meta({
      group: 'Dense model',
      accepts: 'as `DENSE_MODEL`',
      description:
        'The model to move to: loaded beside `DENSE_MODEL`, every new CV is embedded by both, and `admin reindex --dense` re-embeds the stored ones by it, then switches searches to it. Afterwards set `DENSE_MODEL` to it and unset this.',
    }),
  DENSE_QUERY_PREFIX: z.string().max(200).optional().meta({
    group: 'Dense model',
    defaultText: 'from the model folder',
    description:
      "Text put before each query (e5's `query: `, bge's instruction); overrides the folder's `config_sentence_transformers.json`.",
  }),
  DENSE_PASSAGE_PREFIX: z.string().max(200).optional().meta({
    group: 'Dense model',
    defaultText: 'from the model folder',
    description: "Text put before each CV passage (e5's `passage: `).",
  }),
  DENSE_BATCH_SIZE: int(1, 512)
    .default(32)
    .meta({ group: 'Dense model', description: 'Texts per inference call or API request at ingestion.' }),
  DENSE_ONNX_MAX_TOKENS: int(8, 8192)
    .default(256)
    .meta({ group: 'Dense model', description: 'Longest input an ONNX encoder reads, in tokens; a longer text is cut to its head.' }),
  DENSE_ONNX_THREADS: int(1, 64)
    .default(1)
    .meta({ group: 'Dense model', description: 'Threads of one ONNX inference; 1 leaves the other cores to the rest of the service.' }),
  DENSE_API_URL: z.url().optional().meta({
    group: 'Dense model',
    description:
      'Base URL of the hosted embeddings API (`https://api.openai.com/v1`, `https://api.cohere.com`, `https://api.voyageai.com/v1`, `http://tei:8080`); required with `http:`.',
  }),
  DENSE_API_KEY: z
    .string()
    .min(1)
    .optional()
    .meta({ group: 'Dense model', description: "The embeddings API's key, sent as a bearer token." }),
  DENSE_API_MODEL: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .meta({ group: 'Dense model', description: "The provider's model name; required except for TEI, which serves one model." }),
  DENSE_API_DIMENSIONS: int(1, 16_384).optional().meta({
    group: 'Dense model',
    description: "The model's vector length; required with `http:`, and every answer is checked against it.",
  }),
  DENSE_API_TIMEOUT_MS: int(100, 120_000)
    .default(10_000)
    .meta({ group: 'Dense model', description: "One embeddings call's whole budget, retries included." }),
  DENSE_API_ATTEMPTS: int(1, 10).default(4).meta({
    group: 'Dense model',
    description: 'Attempts in all on 429, 5xx, network errors and timeouts, backing off with jitter (and `Retry-After`).',
  }),
  RERANKER_PROVIDER: z.enum(['local', 'cohere', 'jina', 'voyage', 'tei']).default('local').meta({
    group: 'Reranker',
    description:
      "Hybrid's reranker: `local` (the builtin reranker, no account), or the request shape of Cohere, Jina, Voyage or text-embeddings-inference at `RERANKER_URL`.",
  }),
  RERANKER_URL: z
    .url()
    .optional()
    .meta({ group: 'Reranker', description: "The provider's `/rerank` endpoint; required unless `RERANKER_PROVIDER` is `local`." }),
  RERANKER_API_KEY: z.string().min(1).optional().meta({ group: 'Reranker', description: 'Bearer key for that endpoint.' }),
  RERANKER_MODEL: z.string().min(1).default('rerank-v3.5').meta({ group: 'Reranker', description: 'Model name sent to that endpoint.' }),
  RERANKER_TIMEOUT_MS: int(100, 40_000).default(8000).meta({
    group: 'Reranker',
    description:
      'Deadline of one rerank call, retries included; on failure hybrid completes with the builtin reranker and says `degraded: true`.',
  }),
  RERANKER_ONNX_MODEL_DIR: z.string().min(1).optional().meta({
    group: 'Reranker',
    description:
      "A local cross-encoder exported to ONNX (`model.onnx`, `tokenizer.json`, `tokenizer_config.json`): it reads the builtin reranker's best CVs again, query and CV together. Unset: the builtin reranker alone.",
  }),
  RERANKER_ONNX_TOP_N: int(1, 1000)
    .default(50)
    .meta({ group: 'Reranker', description: "How many of the builtin reranker's best the cross-encoder reads; its cost grows with each." }),
  RERANKER_ONNX_MAX_TOKENS: int(16, 4096)
    .default(256)
    .meta({ group: 'Reranker', description: "Longest query-plus-CV input; the CV's head (role, summary, skills) is what fits." }),
  RANKING_TUNING: z
    .string()
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'not JSON' });
        return z.NEVER;
      }
    })
    .pipe(rankingTuningSchema)
    .optional()
    .meta({
      group: 'Relevance',
      accepts:
        'a JSON object of the choices to change: `typoRepair`, `denseFeedbackWeight`, `denseHeadlineWeight`, `inducedWords`, `rerankerWeights`, `rerankerFeedback`, `rerankerNeighbours`, `hybridDenseShare`',
      defaultText: 'the measured choices (docs/relevance.md)',
      description:
        "The builtin ranking's tuned choices, for measuring them on and off (`npm run eval -- --folds`) or on an operator's own labelled CVs. `denseHeadlineWeight` changes CVs' vectors: it applies to CVs indexed after it changes.",
    }),
  DATABASE_URL: z.url().optional().meta({
    group: 'Cluster: services and queues',
    description: 'PostgreSQL (gateway, ingestion, search-orchestrator; `npm run migrate`).',
  }),
  REDIS_URL: z
    .url()
    .optional()
    .meta({ group: 'Cluster: services and queues', description: 'Redis for the rate-limit counters every gateway replica shares.' }),
  NATS_URL: z
    .string()
    .min(1)
    .optional()
    .meta({ group: 'Cluster: services and queues', description: 'NATS with JetStream, for search and ingestion jobs.' }),
  NATS_PREFIX: z
    .string()
    .regex(/^[a-z][a-z0-9_]{0,30}$/)
    .default('cs')
    .meta({
      group: 'Cluster: services and queues',
      accepts: 'a lowercase letter, then up to 30 lowercase letters, digits and `_`',
      description: 'Prefix of streams, subjects, consumers and Redis keys.',
    }),
  GRPC_PORT: int(0, 65535)
    .optional()
    .meta({ group: 'Cluster: services and queues', description: 'Port of the dense, sparse or reranker service.' }),
  DENSE_GRPC_ADDRESS: z
    .string()
    .min(3)
    .default('127.0.0.1:50051')
    .meta({ group: 'Cluster: services and queues', description: 'Where the dense service is.' }),
  SPARSE_GRPC_ADDRESS: z
    .string()
    .min(3)
    .default('127.0.0.1:50052')
    .meta({ group: 'Cluster: services and queues', description: 'Where the sparse service is.' }),
  RERANKER_GRPC_ADDRESS: z
    .string()
    .min(3)
    .default('127.0.0.1:50053')
    .meta({ group: 'Cluster: services and queues', description: 'Where the reranker service is.' }),
  // The stores' deadlines were GRPC_TIMEOUT_MS's before they had their own, so they still follow it.
  GRPC_TIMEOUT_MS: int(100, 60_000).default(10_000).meta({
    group: 'Cluster: services and queues',
    description: 'Deadline of every gRPC call between the services (dense, sparse, reranker).',
  }),
  QDRANT_TIMEOUT_MS: int(100, 60_000)
    .optional()
    .meta({ group: 'Cluster: stores', defaultText: '`GRPC_TIMEOUT_MS`', description: 'Deadline of every request to Qdrant.' }),
  ELASTICSEARCH_TIMEOUT_MS: int(100, 60_000)
    .optional()
    .meta({ group: 'Cluster: stores', defaultText: '`GRPC_TIMEOUT_MS`', description: 'Deadline of every request to Elasticsearch.' }),
  JOBS_ACK_WAIT_MS: int(1000, 600_000)
    .default(30_000)
    .meta({ group: 'Cluster: services and queues', description: 'A job whose worker died is delivered again after this long.' }),
  S3_ENDPOINT: z.url().optional().meta({
    group: 'Cluster: stores',
    description:
      'S3 or MinIO for CV files (else `DATA_DIR/files`); uploads then get S3 presigned URLs. Needs `S3_ACCESS_KEY` and `S3_SECRET_KEY`.',
  }),
  S3_PUBLIC_ENDPOINT: z.url().optional().meta({
    group: 'Cluster: stores',
    defaultText: '`S3_ENDPOINT`',
    description:
      'Where clients outside the cluster reach S3 (scheme, host and port): presigned upload URLs are signed for this host, since a signature covers the Host header.',
  }),
  QDRANT_URL: z.url().optional().meta({
    group: 'Cluster: stores',
    description: 'The dense service keeps its vectors in Qdrant (else the embedded index in `DATA_DIR`).',
  }),
  QDRANT_API_KEY: z.string().min(1).optional().meta({ group: 'Cluster: stores', description: "Qdrant's API key." }),
  QDRANT_COLLECTION: z
    .string()
    .regex(/^[a-z][a-z0-9_]{0,62}$/)
    .default('cs_chunks')
    .meta({
      group: 'Cluster: stores',
      accepts: 'a lowercase letter, then up to 62 lowercase letters, digits and `_`',
      description:
        'Qdrant collection, created with payload indexes on the company, the document and every field filters read (docs/architecture.md).',
    }),
  ELASTICSEARCH_URL: z
    .url()
    .optional()
    .meta({ group: 'Cluster: stores', description: 'The sparse service keeps its BM25 index in Elasticsearch (else the embedded index).' }),
  ELASTICSEARCH_INDEX: z
    .string()
    .regex(/^[a-z][a-z0-9_-]{0,62}$/)
    .default('cs-cvs')
    .meta({
      group: 'Cluster: stores',
      accepts: 'a lowercase letter, then up to 62 lowercase letters, digits, `_` and `-`',
      description:
        "Elasticsearch index, created with the embedded index's analysis (generated from `libs/text-analysis`). An index created with an older analysis keeps it: delete it and ingest again.",
    }),
  S3_ACCESS_KEY: z.string().min(1).optional().meta({ group: 'Cluster: stores', description: "S3's access key." }),
  S3_SECRET_KEY: z.string().min(1).optional().meta({ group: 'Cluster: stores', description: "S3's secret key." }),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/)
    .default('candidate-search-cvs')
    .meta({
      group: 'Cluster: stores',
      accepts: 'an S3 bucket name: 3 to 63 lowercase letters, digits, `.` and `-`',
      description: 'Bucket of the CV files, created when missing.',
    }),
  S3_REGION: z.string().min(1).default('us-east-1').meta({ group: 'Cluster: stores', description: "The bucket's region." }),
  SHUTDOWN_GRACE_MS: int(0, 60_000).default(7000).meta({
    group: 'Service',
    description:
      'On SIGTERM, how long work in hand may finish before it is handed back; closing then has up to 15 s more, in which standalone saves its index snapshots.',
  }),
  DRAIN_MS: int(0, 60_000).default(5000).meta({
    group: 'Service',
    description:
      'On SIGTERM, how long the gateway (and standalone) go on serving while `/readyz` answers 503, so load balancers take them out first.',
  }),
  // 24 h, as Stripe.
  IDEMPOTENCY_KEY_TTL_SECONDS: int(1, 7 * 24 * 3600)
    .default(24 * 3600)
    .meta({
      group: 'Searches and reads',
      description: "How long a POST's answer is kept for retries with the same `Idempotency-Key` (docs/api.md).",
    }),
  WAITS_MAX: int(0, 100_000).default(2000).meta({
    group: 'Searches and reads',
    description:
      'Requests one gateway process (standalone: the process) holds open for `Prefer: wait`; past it a wait is answered at once, without `Preference-Applied`.',
  }),
  WAITS_PER_COMPANY: int(0, 100_000).default(100).meta({ group: 'Searches and reads', description: 'The same, per company.' }),
  EVENT_STREAMS_MAX: int(0, 100_000).default(1000).meta({
    group: 'Searches and reads',
    description:
      'Event streams (`GET /v1/public/searches/{id}/events`) one gateway process keeps open; past it a new stream is refused with 429.',
  }),
  EVENT_STREAMS_PER_COMPANY: int(0, 100_000).default(20).meta({ group: 'Searches and reads', description: 'The same, per company.' }),
  READ_CACHE_MB: int(0, 4096).default(32).meta({
    group: 'Searches and reads',
    description:
      "Memory one gateway process gives to ended searches' answers (status and result pages read so far), kept serialised and compressed and answered without the database or the framework; a CV deleted or changed drops the pages that show it. 0 turns it off.",
  }),
});

export type DenseApiProvider = 'openai' | 'cohere' | 'voyage' | 'tei';
/** One dense model's settings; `spec` is its DENSE_MODEL value, as the operator wrote it. */
export type DenseModelConfig =
  | { kind: 'builtin'; spec: string }
  | {
      kind: 'onnx';
      spec: string;
      /** A sentence-transformers export: model.onnx, tokenizer.json, and its pooling config. */
      modelDir: string;
      /** Override the prefixes the folder's config names (e5's `query: `, bge's instruction). */
      queryPrefix: string | undefined;
      passagePrefix: string | undefined;
      /** Longest input in tokens; longer texts are cut (a CV's head: role, summary, skills). */
      maxTokens: number;
      /** Texts per inference call at ingestion. */
      batchSize: number;
      /** Threads of one inference. */
      threads: number;
    }
  | {
      kind: 'http';
      spec: string;
      provider: DenseApiProvider;
      /** The API's base URL (e.g. https://api.openai.com/v1, http://tei:8080). */
      url: string;
      apiKey: string | undefined;
      /** The provider's model name; TEI serves one model and takes none. */
      model: string | undefined;
      dimensions: number;
      queryPrefix: string | undefined;
      passagePrefix: string | undefined;
      /** Texts per request. */
      batchSize: number;
      /** The whole budget of one call, retries included. */
      timeoutMs: number;
      /** Attempts in all, on 429, 5xx, network errors and timeouts. */
      attempts: number;
    };

/** DENSE_MODEL and the settings of its kind, or the problems with them. */
function denseModelOf(e: z.infer<typeof envSchema>, problems: string[], spec = e.DENSE_MODEL, name = 'DENSE_MODEL'): DenseModelConfig {
  if (spec === 'builtin') return { kind: 'builtin', spec };
  const prefixes = { queryPrefix: e.DENSE_QUERY_PREFIX, passagePrefix: e.DENSE_PASSAGE_PREFIX };
  if (spec.startsWith('onnx:')) {
    const modelDir = path.resolve(spec.slice('onnx:'.length));
    if (!existsSync(modelDir)) problems.push(`${name}: no folder ${modelDir}`);
    return {
      kind: 'onnx',
      spec,
      modelDir,
      ...prefixes,
      maxTokens: e.DENSE_ONNX_MAX_TOKENS,
      batchSize: e.DENSE_BATCH_SIZE,
      threads: e.DENSE_ONNX_THREADS,
    };
  }
  const provider = spec.slice('http:'.length) as DenseApiProvider;
  if (!e.DENSE_API_URL) problems.push(`DENSE_API_URL: required when ${name}=${spec}`);
  if (e.DENSE_API_DIMENSIONS === undefined)
    problems.push(`DENSE_API_DIMENSIONS: required when ${name}=${spec} (the model's vector length)`);
  if (provider !== 'tei' && !e.DENSE_API_MODEL) problems.push(`DENSE_API_MODEL: required when ${name}=${spec}`);
  return {
    kind: 'http',
    spec,
    provider,
    url: (e.DENSE_API_URL ?? '').replace(/\/$/, ''),
    apiKey: e.DENSE_API_KEY,
    model: e.DENSE_API_MODEL,
    dimensions: e.DENSE_API_DIMENSIONS ?? 0,
    ...prefixes,
    batchSize: e.DENSE_BATCH_SIZE,
    timeoutMs: e.DENSE_API_TIMEOUT_MS,
    attempts: e.DENSE_API_ATTEMPTS,
  };
}

export interface S3Endpoint {
  endPoint: string;
  port: number | undefined;
  useSSL: boolean;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

/**
 * CVs in flight per process: while some wait on the main thread (storage, understanding,
 * indexing), others must be queued for each parse worker, or the workers idle between files.
 * With 2 in flight, the one worker of a 2-core machine was busy 80% of the time, and 6 ingest
 * the first 1,000 livecareer PDFs about a fifth faster.
 */
export function defaultIngestionConcurrency(parseWorkers: number): number {
  return Math.max(6, 4 * parseWorkers);
}

function s3EndpointOf(value: string): S3Endpoint {
  const url = new URL(value);
  return { endPoint: url.hostname, port: url.port ? Number(url.port) : undefined, useSSL: url.protocol === 'https:' };
}

/** The external reranker hybrid calls, or the builtin one. */
function rerankerOf(e: z.infer<typeof envSchema>) {
  if (e.RERANKER_PROVIDER === 'local') return { provider: 'local' as const };
  return {
    provider: e.RERANKER_PROVIDER,
    url: e.RERANKER_URL ?? '',
    apiKey: e.RERANKER_API_KEY,
    model: e.RERANKER_MODEL,
    timeoutMs: e.RERANKER_TIMEOUT_MS,
  };
}

/**
 * The environment read into the services' settings: each checked, defaults applied, and settings
 * that depend on one another checked together. {@link AppConfig} is what it gives.
 */
const appConfigSchema = envSchema.transform((e, ctx) => {
  const problems: string[] = [];
  if (e.RERANKER_PROVIDER !== 'local' && !e.RERANKER_URL) {
    problems.push(`RERANKER_URL: required when RERANKER_PROVIDER=${e.RERANKER_PROVIDER}`);
  }
  if (e.S3_ENDPOINT && (!e.S3_ACCESS_KEY || !e.S3_SECRET_KEY)) {
    problems.push('S3_ACCESS_KEY and S3_SECRET_KEY: required with S3_ENDPOINT');
  }
  if (e.S3_PUBLIC_ENDPOINT && !e.S3_ENDPOINT) problems.push('S3_PUBLIC_ENDPOINT: only with S3_ENDPOINT');
  // The bucket is addressed by path, right after the host: a path of the endpoint's own would be lost.
  const publicS3 = e.S3_PUBLIC_ENDPOINT ? new URL(e.S3_PUBLIC_ENDPOINT) : undefined;
  if (publicS3 && (publicS3.pathname !== '/' || publicS3.search)) {
    problems.push('S3_PUBLIC_ENDPOINT: a scheme, host and port only, without a path');
  }
  if (e.RERANKER_ONNX_MODEL_DIR && !existsSync(path.join(e.RERANKER_ONNX_MODEL_DIR, 'model.onnx'))) {
    problems.push(`RERANKER_ONNX_MODEL_DIR: no model.onnx in ${path.resolve(e.RERANKER_ONNX_MODEL_DIR)}`);
  }
  const denseModel = denseModelOf(e, problems);
  const denseModelNext = e.DENSE_MODEL_NEXT === undefined ? undefined : denseModelOf(e, problems, e.DENSE_MODEL_NEXT, 'DENSE_MODEL_NEXT');
  for (const message of problems) ctx.addIssue({ code: 'custom', message: PROBLEM, params: { message } });
  const dataDir = path.resolve(e.DATA_DIR);
  // A worker a core: parsing PDFs is the heaviest step, and one worker on two cores left the
  // second core a third idle while the first set the pace (36 against 42 CVs/s).
  const parseWorkers = e.PARSE_WORKERS ?? Math.max(1, Math.min(4, os.cpus().length));
  const s3Endpoint = e.S3_ENDPOINT ? s3EndpointOf(e.S3_ENDPOINT) : undefined;
  return {
    port: e.PORT,
    /** Where GET /metrics (Prometheus) is served, apart from the API; unset: not served. */
    metricsPort: e.METRICS_PORT,
    host: e.HOST,
    /** Express' 'trust proxy' setting: hops, or the proxies whose X-Forwarded-For is believed. */
    trustProxy: /^\d+$/.test(e.TRUST_PROXY) ? Number(e.TRUST_PROXY) : e.TRUST_PROXY,
    dataDir,
    logLevel: e.LOG_LEVEL,
    publicBaseUrl: (e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    adminToken: e.ADMIN_TOKEN,
    presignSecret: e.PRESIGN_SECRET,
    embeddingsCacheDir: path.resolve(e.EMBEDDINGS_CACHE_DIR ?? path.join(dataDir, 'models')),
    uploadFromUrlAllowPrivateNetworks: e.UPLOAD_FROM_URL_ALLOW_PRIVATE_NETWORKS,
    /** The search console's built files, served at /console; unset: standalone bundles them at start. */
    consoleDir: e.CONSOLE_DIR ? path.resolve(e.CONSOLE_DIR) : undefined,
    webhooks: {
      /** Endpoints on loopback, private and reserved addresses are refused unless this is set. */
      allowPrivateNetworks: e.WEBHOOKS_ALLOW_PRIVATE_NETWORKS,
      /** The wait after the n-th failed attempt; the last repeats. */
      retryDelaysMs: e.WEBHOOKS_RETRY_SCHEDULE,
      /** No attempt starts more than this long after a delivery's first. */
      retryForMs: e.WEBHOOKS_RETRY_FOR,
      /** One attempt's deadline. */
      timeoutMs: e.WEBHOOKS_TIMEOUT_MS,
      /** How often new events and due deliveries are looked for. */
      pollMs: e.WEBHOOKS_POLL_MS,
      /** Deliveries in flight at once, per process. */
      concurrency: e.WEBHOOKS_CONCURRENCY,
      /** Events and their delivery log are kept this long. */
      retentionMs: e.WEBHOOKS_RETENTION,
    },
    searchConcurrency: e.SEARCH_CONCURRENCY,
    /** How often saved searches are run again over the CVs read since. */
    savedSearchesPollMs: e.SAVED_SEARCHES_POLL_MS,
    ingestionConcurrency: e.INGESTION_CONCURRENCY ?? defaultIngestionConcurrency(parseWorkers),
    /** Worker threads that parse files; 0 parses on the main thread. */
    parseWorkers,
    /** The dense encoder (DENSE_MODEL and the settings of its kind). */
    denseModel,
    /** The model a reindex fills beside DENSE_MODEL's vectors (DENSE_MODEL_NEXT), if any. */
    denseModelNext,
    reranker: rerankerOf(e),
    /** A local ONNX cross-encoder that reads the builtin reranker's best `topN` again, when set. */
    /** The builtin ranking's tuned choices: as measured, unless RANKING_TUNING changes some. */
    rankingTuning: e.RANKING_TUNING ?? SHIPPED_TUNING,
    crossEncoder: e.RERANKER_ONNX_MODEL_DIR
      ? { modelDir: path.resolve(e.RERANKER_ONNX_MODEL_DIR), topN: e.RERANKER_ONNX_TOP_N, maxTokens: e.RERANKER_ONNX_MAX_TOKENS }
      : undefined,
    cluster: {
      databaseUrl: e.DATABASE_URL,
      redisUrl: e.REDIS_URL,
      natsUrl: e.NATS_URL,
      natsPrefix: e.NATS_PREFIX,
      grpcPort: e.GRPC_PORT,
      denseAddress: e.DENSE_GRPC_ADDRESS,
      sparseAddress: e.SPARSE_GRPC_ADDRESS,
      rerankerAddress: e.RERANKER_GRPC_ADDRESS,
      /** Deadline of every gRPC call to the dense, sparse and reranker services. */
      grpcTimeoutMs: e.GRPC_TIMEOUT_MS,
      /** A job unacknowledged this long (its worker died) is delivered again. */
      jobsAckWaitMs: e.JOBS_ACK_WAIT_MS,
      /** The dense service's vectors in Qdrant when set, else the embedded index. */
      qdrant: e.QDRANT_URL
        ? {
            url: e.QDRANT_URL,
            apiKey: e.QDRANT_API_KEY,
            collection: e.QDRANT_COLLECTION,
            timeoutMs: e.QDRANT_TIMEOUT_MS ?? e.GRPC_TIMEOUT_MS,
          }
        : undefined,
      /** The sparse service's BM25 index in Elasticsearch when set, else the embedded index. */
      elasticsearch: e.ELASTICSEARCH_URL
        ? { url: e.ELASTICSEARCH_URL, index: e.ELASTICSEARCH_INDEX, timeoutMs: e.ELASTICSEARCH_TIMEOUT_MS ?? e.GRPC_TIMEOUT_MS }
        : undefined,
      /** CV files in S3 when set, else in DATA_DIR/files. */
      s3: s3Endpoint
        ? {
            ...s3Endpoint,
            accessKey: e.S3_ACCESS_KEY ?? '',
            secretKey: e.S3_SECRET_KEY ?? '',
            bucket: e.S3_BUCKET,
            region: e.S3_REGION,
            /** Where presigned URLs send clients: S3_PUBLIC_ENDPOINT, else S3_ENDPOINT. */
            publicEndpoint: e.S3_PUBLIC_ENDPOINT ? s3EndpointOf(e.S3_PUBLIC_ENDPOINT) : s3Endpoint,
          }
        : undefined,
    },
    /** How long in-flight work may finish at shutdown before it is handed back. */
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    /** After SIGTERM, how long an HTTP service goes on serving while /readyz says 503, so load balancers stop sending first. */
    drainMs: e.DRAIN_MS,
    /** How long an answer to a POST with an Idempotency-Key is replayed to retries. */
    idempotencyKeyTtlMs: e.IDEMPOTENCY_KEY_TTL_SECONDS * 1000,
    /** Bounds on requests waiting for searches to end and on event streams, per process and per company. */
    waits: {
      max: e.WAITS_MAX,
      perCompany: e.WAITS_PER_COMPANY,
      streamsMax: e.EVENT_STREAMS_MAX,
      streamsPerCompany: e.EVENT_STREAMS_PER_COMPANY,
    },
    /** Bytes of ended searches' serialised answers (status, result pages) a gateway process keeps. */
    readCacheBytes: e.READ_CACHE_MB * 1024 * 1024,
  };
});

/** The services' settings, as {@link loadConfig} reads them from the environment. */
export type AppConfig = z.output<typeof appConfigSchema>;

/** Marks a problem found across settings: its message is the whole line, with no path before it. */
const PROBLEM = 'cs:problem';

/** Parses the environment; throws one {@link ConfigError} listing every bad key. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const present = Object.fromEntries(
    Object.keys(envSchema.shape)
      .filter((k) => env[k] !== undefined && env[k] !== '')
      .map((k) => [k, env[k]]),
  );
  const parsed = appConfigSchema.safeParse(present);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) =>
        i.code === 'custom' && i.message === PROBLEM ? String(i.params?.message) : `${i.path.join('.')}: ${i.message}`,
      ),
    );
  }
  return parsed.data;
}

// A secret a replica made up would be unknown to the others (and to the admin CLI), so the
// cluster's gateway takes them from the environment; standalone creates them in DATA_DIR.
const SHARED_SECRET = 'the same in every replica, e.g. `openssl rand -base64 32`';
interface RequiredSetting {
  name: string;
  value: (config: AppConfig) => unknown;
  note?: string;
}
const REQUIRED_SETTINGS = {
  databaseUrl: { name: 'DATABASE_URL', value: (c: AppConfig) => c.cluster.databaseUrl },
  redisUrl: { name: 'REDIS_URL', value: (c: AppConfig) => c.cluster.redisUrl },
  natsUrl: { name: 'NATS_URL', value: (c: AppConfig) => c.cluster.natsUrl },
  grpcPort: { name: 'GRPC_PORT', value: (c: AppConfig) => c.cluster.grpcPort },
  adminToken: { name: 'ADMIN_TOKEN', value: (c: AppConfig) => c.adminToken, note: SHARED_SECRET },
  presignSecret: { name: 'PRESIGN_SECRET', value: (c: AppConfig) => c.presignSecret, note: SHARED_SECRET },
} satisfies Record<string, RequiredSetting>;

/** A cluster service names the settings it cannot run without; all missing ones are listed. */
export function requireClusterSettings(config: AppConfig, service: string, keys: (keyof typeof REQUIRED_SETTINGS)[]): void {
  const missing = keys
    .map((k): RequiredSetting => REQUIRED_SETTINGS[k])
    .filter((setting) => setting.value(config) === undefined)
    .map((setting) => `${setting.name}: required by the ${service} service${setting.note ? ` (${setting.note})` : ''}`);
  if (missing.length) throw new ConfigError(missing);
}

/** Names of every setting the service reads. */
export const CONFIG_KEYS = Object.keys(envSchema.shape);

/** The settings' schema, whose metadata the configuration page is generated from. */
export const ENV_SCHEMA = envSchema;

export interface AdminCliConfig {
  url: string;
  /** From ADMIN_TOKEN, else read from this file (standalone mode writes it on first start). */
  token: string | undefined;
  tokenFile: string;
}

/** Where the admin CLI finds the service and its admin token. */
export function loadAdminCliConfig(env: NodeJS.ProcessEnv = process.env): AdminCliConfig {
  const port = env.PORT && /^\d+$/.test(env.PORT) ? env.PORT : '8080';
  return {
    url: (env.ADMIN_URL || `http://localhost:${port}`).replace(/\/$/, ''),
    token: env.ADMIN_TOKEN || undefined,
    tokenFile: path.resolve(env.DATA_DIR || './data', 'admin-token'),
  };
}

export interface CliEnvironment {
  /** CANDIDATE_SEARCH_URL: the service, over the one `login` stored. */
  baseUrl: string | undefined;
  /** CANDIDATE_SEARCH_API_KEY: the key, over the one `login` stored. */
  apiKey: string | undefined;
  /** Where the CLI keeps its config and its upload state. */
  configDir: string;
}

/**
 * What the `candidate-search` CLI reads from its environment. Its folder is
 * `$XDG_CONFIG_HOME/candidate-search` wherever XDG_CONFIG_HOME is set (an absolute path, as the
 * XDG spec requires), else the platform's usual place: `%APPDATA%` on Windows,
 * `~/Library/Application Support` on macOS, `~/.config` elsewhere.
 */
export function loadCliEnvironment(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = os.homedir(),
): CliEnvironment {
  const p = platform === 'win32' ? path.win32 : path.posix;
  const xdg = env.XDG_CONFIG_HOME && p.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : undefined;
  const base =
    xdg ??
    (platform === 'win32'
      ? (env.APPDATA ?? p.join(home, 'AppData', 'Roaming'))
      : platform === 'darwin'
        ? p.join(home, 'Library', 'Application Support')
        : p.join(home, '.config'));
  return {
    baseUrl: env.CANDIDATE_SEARCH_URL || undefined,
    apiKey: env.CANDIDATE_SEARCH_API_KEY?.trim() || undefined,
    configDir: p.join(base, 'candidate-search'),
  };
}
