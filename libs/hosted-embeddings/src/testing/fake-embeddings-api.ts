import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EmbeddingsProvider } from '../hosted-embeddings.encoder';

/** A request as the fake received it. */
export interface RecordedRequest {
  method: string | undefined;
  path: string | undefined;
  authorization: string | undefined;
  contentType: string | undefined;
  body: Record<string, unknown>;
}

/** Answers one request in place of the fake's documented answer (a 429, a hang, an oversized body). */
export type ScriptedAnswer = (res: ServerResponse, request: RecordedRequest) => void;

export interface FakeEmbeddingsApi {
  /** The base URL to give the encoder, as DENSE_API_URL would be. */
  url: string;
  requests: RecordedRequest[];
  /** What the fake found wrong with requests (each also answered 400). */
  problems: string[];
  /** Answers for the next requests, in order; documented answers once they run out. */
  script: ScriptedAnswer[];
  close(): Promise<void>;
}

export interface FakeEmbeddingsApiOptions {
  dimensions: number;
  /** The key the fake requires as a bearer token; none when unset. */
  apiKey?: string;
  model?: string;
}

/**
 * The vector the fakes give a text: a hash of the text and each position, not of unit length, so a
 * test can predict it and see the encoder scale it.
 */
export function fakeVector(text: string, dimensions: number): number[] {
  return Array.from({ length: dimensions }, (_, i) => {
    let hash = 0x811c9dc5;
    for (const char of `${i}:${text}`) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
    return ((hash % 2001) - 1000) / 250;
  });
}

/** fakeVector scaled to unit length: what the encoder should return for the text. */
export function expectedVector(text: string, dimensions: number): number[] {
  const raw = fakeVector(text, dimensions);
  const norm = Math.sqrt(raw.reduce((s, x) => s + x * x, 0));
  return raw.map((x) => Math.fround(x / norm));
}

const PATHS: Record<EmbeddingsProvider, string> = { openai: '/embeddings', cohere: '/v2/embed', voyage: '/embeddings', tei: '/embed' };
const COHERE_MAX_TEXTS = 96;

/**
 * A local server speaking one provider's embeddings API as its documentation gives it: it checks
 * the method, path, bearer key, content type and every body field (no field missing, none extra),
 * answers 400 in the provider's error shape to anything else, and otherwise answers fakeVector of
 * each text in the provider's answer shape.
 */
export async function startFakeEmbeddingsApi(provider: EmbeddingsProvider, options: FakeEmbeddingsApiOptions): Promise<FakeEmbeddingsApi> {
  const requests: RecordedRequest[] = [];
  const problems: string[] = [];
  const script: ScriptedAnswer[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        problems.push('the body is not JSON');
      }
      const request: RecordedRequest = {
        method: req.method,
        path: req.url,
        authorization: req.headers.authorization,
        contentType: req.headers['content-type'],
        body,
      };
      requests.push(request);
      const scripted = script.shift();
      if (scripted) {
        scripted(res, request);
        return;
      }
      const wrong = checkRequest(provider, options, request);
      if (wrong.length) {
        problems.push(...wrong);
        sendJson(res, 400, errorBody(provider, wrong.join('; ')));
        return;
      }
      answer(provider, options, request.body, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    // Voyage's and OpenAI's base URLs end in /v1; Cohere's and TEI's are the bare host.
    url: provider === 'openai' || provider === 'voyage' ? `${base}/v1` : base,
    requests,
    problems,
    script,
    close: () =>
      new Promise((resolve) => {
        // Scripted hangs leave sockets open; close them so the server can stop.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function checkRequest(provider: EmbeddingsProvider, options: FakeEmbeddingsApiOptions, request: RecordedRequest): string[] {
  const wrong: string[] = [];
  const prefix = provider === 'openai' || provider === 'voyage' ? '/v1' : '';
  if (request.method !== 'POST') wrong.push(`method ${request.method}`);
  if (request.path !== `${prefix}${PATHS[provider]}`) wrong.push(`path ${request.path}`);
  if (request.contentType !== 'application/json') wrong.push(`content-type ${request.contentType}`);
  const auth = options.apiKey ? `Bearer ${options.apiKey}` : undefined;
  if (request.authorization !== auth) wrong.push(`authorization ${request.authorization}`);
  const body = request.body;
  const fields: Record<EmbeddingsProvider, string[]> = {
    openai: ['model', 'input', 'encoding_format', ...(options.model?.startsWith('text-embedding-3') ? ['dimensions'] : [])],
    cohere: ['model', 'texts', 'input_type', 'embedding_types'],
    voyage: ['model', 'input', 'input_type'],
    tei: ['inputs', 'normalize', 'truncate'],
  };
  const keys = Object.keys(body).sort();
  if (keys.join() !== [...fields[provider]].sort().join()) wrong.push(`fields ${keys.join(', ')}`);
  const texts = body[provider === 'cohere' ? 'texts' : provider === 'tei' ? 'inputs' : 'input'];
  if (!Array.isArray(texts) || !texts.length || !texts.every((t) => typeof t === 'string' && t.trim()))
    wrong.push('texts not a list of strings');
  if ('model' in body && body.model !== options.model) wrong.push(`model ${String(body.model)}`);
  switch (provider) {
    case 'openai':
      if (body.encoding_format !== 'float') wrong.push('encoding_format');
      if ('dimensions' in body && body.dimensions !== options.dimensions) wrong.push('dimensions');
      break;
    case 'cohere':
      if (body.input_type !== 'search_query' && body.input_type !== 'search_document') wrong.push('input_type');
      if (JSON.stringify(body.embedding_types) !== '["float"]') wrong.push('embedding_types');
      if (Array.isArray(texts) && texts.length > COHERE_MAX_TEXTS) wrong.push(`${texts.length} texts, over 96`);
      break;
    case 'voyage':
      if (body.input_type !== 'query' && body.input_type !== 'document') wrong.push('input_type');
      break;
    case 'tei':
      if (body.normalize !== true || body.truncate !== true) wrong.push('normalize/truncate');
      break;
  }
  return wrong;
}

function answer(provider: EmbeddingsProvider, options: FakeEmbeddingsApiOptions, body: Record<string, unknown>, res: ServerResponse): void {
  const texts = (body.input ?? body.texts ?? body.inputs) as string[];
  const vectors = texts.map((text) => fakeVector(text, options.dimensions));
  switch (provider) {
    case 'openai':
      // Listed last first: the documentation promises an index, not an order.
      sendJson(res, 200, {
        object: 'list',
        data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })).reverse(),
        model: options.model,
        usage: { prompt_tokens: 1, total_tokens: 1 },
      });
      return;
    case 'voyage':
      sendJson(res, 200, {
        object: 'list',
        data: vectors.map((embedding, index) => ({ object: 'embedding', embedding, index })),
        model: options.model,
        usage: { total_tokens: 1 },
      });
      return;
    case 'cohere':
      sendJson(res, 200, { id: 'fake', embeddings: { float: vectors }, texts, meta: {}, response_type: 'embeddings_by_type' });
      return;
    case 'tei':
      sendJson(res, 200, vectors);
      return;
  }
}

/** Each provider's documented error body. */
export function errorBody(provider: EmbeddingsProvider, message: string): unknown {
  switch (provider) {
    case 'openai':
      return { error: { message, type: 'invalid_request_error', param: null, code: null } };
    case 'cohere':
      return { id: 'fake', message };
    case 'voyage':
      return { detail: message };
    case 'tei':
      return { error: message, error_type: 'validation' };
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}
