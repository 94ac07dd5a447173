import {
  EncoderUnavailableError,
  type CvEmbedding,
  type DenseEncoder,
  type DenseModel,
  type EmbedOptions,
  type QueryEmbedding,
} from '@cs/ports';

/** The embeddings APIs we speak, each in its own documented request and response shape. */
export type EmbeddingsProvider = 'openai' | 'cohere' | 'voyage' | 'tei';

/** The same fields as the config's `http` dense model, so the config passes as it is. */
export interface HostedEmbeddingsOptions {
  provider: EmbeddingsProvider;
  /** Base URL without a trailing slash: https://api.openai.com/v1, https://api.cohere.com, https://api.voyageai.com/v1, http://tei:8080. */
  url: string;
  apiKey: string | undefined;
  /** The provider's model name; TEI serves one model and takes none. */
  model: string | undefined;
  /** The vector length every answer must have. */
  dimensions: number;
  queryPrefix: string | undefined;
  passagePrefix: string | undefined;
  /** Texts per request (lowered to the provider's own cap). */
  batchSize: number;
  /** The whole budget of one request, its retries included. */
  timeoutMs: number;
  /** Attempts in all, on 429, 5xx, network errors and timeouts. */
  attempts: number;
  /** Largest answer read; a bigger one is refused while it is read. */
  maxResponseBytes?: number;
}

/**
 * The API refused the request or answered something unusable (a bad key, an unknown model, vectors of
 * another length): trying again cannot help, the operator must fix the settings.
 */
export class EmbeddingsApiError extends Error {
  readonly retryable = false;
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'EmbeddingsApiError';
  }
}

/**
 * Longest text sent, in characters. OpenAI refuses (rather than cuts) an input over 8,192 tokens, and
 * Cohere and Voyage read only the head of a long one anyway; 8,000 characters are about 2,000 English
 * tokens, so text in denser scripts fits too, and a CV's head (role, summary, skills) says most of
 * what it is about. TEI cuts by itself (`truncate: true`), but the same cap costs it nothing.
 */
export const MAX_INPUT_CHARS = 8_000;

/**
 * A bound on one answer: 512 texts (the largest DENSE_BATCH_SIZE) of 3,072 floats printed in JSON
 * take about 32 MB, so 64 MB leaves room and still stops a server that streams without end.
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/** Texts per request each API accepts: Cohere 96, Voyage 1,000, OpenAI 2,048; TEI's is its --max-client-batch-size. */
const PROVIDER_BATCH_CAP: Record<EmbeddingsProvider, number> = { openai: 2048, cohere: 96, voyage: 1000, tei: Infinity };

/** An error answer is read this far, and quoted shorter still: enough to say what the provider objects to. */
const ERROR_BODY_BYTES = 16 * 1024;
const ERROR_EXCERPT_CHARS = 300;

const BACKOFF_BASE_MS = 200;
const BACKOFF_CAP_MS = 4000;

type InputKind = 'query' | 'passage';

