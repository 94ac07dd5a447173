import type { OpenApiCheck } from '@cs/test-services';
import { toHeaders } from '../../support/api-client';
import { toCurl, type HostileAnswer, type HostileRequest } from './raw-http';

/** The contract's error codes by status (decisions.md, plus 405 and 431, the Idempotency-Key's, and 406 of the event stream). */
export const ERROR_CODES_OF_STATUS: Readonly<Record<number, readonly string[]>> = {
  400: ['invalid_request'],
  401: ['unauthorized'],
  404: ['not_found'],
  405: ['method_not_allowed'],
  406: ['not_acceptable'],
  409: ['conflict', 'idempotency_key_in_use'],
  410: ['gone'],
  413: ['payload_too_large'],
  415: ['unsupported_media_type'],
  422: ['unprocessable', 'idempotency_key_reused'],
  429: ['rate_limit_exceeded'],
  431: ['request_header_fields_too_large'],
};

/** What one generated request must get beyond the invariants, when its outcome is certain. */
export interface Expectation {
  statuses: number[];
  /** Names the rule, and groups its failures. */
  why: string;
  /** Text the error message must hold (a field or parameter it names). */
  messageIncludes?: string;
}

export interface Violation {
  invariant: string;
  detail: string;
}

const RATE_LIMIT_HEADERS = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'];

export function pathOf(request: Pick<HostileRequest, 'path'>): string {
  const q = request.path.indexOf('?');
  return q === -1 ? request.path : request.path.slice(0, q);
}

/** Express routes case-insensitively, so `/V1/Public/...` is under /v1/public too. */
export function isPublicApi(request: Pick<HostileRequest, 'path'>): boolean {
  const p = pathOf(request).toLowerCase();
  return p === '/v1/public' || p.startsWith('/v1/public/');
}

/**
 * The invariants every answer must keep: no 5xx (a 503 from /readyz aside); a 4xx has
 * a JSON body `{error, message}` whose code matches its status and whose message is non-empty; a
 * /v1/public answer carries RateLimit-*; a 405 carries Allow. A 431 is exempt from RateLimit-*:
 * Node's parser refuses the request before any route, or key, is known.
 */
export function checkAnswer(request: HostileRequest, answer: HostileAnswer, expectation?: Expectation): Violation[] {
  const found: Violation[] = [];
  if (answer.status === 0) return [{ invariant: 'an answer to every request', detail: answer.transportError ?? 'no answer' }];
  const s = answer.status;
  if (s >= 500 && !(s === 503 && pathOf(request).toLowerCase() === '/readyz')) found.push({ invariant: 'never a 5xx', detail: `${s}` });
  // A HEAD answer has no body to hold the error.
  if (s >= 400 && s < 500 && request.method !== 'HEAD') {
    const body = answer.json;
    const expected = ERROR_CODES_OF_STATUS[s];
    if (!expected) found.push({ invariant: 'a 4xx is one of the contract statuses', detail: `${s}` });
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      found.push({
        invariant: 'a 4xx has a JSON object body',
        detail: `${s} ${answer.headers['content-type'] ?? 'no content-type'}`,
      });
    } else {
      const { error, message } = body as { error?: unknown; message?: unknown };
      if (expected && !expected.includes(error as string))
        found.push({
          invariant: 'error code matches the status',
          detail: `${s} ${JSON.stringify(error)}, expected ${expected.map((c) => `"${c}"`).join(' or ')}`,
        });
      if (typeof message !== 'string' || message.trim() === '')
        found.push({ invariant: 'a 4xx has a non-empty message', detail: `${s} message ${JSON.stringify(message)}` });
    }
  }
  if (isPublicApi(request) && s !== 431 && !request.malformedHttp) {
    const missing = RATE_LIMIT_HEADERS.filter((h) => answer.headers[h] === undefined);
    if (missing.length) found.push({ invariant: '/v1/public answers carry RateLimit-*', detail: `${s} without ${missing.join(', ')}` });
  }
  if (s === 405 && !answer.headers.allow) found.push({ invariant: 'a 405 carries Allow', detail: '405 without Allow' });
  if (expectation) {
    if (!expectation.statuses.includes(s)) {
      found.push({ invariant: `expected: ${expectation.why}`, detail: `${s}, expected ${expectation.statuses.join(' or ')}` });
    } else if (expectation.messageIncludes !== undefined) {
      // eslint-disable-next-line @typescript-eslint/no-base-to-string -- whatever the server sent, printed as is
      const message = String((answer.json as { message?: unknown } | undefined)?.message ?? '');
      if (s >= 400 && !message.includes(expectation.messageIncludes)) {
        found.push({ invariant: `expected: ${expectation.why}`, detail: `${s} message does not name "${expectation.messageIncludes}"` });
      }
    }
  }
  return found;
}

