import { EncoderUnavailableError } from '@cs/ports';
import { describeDenseEncoderContract } from '@cs/ports/testing';
import {
  EmbeddingsApiError,
  HostedEmbeddingsEncoder,
  MAX_INPUT_CHARS,
  retryAfterMs,
  type HostedEmbeddingsOptions,
} from './hosted-embeddings.encoder';
import {
  errorBody,
  expectedVector,
  sendJson,
  startFakeEmbeddingsApi,
  type FakeEmbeddingsApi,
  type ScriptedAnswer,
} from './testing/fake-embeddings-api';

type Provider = HostedEmbeddingsOptions['provider'];

/** Each provider as an operator would set it up (the dimension kept small for the fakes). */
const SETUPS: Record<Provider, { model: string | undefined; apiKey: string | undefined }> = {
  openai: { model: 'text-embedding-3-small', apiKey: 'sk-test' },
  cohere: { model: 'embed-english-v3.0', apiKey: 'co-test' },
  voyage: { model: 'voyage-3.5', apiKey: 'pa-test' },
  tei: { model: undefined, apiKey: undefined },
};
const PROVIDERS = Object.keys(SETUPS) as Provider[];
const DIMENSIONS = 8;

async function openFake(
  provider: Provider,
  overrides: Partial<HostedEmbeddingsOptions> = {},
  fakeDimensions = DIMENSIONS,
): Promise<{ fake: FakeEmbeddingsApi; encoder: HostedEmbeddingsEncoder }> {
  const { apiKey } = SETUPS[provider];
  const model = 'model' in overrides ? overrides.model : SETUPS[provider].model;
  const fake = await startFakeEmbeddingsApi(provider, { dimensions: fakeDimensions, apiKey, model });
  const encoder = new HostedEmbeddingsEncoder({
    provider,
    url: fake.url,
    apiKey,
    model,
    dimensions: DIMENSIONS,
    queryPrefix: undefined,
    passagePrefix: undefined,
    batchSize: 32,
    timeoutMs: 5000,
    attempts: 3,
    ...overrides,
  });
  return { fake, encoder };
}

const closeValues = (vector: Float32Array | null | undefined, expected: number[]) =>
  expect([...(vector ?? [])]).toEqual(expected.map((x) => expect.closeTo(x, 6) as unknown as number));

for (const provider of PROVIDERS) {
  describeDenseEncoderContract(`http:${provider} (a fake of its API)`, async () => {
    const { fake, encoder } = await openFake(provider);
    return { encoder, cleanup: () => fake.close() };
  });
}

