import { eventually } from '@cs/test-services';
import { ApiClient } from './support/api-client';
import { ClusterServices } from './support/cluster-services';
import { TEXT, TEXT_CVS, createCompany } from './support/fixtures';
import { OtlpReceiver, type ReceivedSpan } from './support/otlp-receiver';
import { clusterAvailable } from './support/service-under-test';
import { StandaloneService } from './support/standalone-service';

jest.setTimeout(240_000);
const describeCluster = clusterAvailable ? describe : describe.skip;

/** Exports through OTLP/JSON to the receiver, in batches sent every 100 ms. */
const tracingEnv = (receiver: OtlpReceiver) => ({
  OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
  OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
  OTEL_BSP_SCHEDULE_DELAY: '100',
  LOG_LEVEL: 'info',
});

async function companyClient(baseUrl: string, dataDir: string): Promise<ApiClient> {
  const { apiKey } = await createCompany({ baseUrl, dataDir }, 'traced');
  return new ApiClient(baseUrl, apiKey);
}

/** Uploads one CV and runs one hybrid search over it; their ids. */
async function uploadAndSearch(client: ApiClient): Promise<{ documentId: string; searchId: string }> {
  const upload = await client.upload(Buffer.from(TEXT_CVS.accountant), TEXT, { documentName: 'traced', documentDate: '01-2024' });
  const documentId = upload.body.documentId as string;
  await client.waitForDocuments([documentId], 60_000);
  const search = await client.post('/v1/public/searches/hybrid', { query: 'accountant general ledger' });
  const searchId = search.body.searchId as string;
  expect((await client.waitForSearch(searchId, 60_000, 100)).status).toBe('completed');
  return { documentId, searchId };
}

const servicesOf = (spans: ReceivedSpan[]) => [...new Set(spans.map((s) => s.service))].sort();
const STAGES = [
  'search retrieval dense',
  'search retrieval sparse',
  'search fusion',
  'search rerank',
  'search documents',
  'search explain',
];

/** The consumer's span has the publisher's side of the trace as its ancestor: one trace, not two joined by an id. */
function expectJobUnderRequest(trace: ReceivedSpan[], kind: 'search' | 'ingestion'): void {
  const consumer = trace.find((s) => s.name === `${kind} process`);
  expect(consumer?.kind).toBe(5);
  expect(trace.some((s) => s.spanId === consumer?.parentSpanId)).toBe(true);
  expect(trace.some((s) => s.kind === 2 && /gateway|standalone/.exec(s.service))).toBe(true);
}

function expectStageSpans(trace: ReceivedSpan[], companyId: string | undefined): void {
  for (const stage of STAGES) {
    const span = trace.find((s) => s.name === stage);
    expect(span).toBeDefined();
    expect(span?.attributes['cs.search.type']).toBe('hybrid');
    expect(typeof span?.attributes['cs.results']).toBe('number');
    if (companyId) expect(span?.attributes['cs.company_id']).toBe(companyId);
  }
}

/** Log lines (JSON) that mention `id`. */
const linesNaming = (logs: string, id: string) =>
  logs
    .split('\n')
    .filter((l) => l.startsWith('{') && l.includes(id))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('tracing and logs in standalone mode', () => {
  let receiver: OtlpReceiver;
  let service: StandaloneService;
  let client: ApiClient;

  beforeAll(async () => {
    receiver = await OtlpReceiver.start();
    service = await StandaloneService.start(tracingEnv(receiver));
    client = await companyClient(service.baseUrl, service.dataDir);
  });
  afterAll(async () => {
    await service?.destroy();
    await receiver?.close();
  });

  it('makes an upload and a hybrid search one trace each, from the HTTP request through the job to every stage', async () => {
    const { documentId, searchId } = await uploadAndSearch(client);
    const search = await eventually(() => {
      const trace = receiver.traceWith('cs.search_id', searchId);
      expect(trace.map((s) => s.name)).toEqual(expect.arrayContaining(['search process', ...STAGES]));
      return trace;
    });
    expectJobUnderRequest(search, 'search');
    expectStageSpans(search, undefined);
    expect(servicesOf(search)).toEqual(['standalone']);
    const upload = await eventually(() => {
      const trace = receiver.traceWith('cs.document_id', documentId);
      expect(trace.map((s) => s.name)).toContain('ingestion process');
      return trace;
    });
    expectJobUnderRequest(upload, 'ingestion');

    // The search's log lines carry its trace id, a level name, an ISO time and the service.
    // The job's end is logged just after the search's completion is stored: it may come a moment later.
    const lines = await eventually(() => {
      const named = linesNaming(service.logs, searchId);
      expect(named.map((l) => l.msg)).toEqual(expect.arrayContaining(['search job started', 'search job ended']));
      return named;
    });
    for (const line of lines.filter((l) => l.searchId === searchId)) {
      expect(line.traceId).toBe(search[0].traceId);
      expect(line.level).toMatch(/^(trace|debug|info|warn|error|fatal)$/);
      expect(line.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(line.service).toBe('standalone');
    }
    expect(lines.map((l) => l.msg)).toEqual(expect.arrayContaining(['search job started', 'search job ended']));
    expect(lines.find((l) => l.msg === 'search job ended')).toMatchObject({ outcome: 'ack', durationMs: expect.any(Number) });
  });

  it('never logs an API key, only its prefix', () => {
    expect(service.logs).not.toContain(client.apiKey);
    expect(service.logs).toContain(`"keyPrefix":"${client.apiKey!.slice(0, 8)}"`);
  });
});

describeCluster('tracing and logs across the six cluster services', () => {
  let receiver: OtlpReceiver;
  let cluster: ClusterServices;
  let client: ApiClient;

  beforeAll(async () => {
    receiver = await OtlpReceiver.start();
    cluster = (await ClusterServices.start(tracingEnv(receiver)))!;
    client = await companyClient(cluster.baseUrl, cluster.dataDir);
  });
  afterAll(async () => {
    await cluster?.destroy();
    await receiver?.close();
  });

  it('makes one upload one trace through gateway, ingestion, dense and sparse', async () => {
    const { documentId } = await uploadAndSearch(client);
    const trace = await eventually(() => {
      const spans = receiver.traceWith('cs.document_id', documentId);
      expect(servicesOf(spans)).toEqual(['dense', 'gateway', 'ingestion', 'sparse']);
      return spans;
    });
    expectJobUnderRequest(trace, 'ingestion');
  });

  it('makes one hybrid search one trace through gateway, orchestrator, dense, sparse and reranker, with a span per stage', async () => {
    const { searchId } = await uploadAndSearch(client);
    const trace = await eventually(() => {
      const spans = receiver.traceWith('cs.search_id', searchId);
      expect(servicesOf(spans)).toEqual(['dense', 'gateway', 'reranker', 'search-orchestrator', 'sparse']);
      expect(spans.map((s) => s.name)).toEqual(expect.arrayContaining(STAGES));
      return spans;
    });
    expectJobUnderRequest(trace, 'search');
    const companyId = trace.find((s) => s.name === 'search fusion')?.attributes['cs.company_id'];
    expect(typeof companyId).toBe('string');
    expectStageSpans(trace, companyId as string);
    const lines = await eventually(() => {
      const named = linesNaming(cluster.logOf('search-orchestrator'), searchId).filter((l) => l.searchId === searchId);
      expect(named.map((l) => l.msg)).toEqual(expect.arrayContaining(['search job started', 'search job ended']));
      return named;
    });
    for (const line of lines)
      expect(line).toMatchObject({ traceId: trace[0].traceId, service: 'search-orchestrator', time: expect.stringMatching(/Z$/) });
  });
});
