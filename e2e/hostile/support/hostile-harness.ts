import * as http from 'node:http';
import { OpenApiCheck } from '@cs/test-services';
import { LIMIT_CATEGORIES } from '../../support/fixtures';
import { StandaloneService } from '../../support/standalone-service';
import { Ledger, type Expectation } from './invariants';
import { send, type HostileAnswer, type HostileRequest } from './raw-http';
import { isAlive, mb, RssSampler } from './rss-sampler';

export interface Company {
  companyId: string;
  apiKey: string;
}

export interface JsonRequestOptions {
  key?: string;
  admin?: boolean;
  json?: unknown;
  body?: Buffer;
  contentType?: string;
  headers?: [string, string][];
  family?: string;
  expect?: Expectation;
}

const MAX_LIMIT = 1_000_000;

/**
 * A started standalone service with what every hostile suite needs: companies and raised limits
 * through the admin API, requests that are checked and recorded in one ledger, its RSS sampled.
 */
export class HostileHarness {
  readonly agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  readonly ledger: Ledger;
  readonly rss: RssSampler;
  private requestNo = 0;
  private readonly secrets: [string, string][] = [];
  private readonly started = Date.now();

  private constructor(
    readonly service: StandaloneService,
    readonly suite: string,
  ) {
    this.secrets.push([service.adminToken, '$ADMIN']);
    this.ledger = new Ledger(suite, {
      redact: () => this.secrets,
      logOf: (id) => this.logOf(id),
    });
    this.rss = new RssSampler(this.pid).start();
  }

  /** Starts the service; `TRUST_PROXY=loopback` so the per-request client addresses below are believed. */
  static async start(suite: string, env: Record<string, string> = {}): Promise<HostileHarness> {
    const service = await StandaloneService.start({ TRUST_PROXY: 'loopback', ...env });
    const harness = new HostileHarness(service, suite);
    harness.ledger.options.document = await OpenApiCheck.fetch(service.baseUrl);
    return harness;
  }

  get baseUrl(): string {
    return this.service.baseUrl;
  }

  get pid(): number {
    const pid = this.service.pid;
    if (pid === undefined) throw new Error('the service has no process');
    return pid;
  }

  get adminHeader(): [string, string] {
    return ['Authorization', `Bearer ${this.service.adminToken}`];
  }

  /** Remembers a key so that reproductions print `$KEY_<name>` instead of it. */
  nameSecret(secret: string, name: string): void {
    this.secrets.push([secret, name]);
  }

  /**
   * Sends, checks the invariants (and the expectation) and records. Each request carries its own
   * X-Request-Id (to find the service's log line about a 5xx) and, unless it sets one, its own
   * X-Forwarded-For: failed keys are limited to 30 a minute per client address, and one address
   * for thousands of requests would turn every answer into a 429 and hide the rest.
   */
  async request(request: HostileRequest, expectation?: Expectation, timeoutMs = 30_000): Promise<HostileAnswer> {
    const n = ++this.requestNo;
    const headers = [...request.headers];
    if (!headers.some(([k]) => k.toLowerCase() === 'x-request-id'))
      headers.push(['X-Request-Id', `hostile-${this.suite.replace(/\W+/g, '-')}-${n}`]);
    if (!headers.some(([k]) => k.toLowerCase() === 'x-forwarded-for')) headers.push(['X-Forwarded-For', spreadAddress(n)]);
    const sent = { ...request, headers };
    const answer = await send(this.baseUrl, sent, { agent: this.agent, timeoutMs });
    this.ledger.record(sent, answer, expectation);
    return answer;
  }

  /** A JSON (or raw) request with the API key or the admin token. */
  call(method: string, path: string, options: JsonRequestOptions = {}): Promise<HostileAnswer> {
    const headers: [string, string][] = [];
    if (options.key !== undefined) headers.push(['X-API-Key', options.key]);
    if (options.admin) headers.push(this.adminHeader);
    let body: Buffer | undefined = options.body;
    if (options.json !== undefined) body = Buffer.from(JSON.stringify(options.json));
    if (body !== undefined) headers.push(['Content-Type', options.contentType ?? 'application/json']);
    headers.push(...(options.headers ?? []));
    return this.request({ method, path, headers, body, family: options.family ?? 'setup' }, options.expect);
  }