export const DOCUMENT_INVARIANT = 'the OpenAPI document describes the answer';

/**
 * A complete answer to a path the document describes (/v1/public, /uploads), held to it: status,
 * headers and body; undefined when the answer is not one to hold. Answers to requests that are not HTTP (malformedHttp), to targets that are not
 * paths, that did not come, or whose body was cut short are not the document's to describe.
 */
export function documentViolations(check: OpenApiCheck, request: HostileRequest, answer: HostileAnswer): Violation[] | undefined {
  if (answer.status <= 0 || request.malformedHttp || !request.path.startsWith('/') || !check.describes(request.path)) return undefined;
  const declared = Number(answer.headers['content-length']);
  if (request.method !== 'HEAD' && Number.isFinite(declared) && !answer.headers['content-encoding'] && declared !== answer.bytes)
    return undefined;
  const body = answer.json ?? (answer.text === '' ? null : answer.text);
  return check
    .problems(request.method, request.path, answer.status, toHeaders(answer.headers), body)
    .map((detail) => ({ invariant: DOCUMENT_INVARIANT, detail: detail.slice(0, 400) }));
}

interface Group {
  invariant: string;
  key: string;
  count: number;
  examples: { request: HostileRequest; answer: HostileAnswer; detail: string; cause?: string }[];
}