describe('HostedEmbeddingsEncoder', () => {
  let opened: { fake: FakeEmbeddingsApi; encoder: HostedEmbeddingsEncoder }[] = [];
  const open = async (...args: Parameters<typeof openFake>) => {
    const pair = await openFake(...args);
    opened.push(pair);
    return pair;
  };
  afterEach(async () => {
    for (const { fake, encoder } of opened) {
      await encoder.close();
      await fake.close();
    }
    opened = [];
  });

  it('names its model http:<provider>/<model>, TEI by the model given or as default', async () => {
    expect((await open('openai')).encoder.model).toEqual({ id: 'http:openai/text-embedding-3-small', dimensions: DIMENSIONS });
    expect((await open('voyage')).encoder.model.id).toBe('http:voyage/voyage-3.5');
    expect((await open('tei')).encoder.model.id).toBe('http:tei/default');
    expect((await open('tei', { model: 'BAAI/bge-small-en-v1.5' })).encoder.model.id).toBe('http:tei/BAAI/bge-small-en-v1.5');
  });

  it('sends OpenAI its documented request, with the dimension for a text-embedding-3 model, and reads the answer by index', async () => {
    const { fake, encoder } = await open('openai', { queryPrefix: 'query: ', passagePrefix: 'passage: ' });
    const vectors = await encoder.embedPassages(['nurse', 'chef']);
    const { vector } = await encoder.embedQuery('icu nurse');
    expect(fake.requests.map((r) => [r.path, r.authorization, r.body])).toEqual([
      [
        '/v1/embeddings',
        'Bearer sk-test',
        { model: 'text-embedding-3-small', input: ['passage: nurse', 'passage: chef'], encoding_format: 'float', dimensions: DIMENSIONS },
      ],
      [
        '/v1/embeddings',
        'Bearer sk-test',
        { model: 'text-embedding-3-small', input: ['query: icu nurse'], encoding_format: 'float', dimensions: DIMENSIONS },
      ],
    ]);
    // The fake lists the answer last first: the vectors come back in the order of the texts all the same.
    closeValues(vectors[0], expectedVector('passage: nurse', DIMENSIONS));
    closeValues(vectors[1], expectedVector('passage: chef', DIMENSIONS));
    closeValues(vector, expectedVector('query: icu nurse', DIMENSIONS));
  });

  it('leaves the dimension out for other OpenAI-compatible models, which refuse it', async () => {
    const { fake, encoder } = await open('openai', { model: 'nomic-embed-text' });
    await encoder.embedPassages(['x']);
    expect(fake.requests[0].body).toEqual({ model: 'nomic-embed-text', input: ['x'], encoding_format: 'float' });
  });

  it("sends Cohere search_query or search_document, and Voyage query or document, as each text's input type", async () => {
    const cohere = await open('cohere');
    const voyage = await open('voyage');
    for (const { encoder } of [cohere, voyage]) {
      await encoder.embedQuery('java developer');
      await encoder.embedPassages(['ten years of Java']);
    }
    expect(cohere.fake.requests.map((r) => [r.path, r.authorization, r.body])).toEqual([
      [
        '/v2/embed',
        'Bearer co-test',
        { model: 'embed-english-v3.0', texts: ['java developer'], input_type: 'search_query', embedding_types: ['float'] },
      ],
      [
        '/v2/embed',
        'Bearer co-test',
        { model: 'embed-english-v3.0', texts: ['ten years of Java'], input_type: 'search_document', embedding_types: ['float'] },
      ],
    ]);
    expect(voyage.fake.requests.map((r) => [r.path, r.authorization, r.body])).toEqual([
      ['/v1/embeddings', 'Bearer pa-test', { model: 'voyage-3.5', input: ['java developer'], input_type: 'query' }],
      ['/v1/embeddings', 'Bearer pa-test', { model: 'voyage-3.5', input: ['ten years of Java'], input_type: 'document' }],
    ]);
  });

  it('sends TEI its inputs with the prefixes, no model and no key', async () => {
    const { fake, encoder } = await open('tei', { queryPrefix: 'Represent this sentence for searching relevant passages: ' });
    const { vector } = await encoder.embedQuery('welder');
    expect(fake.requests.map((r) => [r.path, r.authorization, r.body])).toEqual([
      [
        '/embed',
        undefined,
        { inputs: ['Represent this sentence for searching relevant passages: welder'], normalize: true, truncate: true },
      ],
    ]);
    closeValues(vector, expectedVector('Represent this sentence for searching relevant passages: welder', DIMENSIONS));
  });

  it('sends no blank text: its vector is null', async () => {
    const { fake, encoder } = await open('voyage');
    const vectors = await encoder.embedPassages(['nurse', '  \n', 'chef']);
    expect(vectors[1]).toBeNull();
    closeValues(vectors[2], expectedVector('chef', DIMENSIONS));
    expect(await encoder.embedQuery(' ')).toEqual({ vector: null, unknownWords: [] });
    expect(fake.requests.map((r) => r.body.input)).toEqual([['nurse', 'chef']]);
  });

  it('sends texts in batches of DENSE_BATCH_SIZE, one after another, keeping their order', async () => {
    const { fake, encoder } = await open('openai', { batchSize: 2 });
    const texts = ['a1', 'b2', 'c3', 'd4', 'e5'];
    const vectors = await encoder.embedPassages(texts);
    expect(fake.requests.map((r) => r.body.input)).toEqual([['a1', 'b2'], ['c3', 'd4'], ['e5']]);
    texts.forEach((text, i) => closeValues(vectors[i], expectedVector(text, DIMENSIONS)));
  });

  it("holds to Cohere's 96 texts a request whatever DENSE_BATCH_SIZE says", async () => {
    const { fake, encoder } = await open('cohere', { batchSize: 200 });
    const vectors = await encoder.embedPassages(Array.from({ length: 100 }, (_, i) => `text ${i}`));
    expect(fake.requests.map((r) => (r.body.texts as string[]).length)).toEqual([96, 4]);
    closeValues(vectors[99], expectedVector('text 99', DIMENSIONS));
  });

  it("sends a CV's whole and its passages in the same request, the whole cut to its head", async () => {
    const { fake, encoder } = await open('cohere');
    const cv = 'x'.repeat(MAX_INPUT_CHARS + 2000);
    const { whole, passages } = await encoder.embedCv(cv, ['nurse', 'chef']);
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0].body.texts).toEqual(['x'.repeat(MAX_INPUT_CHARS), 'nurse', 'chef']);
    expect(fake.requests[0].body.input_type).toBe('search_document');
    closeValues(whole, expectedVector('x'.repeat(MAX_INPUT_CHARS), DIMENSIONS));
    closeValues(passages[1], expectedVector('chef', DIMENSIONS));
  });

  it('never cuts a text between the halves of a surrogate pair', async () => {
    const { fake, encoder } = await open('tei');
    await encoder.embedPassages(['a'.repeat(MAX_INPUT_CHARS - 1) + '😀 and more']);
    expect(fake.requests[0].body.inputs).toEqual(['a'.repeat(MAX_INPUT_CHARS - 1)]);
  });

  it('waits as Retry-After says after a 429, then succeeds', async () => {
    const { fake, encoder } = await open('voyage');
    const times: number[] = [];
    fake.script.push((res) => {
      times.push(Date.now());
      sendJson(res, 429, errorBody('voyage', 'rate limited'), { 'retry-after': '1' });
    });
    const vectors = await encoder.embedPassages(['nurse']);
    times.push(Date.now());
    closeValues(vectors[0], expectedVector('nurse', DIMENSIONS));
    expect(fake.requests).toHaveLength(2);
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(950);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs('3', now)).toBe(3000);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5000);
    expect(retryAfterMs('Wed, 31 Dec 2025 23:59:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });

  it('gives up at once when Retry-After asks to wait past the deadline', async () => {
    const { fake, encoder } = await open('openai', { timeoutMs: 20_000 });
    fake.script.push((res) => sendJson(res, 429, errorBody('openai', 'slow down'), { 'retry-after': '30' }));
    const started = Date.now();
    await expect(encoder.embedPassages(['a'])).rejects.toThrow(
      /failed 1 attempt within 20000 ms: HTTP 429: slow down and asked to wait 30 s, past the deadline/,
    );
    // At once: far from the 20 s deadline, which waiting would have run to.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(fake.requests).toHaveLength(1);
  });

  it('retries 503s and, the attempts spent, throws EncoderUnavailableError saying how many', async () => {
    const { fake, encoder } = await open('cohere', { attempts: 3 });
    const unavailable: ScriptedAnswer = (res) => sendJson(res, 503, { message: 'overloaded' });
    fake.script.push(unavailable, unavailable, unavailable, unavailable);
    const failure = encoder.embedPassages(['a']);
    await expect(failure).rejects.toBeInstanceOf(EncoderUnavailableError);
    await expect(failure).rejects.toThrow(
      /^the cohere embeddings API at 127\.0\.0\.1:\d+ failed 3 attempts within 5000 ms: HTTP 503: overloaded$/,
    );
    expect(fake.requests).toHaveLength(3);
  });

  it('retries a refused connection and says it was unreachable', async () => {
    const { fake, encoder } = await open('tei', { attempts: 2 });
    await fake.close();
    const failure = encoder.embedPassages(['a']);
    await expect(failure).rejects.toBeInstanceOf(EncoderUnavailableError);
    await expect(failure).rejects.toThrow(/failed 2 attempts .*unreachable \(.*ECONNREFUSED/);
  });

  it('gives up at once on a 400, quoting what the provider said', async () => {
    const { fake, encoder } = await open('voyage');
    fake.script.push((res) => sendJson(res, 400, errorBody('voyage', 'Value of input_type is not valid')));
    const failure = encoder.embedPassages(['a']);
    await expect(failure).rejects.toBeInstanceOf(EmbeddingsApiError);
    await expect(failure).rejects.toMatchObject({
      status: 400,
      retryable: false,
      message: expect.stringMatching(/refused the request with HTTP 400: Value of input_type is not valid$/) as unknown,
    });
    expect(fake.requests).toHaveLength(1);
  });

  it('says to check the key on a 401, quoting a long provider message only in part', async () => {
    const { fake, encoder } = await open('openai');
    fake.script.push((res) => sendJson(res, 401, errorBody('openai', `Incorrect API key provided. ${'x'.repeat(5000)}`)));
    const error = (await encoder.embedQuery('a').catch((e: unknown) => e)) as EmbeddingsApiError;
    expect(error).toBeInstanceOf(EmbeddingsApiError);
    expect(error.message).toMatch(/HTTP 401 \(check DENSE_API_KEY\): Incorrect API key provided\. x+…$/);
    expect(error.message.length).toBeLessThan(500);
    expect(fake.requests).toHaveLength(1);
  });

  it('says so in a sentence when the vectors are not of the configured length', async () => {
    const { encoder } = await open('openai', { model: 'text-embedding-ada-002', dimensions: 384 }, 1536);
    await expect(encoder.embedPassages(['a'])).rejects.toThrow(
      new EmbeddingsApiError('the openai embeddings API answered 1536-long vectors; DENSE_API_DIMENSIONS says 384'),
    );
  });

  it('refuses an answer with another number of vectors than texts sent', async () => {
    const { fake, encoder } = await open('tei');
    fake.script.push((res) => sendJson(res, 200, [expectedVector('a', DIMENSIONS)]));
    await expect(encoder.embedPassages(['a', 'b'])).rejects.toThrow(/answered 1 vectors for 2 texts/);
  });

  it('refuses an answer that is not JSON, quoting its head', async () => {
    const { fake, encoder } = await open('openai');
    fake.script.push((res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>Welcome to nginx</html>'));
    await expect(encoder.embedPassages(['a'])).rejects.toThrow(
      /answered something other than JSON \(text\/html\): <html>Welcome to nginx<\/html>/,
    );
  });

  it('refuses an answer declaring more bytes than the bound, and one that streams past it', async () => {
    const { fake, encoder } = await open('tei', { maxResponseBytes: 1000 });
    fake.script.push((res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify([Array(500).fill(0.5)])));
    await expect(encoder.embedPassages(['a'])).rejects.toThrow(/answered more than 1000 bytes; refused/);
    // No declared length, and an answer that never ends: only counting while reading stops it.
    fake.script.push((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[[');
      const timer = setInterval(() => res.write('0.5,'.repeat(64)), 5);
      res.on('close', () => clearInterval(timer));
    });
    await expect(encoder.embedPassages(['a'])).rejects.toThrow(/answered more than 1000 bytes; refused/);
  });

  it('throws EncoderUnavailableError within the deadline when the API never answers', async () => {
    const { fake, encoder } = await open('cohere', { timeoutMs: 400, attempts: 5 });
    const hang: ScriptedAnswer = () => undefined;
    fake.script.push(hang, hang, hang, hang, hang);
    await expect(encoder.embedPassages(['a'])).rejects.toThrow(EncoderUnavailableError);
    await expect(encoder.embedPassages(['b'])).rejects.toThrow(/within 400 ms: no answer within \d+ ms/);
    // One attempt each: the deadline is the call's, not each attempt's (which would have made five).
    expect(fake.requests).toHaveLength(2);
  });

  it("stops at the caller's abort, in a request or between attempts, and sends nothing once aborted", async () => {
    const { fake, encoder } = await open('voyage', { timeoutMs: 10_000 });
    fake.script.push(() => undefined);
    const inRequest = new AbortController();
    setTimeout(() => inRequest.abort(), 50);
    await expect(encoder.embedPassages(['a'], { signal: inRequest.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(fake.requests).toHaveLength(1);

    fake.script.push((res) => sendJson(res, 429, errorBody('voyage', 'later'), { 'retry-after': '5' }));
    const inPause = new AbortController();
    setTimeout(() => inPause.abort(), 100);
    const started = Date.now();
    await expect(encoder.embedQuery('a', { signal: inPause.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(Date.now() - started).toBeLessThan(4000); // the Retry-After's 5 s not sat out
    expect(fake.requests).toHaveLength(2);

    await expect(encoder.embedPassages(['a'], { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
    expect(fake.requests).toHaveLength(2);
  });

  it('ends a call in flight when closed, as unavailable', async () => {
    const { fake, encoder } = await open('tei');
    fake.script.push(() => undefined);
    const pending = encoder.embedPassages(['a']);
    setTimeout(() => void encoder.close(), 50);
    await expect(pending).rejects.toThrow(new EncoderUnavailableError('the embeddings encoder is closed'));
  });
});