  async createCompany(name: string): Promise<Company> {
    const created = await this.call('POST', '/admin/v1/companies', { admin: true, json: { name } });
    if (created.status !== 200 && created.status !== 201) throw new Error(`could not create a company: ${created.status} ${created.text}`);
    const company = created.json as Company;
    this.nameSecret(company.apiKey, `$KEY_${name.toUpperCase().replace(/\W/g, '_')}`);
    return company;
  }

  /** Raises every limit of a company so that 429s do not hide the answers a suite looks at. */
  async raiseLimits(companyId: string, limit = MAX_LIMIT): Promise<void> {
    for (const category of LIMIT_CATEGORIES) {
      const answer = await this.call('PUT', `/admin/v1/companies/${companyId}/limits/${category}`, { admin: true, json: { limit } });
      if (answer.status !== 200) throw new Error(`could not raise ${category}: ${answer.status} ${answer.text}`);
    }
  }

  async uploadText(key: string, text: string, documentName: string): Promise<string> {
    const answer = await this.call(
      'POST',
      `/v1/public/documents/upload-direct?${new URLSearchParams({ documentName, documentDate: '01-2024' }).toString()}`,
      {
        key,
        body: Buffer.from(text),
        contentType: 'text/plain',
      },
    );
    if (answer.status !== 201 && answer.status !== 200) throw new Error(`upload failed: ${answer.status} ${answer.text}`);
    return (answer.json as { documentId: string }).documentId;
  }

  async waitForDocuments(key: string, ids: string[], timeoutMs = 180_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const pending = new Set(ids);
    while (pending.size && Date.now() < deadline) {
      for (const id of [...pending]) {
        const { json } = await this.call('GET', `/v1/public/documents/${id}`, { key });
        const status = (json as { status?: string } | undefined)?.status;
        if (status && !['uploading', 'pending'].includes(status)) pending.delete(id);
      }
      if (pending.size) await new Promise((r) => setTimeout(r, 250));
    }
    if (pending.size) throw new Error(`${pending.size} documents still processing after ${timeoutMs} ms`);
  }

  async waitForSearch(key: string, searchId: string, timeoutMs = 90_000): Promise<Record<string, unknown>> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const { json } = await this.call('GET', `/v1/public/searches/${searchId}`, { key });
      const body = (json ?? {}) as Record<string, unknown>;
      if (body.status === 'completed' || body.status === 'failed') return body;
      await new Promise((r) => setTimeout(r, 150));
    }
    throw new Error(`search ${searchId} did not finish in ${timeoutMs} ms`);
  }

  alive(): boolean {
    return isAlive(this.pid);
  }

  /** The first line of the error the service logged about a request, for grouping 5xx by cause. */
  private logOf(requestId: string): string | undefined {
    const line = this.service.logs.split('\n').find((l) => l.includes(requestId) && /error|fail/i.test(l));
    if (!line) return undefined;
    const stack = /"error":"((?:[^"\\]|\\.)*)"/.exec(line)?.[1];
    return (stack ? JSON.parse(`"${stack}"`).split('\n')[0] : line).trim();
  }

  /** Prints the figures and the grouped failures to stdout, so they land in the run's log. */
  report(extra: Record<string, string | number> = {}): void {
    const rss = this.rss.stop();
    const figures = this.ledger.figures({
      'service RSS': `first ${mb(rss.first)}, peak ${mb(rss.peak)}, last ${mb(rss.last)} (${rss.samples} samples every 100 ms)`,
      'time since the service was up': `${((Date.now() - this.started) / 1000).toFixed(1)} s`,
      'service alive at the end': String(this.alive()),
      ...extra,
    });
    process.stdout.write(`\n${figures}`);
    if (this.ledger.failureGroups) process.stdout.write(`\n${this.ledger.failures()}`);
  }

  async destroy(): Promise<void> {
    this.agent.destroy();
    await this.service.destroy();
  }
}

/** A distinct client address per request, from 198.18.0.0/15 (benchmarking, never routed). */
export function spreadAddress(n: number): string {
  return `198.${18 + ((n >> 16) & 1)}.${(n >> 8) & 255}.${n & 255}`;
}