const UUID_G = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A path as a route-like label: ids, long and junk segments folded so that groups stay few. */
export function defaultRouteOf(method: string, path: string): string {
  const p = path.split('?')[0];
  const label = p
    .split('/')
    .map((seg) => (UUID.test(seg) ? '{uuid}' : seg.length > 24 || /[^\w.-]/.test(seg) ? '{junk}' : seg))
    .join('/');
  return `${method} ${label}`;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : 0;

/**
 * Every request a suite makes, its answer and the invariants it broke: counts by status, timings,
 * and failures grouped by cause (invariant, route, status, code), each with a few reproductions.
 */
export class Ledger {
  tried = 0;
  notSent = 0;
  /** Answers held to the OpenAPI document (those to paths it describes, complete and HTTP). */
  documentChecked = 0;
  readonly byStatus = new Map<number, number>();
  readonly durations: number[] = [];
  private readonly groups = new Map<string, Group>();
  violations = 0;

  constructor(
    readonly name: string,
    readonly options: {
      redact?: () => [string, string][];
      /** How a request's route is labelled in the failure groups (set once the routes are known). */
      routeOf?: (method: string, path: string) => string;
      /** The service's log line about a request id (for the cause of a 5xx). */
      logOf?: (requestId: string) => string | undefined;
      /** The served OpenAPI document, which every answer to a path it describes must match. */
      document?: OpenApiCheck;
    } = {},
  ) {}

  record(request: HostileRequest, answer: HostileAnswer, expectation?: Expectation): Violation[] {
    if (answer.status === -1) {
      this.notSent++;
      return [];
    }
    this.tried++;
    this.byStatus.set(answer.status, (this.byStatus.get(answer.status) ?? 0) + 1);
    this.durations.push(answer.ms);
    const violations = checkAnswer(request, answer, expectation);
    if (this.options.document) {
      const found = documentViolations(this.options.document, request, answer);
      if (found) this.documentChecked++;
      violations.push(...(found ?? []));
    }
    for (const v of violations) this.add(request, answer, v);
    return violations;
  }

  /** A failure found by a suite's own check rather than by checkAnswer. */
  fail(request: HostileRequest, answer: HostileAnswer, invariant: string, detail: string): void {
    this.add(request, answer, { invariant, detail });
  }

  private add(request: HostileRequest, answer: HostileAnswer, v: Violation): void {
    this.violations++;
    const route = (this.options.routeOf ?? defaultRouteOf)(request.method, request.path);
    const code = (answer.json as { error?: unknown } | undefined)?.error;
    let cause: string | undefined;
    if (answer.status >= 500 && this.options.logOf) {
      const id = answer.headers['x-request-id'];
      cause = typeof id === 'string' ? this.options.logOf(id) : undefined;
    }
    const causeKey = cause ? ` | ${cause.replace(UUID_G, '{uuid}').replace(/\d+/g, 'N').slice(0, 120)}` : '';
    const key = `${v.invariant} | ${route} | ${answer.status}${typeof code === 'string' ? ` ${code}` : ''} | ${request.family}${causeKey}`;
    let group = this.groups.get(key);
    if (!group) {
      group = { invariant: v.invariant, key, count: 0, examples: [] };
      this.groups.set(key, group);
    }
    group.count++;
    if (group.examples.length < 2) group.examples.push({ request, answer, detail: v.detail, cause });
  }

  get failureGroups(): number {
    return this.groups.size;
  }

  /** The failure groups' keys (of the invariants `which` picks), for an assertion whose diff lists them. */
  groupKeys(which: (invariant: string) => boolean = () => true): string[] {
    return [...this.groups.values()]
      .filter((g) => which(g.invariant))
      .map((g) => `[${g.count}x] ${g.key}`)
      .sort();
  }

  /** The figures, for the run's log. */
  figures(extra: Record<string, string | number> = {}): string {
    const sorted = [...this.durations].sort((a, b) => a - b);
    const statuses = [...this.byStatus.entries()].sort(([a], [b]) => a - b);
    const fourXx = statuses
      .filter(([s]) => s >= 400 && s < 500)
      .map(([s, n]) => `${s}:${n}`)
      .join(' ');
    const others = statuses
      .filter(([s]) => s < 400 || s >= 500)
      .map(([s, n]) => `${s}:${n}`)
      .join(' ');
    const fiveXx = statuses.filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0);
    const lines = [
      `== hostile figures: ${this.name} ==`,
      `requests tried: ${this.tried}${this.notSent ? ` (+${this.notSent} Node's client would not send)` : ''}`,
      `answers held to the OpenAPI document: ${this.documentChecked}`,
      `4xx by status: ${fourXx || 'none'}`,
      `other statuses: ${others || 'none'} (0 = no answer)`,
      `5xx: ${fiveXx}`,
      `request time ms: p50 ${percentile(sorted, 50).toFixed(1)}, p95 ${percentile(sorted, 95).toFixed(1)}, p99 ${percentile(sorted, 99).toFixed(1)}, max ${(sorted.at(-1) ?? 0).toFixed(1)}`,
      ...Object.entries(extra).map(([k, v]) => `${k}: ${v}`),
      `invariant violations: ${this.violations} in ${this.groups.size} groups`,
    ];
    return `${lines.join('\n')}\n`;
  }

  /** Failures grouped by cause, most frequent first, each with a reproduction. */
  failures(maxGroups = 80): string {
    const redact = this.options.redact?.() ?? [];
    const groups = [...this.groups.values()].sort((a, b) => a.invariant.localeCompare(b.invariant) || b.count - a.count);
    const out: string[] = [`== hostile failures: ${this.name} (${groups.length} groups) ==`];
    for (const g of groups.slice(0, maxGroups)) {
      out.push(`\n[${g.count}x] ${g.key}`);
      for (const e of g.examples) {
        out.push(`  ${e.detail}`);
        out.push(`  repro: ${toCurl(e.request, redact)}`);
        const body = e.answer.text
          ? e.answer.text.slice(0, 300)
          : e.answer.transportError
            ? `(${e.answer.transportError})`
            : '(empty body)';
        const rl = ['ratelimit-limit', 'allow']
          .filter((h) => e.answer.headers[h] !== undefined)
          .map((h) => `${h}: ${String(e.answer.headers[h])}`);
        out.push(`  answer: ${e.answer.status} ${rl.join(', ')} ${body}`);
        if (e.cause) out.push(`  service log: ${e.cause.slice(0, 400)}`);
      }
    }
    if (groups.length > maxGroups) out.push(`\n… ${groups.length - maxGroups} more groups`);
    return `${out.join('\n')}\n`;
  }
}

/** Runs `work` over `items` with at most `concurrency` at once, stopping early past `deadline`. */
export async function pool<T>(
  items: Iterable<T>,
  concurrency: number,
  work: (item: T, index: number) => Promise<void>,
  deadline = Infinity,
): Promise<number> {
  const iterator = items[Symbol.iterator]();
  let index = 0;
  let done = 0;
  const worker = async () => {
    for (;;) {
      if (Date.now() > deadline) return;
      const next = iterator.next();
      if (next.done) return;
      await work(next.value, index++);
      done++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return done;
}