/** A failure another attempt may get past (429, 5xx, no answer in time, no connection). */
class RetryableFailure extends Error {
  constructor(
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

/**
 * A DenseEncoder over a hosted embeddings API: OpenAI's `/embeddings` (which vLLM, Ollama, LiteLLM
 * and most gateways also speak), Cohere's `/v2/embed`, Voyage's `/embeddings` and Hugging Face
 * TEI's `/embed`. Texts go in batches, one request after another; each request has one deadline
 * over its attempts, backing off with full jitter or as `Retry-After` says. Every answer is checked
 * (count, length, numbers) and its vectors scaled to unit length.
 */
export class HostedEmbeddingsEncoder implements DenseEncoder {
  readonly model: DenseModel;
  private readonly batchSize: number;
  private readonly maxResponseBytes: number;
  /** Aborted by close(): ends requests in flight and pauses between attempts. */
  private readonly closing = new AbortController();

  constructor(private readonly options: HostedEmbeddingsOptions) {
    const name = options.model ?? (options.provider === 'tei' ? 'default' : undefined);
    if (!name) throw new Error(`DENSE_API_MODEL: required when DENSE_MODEL=http:${options.provider}`);
    if (!Number.isInteger(options.dimensions) || options.dimensions <= 0) {
      throw new Error(`DENSE_API_DIMENSIONS: must be a positive whole number, not ${options.dimensions}`);
    }
    this.model = { id: `http:${options.provider}/${name}`, dimensions: options.dimensions };
    this.batchSize = Math.max(1, Math.min(options.batchSize, PROVIDER_BATCH_CAP[options.provider]));
    this.maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  }

  async embedQuery(text: string, options: EmbedOptions = {}): Promise<QueryEmbedding> {
    const [vector] = await this.embed([text], 'query', options.signal);
    return { vector: vector ?? null, unknownWords: [] };
  }

  embedPassages(texts: readonly string[], options: EmbedOptions = {}): Promise<(Float32Array | null)[]> {
    return this.embed(texts, 'passage', options.signal);
  }

  async embedCv(text: string, passages: readonly string[], options: EmbedOptions = {}): Promise<CvEmbedding> {
    const [whole, ...rest] = await this.embed([text, ...passages], 'passage', options.signal);
    return { whole: whole ?? null, passages: rest };
  }

  async close(): Promise<void> {
    this.closing.abort();
  }

  /** Vectors for the texts, in order; null for a blank text, which is not sent. */
  private async embed(texts: readonly string[], kind: InputKind, signal: AbortSignal | undefined): Promise<(Float32Array | null)[]> {
    const vectors: (Float32Array | null)[] = texts.map(() => null);
    const sent = texts.flatMap((text, index) => (text.trim() ? [index] : []));
    for (let start = 0; start < sent.length; start += this.batchSize) {
      const batch = sent.slice(start, start + this.batchSize);
      const answered = await this.request(
        batch.map((index) => texts[index]),
        kind,
        signal,
      );
      batch.forEach((index, i) => (vectors[index] = answered[i]));
    }
    return vectors;
  }

  /** One batch, retried on what may pass, within one deadline. */
  private async request(texts: string[], kind: InputKind, signal: AbortSignal | undefined): Promise<(Float32Array | null)[]> {
    const { attempts, timeoutMs } = this.options;
    const deadline = Date.now() + timeoutMs;
    let made = 0;
    let lastFailure = 'no attempt was made';
    while (made < attempts) {
      this.throwIfStopped(signal);
      const remaining = deadline - Date.now();
      if (remaining <= 0) break;
      made++;
      try {
        return await this.attempt(texts, kind, remaining, signal);
      } catch (error) {
        if (!(error instanceof RetryableFailure)) throw error;
        lastFailure = error.message;
        if (made >= attempts) break;
        const pause = error.retryAfterMs ?? Math.random() * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** made);
        if (Date.now() + pause >= deadline) {
          // Waiting past the deadline only to give up then would hold the caller for nothing.
          if (error.retryAfterMs !== undefined) lastFailure += ` and asked to wait ${Math.ceil(pause / 1000)} s, past the deadline`;
          break;
        }
        await this.pause(pause, signal);
      }
    }
    throw new EncoderUnavailableError(
      `the ${this.options.provider} embeddings API at ${this.host()} failed ${made} attempt${made === 1 ? '' : 's'} within ${timeoutMs} ms: ${lastFailure}`,
    );
  }

  private async attempt(
    texts: string[],
    kind: InputKind,
    timeoutMs: number,
    signal: AbortSignal | undefined,
  ): Promise<(Float32Array | null)[]> {
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), timeoutMs);
    const stop = AbortSignal.any([timeout.signal, this.closing.signal, ...(signal ? [signal] : [])]);
    try {
      const { path, body } = this.requestOf(texts, kind);
      const response = await fetch(`${this.options.url}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}),
        },
        body: JSON.stringify(body),
        signal: stop,
      });
      // 408 and 429 say "later", as a 5xx does; any other 4xx will answer the same again.
      if (response.status === 408 || response.status === 429 || response.status >= 500) {
        const said = await this.errorMessage(response);
        throw new RetryableFailure(`HTTP ${response.status}${said ? `: ${said}` : ''}`, retryAfterMs(response.headers.get('retry-after')));
      }
      if (!response.ok) throw await this.refusal(response);
      const raw = await readBounded(response, this.maxResponseBytes, this.options.provider);
      return this.vectorsOf(parseJson(raw, response, this.options.provider), texts.length);
    } catch (error) {
      this.throwIfStopped(signal);
      if (timeout.signal.aborted) throw new RetryableFailure(`no answer within ${timeoutMs} ms`);
      if (error instanceof RetryableFailure || error instanceof EmbeddingsApiError) throw error;
      throw new RetryableFailure(`unreachable (${networkReason(error)})`);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The path and body in the provider's documented shape. */
  private requestOf(texts: string[], kind: InputKind): { path: string; body: Record<string, unknown> } {
    const prefix = (kind === 'query' ? this.options.queryPrefix : this.options.passagePrefix) ?? '';
    const input = texts.map((text) => cutToLength(prefix + text, MAX_INPUT_CHARS));
    const model = this.options.model;
    switch (this.options.provider) {
      case 'openai':
        return {
          path: '/embeddings',
          body: {
            model,
            input,
            encoding_format: 'float',
            // OpenAI's text-embedding-3 models shorten their vectors on request; older models and most
            // compatible servers refuse the field, so it goes only to those.
            ...(model?.startsWith('text-embedding-3') ? { dimensions: this.options.dimensions } : {}),
          },
        };
      case 'cohere':
        return {
          path: '/v2/embed',
          body: { model, texts: input, input_type: kind === 'query' ? 'search_query' : 'search_document', embedding_types: ['float'] },
        };
      case 'voyage':
        return { path: '/embeddings', body: { model, input, input_type: kind === 'query' ? 'query' : 'document' } };
      case 'tei':
        return { path: '/embed', body: { inputs: input, normalize: true, truncate: true } };
    }
  }

  /** The answer's vectors in input order, each checked and scaled to unit length. */
  private vectorsOf(answer: unknown, count: number): (Float32Array | null)[] {
    const provider = this.options.provider;
    let lists: unknown;
    switch (provider) {
      case 'openai':
      case 'voyage':
        lists = indexedEmbeddings(answer, count, provider);
        break;
      case 'cohere':
        lists = (answer as { embeddings?: { float?: unknown } } | null)?.embeddings?.float;
        break;
      case 'tei':
        lists = answer;
        break;
    }
    if (!Array.isArray(lists)) {
      throw new EmbeddingsApiError(`the ${provider} embeddings API answered JSON without the vectors where its API puts them`);
    }
    if (lists.length !== count) {
      throw new EmbeddingsApiError(`the ${provider} embeddings API answered ${lists.length} vectors for ${count} texts`);
    }
    return lists.map((list) => this.unitVector(list));
  }

  private unitVector(list: unknown): Float32Array | null {
    const provider = this.options.provider;
    if (!Array.isArray(list))
      throw new EmbeddingsApiError(`the ${provider} embeddings API answered a vector that is not a list of numbers`);
    if (list.length !== this.model.dimensions) {
      throw new EmbeddingsApiError(
        `the ${provider} embeddings API answered ${list.length}-long vectors; DENSE_API_DIMENSIONS says ${this.model.dimensions}`,
      );
    }
    const vector = new Float32Array(list.length);
    let sumOfSquares = 0;
    for (let i = 0; i < list.length; i++) {
      const value: unknown = list[i];
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        throw new EmbeddingsApiError(`the ${provider} embeddings API answered a vector holding ${JSON.stringify(value)}`);
      }
      vector[i] = value;
      sumOfSquares += value * value;
    }
    // An all-zero vector points nowhere: the model read nothing of the text.
    if (sumOfSquares === 0) return null;
    const norm = Math.sqrt(sumOfSquares);
    for (let i = 0; i < vector.length; i++) vector[i] /= norm;
    return vector;
  }

  /** A refusal (a 4xx other than 408 and 429) as a sentence with the status and what the provider said. */
  private async refusal(response: Response): Promise<EmbeddingsApiError> {
    const said = await this.errorMessage(response);
    const hint =
      response.status === 401 || response.status === 403
        ? ' (check DENSE_API_KEY)'
        : response.status === 404
          ? ' (check DENSE_API_URL and DENSE_API_MODEL)'
          : response.status === 413
            ? ' (lower DENSE_BATCH_SIZE)'
            : '';
    return new EmbeddingsApiError(
      `the ${this.options.provider} embeddings API at ${this.host()} refused the request with HTTP ${response.status}${hint}${said ? `: ${said}` : ''}`,
      response.status,
    );
  }

  /** What an error answer says, cut short; empty when its body cannot be read (the status then says enough). */
  private async errorMessage(response: Response): Promise<string> {
    try {
      return providerMessage(await readBounded(response, ERROR_BODY_BYTES, this.options.provider, true));
    } catch {
      return '';
    }
  }

  /** Stops at once when the caller aborts (their reason) or the encoder is closed. */
  private throwIfStopped(signal: AbortSignal | undefined): void {
    signal?.throwIfAborted();
    if (this.closing.signal.aborted) throw new EncoderUnavailableError('the embeddings encoder is closed');
  }

  /** Waits `ms`, or less when the caller aborts or the encoder closes (the loop then stops). */
  private pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve) => {
      const stops = [this.closing.signal, ...(signal ? [signal] : [])];
      const done = () => {
        clearTimeout(timer);
        for (const stop of stops) stop.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      for (const stop of stops) stop.addEventListener('abort', done, { once: true });
    });
  }

  /** The API's host for messages: never its path's query or any credentials in the URL. */
  private host(): string {
    try {
      return new URL(this.options.url).host;
    } catch {
      return 'its URL';
    }
  }
}

/** OpenAI's and Voyage's `data: [{ index, embedding }]`, as embeddings in index order. */
function indexedEmbeddings(answer: unknown, count: number, provider: EmbeddingsProvider): unknown[] | undefined {
  const data = (answer as { data?: unknown } | null)?.data;
  // A wrong count is reported by the caller, as for the other shapes.
  if (!Array.isArray(data) || data.length !== count) return data as unknown[] | undefined;
  const ordered: unknown[] = new Array<unknown>(count);
  const seen = new Set<number>();
  for (const item of data as unknown[]) {
    const { index, embedding } = (item ?? {}) as { index?: unknown; embedding?: unknown };
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= count || seen.has(index)) {
      throw new EmbeddingsApiError(`the ${provider} embeddings API answered an embedding with a missing, repeated or unknown index`);
    }
    seen.add(index);
    ordered[index] = embedding;
  }
  return ordered;
}

/**
 * Why a fetch failed: it rejects a refused or reset connection with TypeError('fetch failed') and
 * the reason in its cause (an AggregateError, message empty, when several addresses were tried).
 */
function networkReason(error: unknown): string {
  const cause = (error as { cause?: unknown } | null)?.cause ?? error;
  const { message, code } = (cause ?? {}) as { message?: unknown; code?: unknown };
  if (typeof message === 'string' && message) return message;
  return typeof code === 'string' ? code : String(cause);
}

/** Seconds or an HTTP date, as milliseconds from now; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  const value = header?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * The body as text, refusing one over `limit` bytes: by its declared length before reading, and by
 * counting while it reads (a chunked answer declares none). `truncate` keeps the head instead.
 */
async function readBounded(response: Response, limit: number, provider: EmbeddingsProvider, truncate = false): Promise<string> {
  const tooBig = () => new EmbeddingsApiError(`the ${provider} embeddings API answered more than ${limit} bytes; refused`);
  const declared = Number(response.headers.get('content-length'));
  if (!truncate && Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel();
    throw tooBig();
  }
  if (!response.body) return '';
  // Node types a fetch body's chunks as any; they are bytes.
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.byteLength > limit) {
      await reader.cancel();
      if (!truncate) throw tooBig();
      chunks.push(value.subarray(0, limit - size));
      break;
    }
    chunks.push(value);
    size += value.byteLength;
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(raw: string, response: Response, provider: EmbeddingsProvider): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    const type = response.headers.get('content-type') ?? 'no content type';
    throw new EmbeddingsApiError(`the ${provider} embeddings API answered something other than JSON (${type}): ${excerpt(raw)}`);
  }
}

/**
 * What an error answer says: OpenAI's `error.message`, Cohere's `message`, Voyage's `detail`, TEI's
 * `error`; the raw text otherwise. Cut short, since it goes into logs and error messages.
 */
function providerMessage(raw: string): string {
  let said: unknown = raw;
  try {
    const body = JSON.parse(raw) as { error?: unknown; message?: unknown; detail?: unknown } | null;
    const nested = typeof body?.error === 'object' ? (body.error as { message?: unknown } | null)?.message : undefined;
    said = [nested, body?.message, body?.detail, body?.error].find((v) => typeof v === 'string') ?? raw;
  } catch {
    // Not JSON: quote the text.
  }
  return excerpt(String(said));
}

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > ERROR_EXCERPT_CHARS ? `${cutToLength(flat, ERROR_EXCERPT_CHARS)}…` : flat;
}

/** The head of `text`, at most `max` UTF-16 units, never splitting a surrogate pair (a lone half is not valid Unicode). */
function cutToLength(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}
