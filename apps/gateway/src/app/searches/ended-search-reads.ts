import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import { Injectable, Logger } from '@nestjs/common';
import { trace } from '@opentelemetry/api';
import { http } from '@cs/contracts';
import { activeTraceIds } from '@cs/telemetry';
import { noneMatchHits, setValidators } from '../http/conditional-get';
import { contentCodingFor, type ContentCoding } from '../http/content-coding';
import { preferredWait } from '../http/prefer';
import { logFieldsOf, PublicRequestPipeline } from '../http/public-pipeline';
import { logRequest, takeRequestId } from '../http/request-context.middleware';
import { HttpMetrics } from '../http/request-metrics';
import { EndedSearchAnswers, type KeptAnswer } from './ended-search-answers';

/** `/v1/public/searches/{id}` and `/results`, as the routes' own links spell them (a lower-case id). */
const TARGET = /^\/v1\/public\/searches\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(\/results)?(?:\?(.*))?$/;
const STATUS_ROUTE = '/v1/public/searches/:searchId';
const RESULTS_ROUTE = '/v1/public/searches/:searchId/results';

/**
 * Answers the reads an API consumer repeats most, an ended search's status and result pages,
 * from the answers kept serialised (EndedSearchAnswers), before Express and Nest see the request:
 * the same authentication and limits (PublicRequestPipeline), headers, request id, log line and
 * metrics, by the same functions, at a fraction of the cost. Anything else (another path, a kept answer missing, a bad key, a spent limit, a
 * `Prefer: wait`, a query string the route would refuse) goes to the framework untouched, so
 * every error and every edge keeps the one answer the framework gives.
 */
@Injectable()
export class EndedSearchReads {
  private readonly logger = new Logger('EndedSearchReads');

  constructor(
    private readonly answers: EndedSearchAnswers,
    private readonly pipeline: PublicRequestPipeline,
    private readonly metrics: HttpMetrics,
  ) {}

  /** Whether there is anything to answer from (READ_CACHE_MB above 0). */
  get enabled(): boolean {
    return this.answers.enabled;
  }

  /** Answers the request and resolves true, or resolves false having written nothing: the framework answers it. */
  async answer(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const started = process.hrtime.bigint();
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const target = TARGET.exec(req.url ?? '');
    if (!target) return false;
    const [, searchId, results, query] = target;
    const page = results ? pageOf(query) : query === undefined ? null : undefined;
    if (page === undefined) return false;
    // A status read that waits is the framework's: it holds the request and says Preference-Applied.
    if (!page && preferredWait(req.headers.prefer) !== null) return false;
    // Nothing kept under that id: the framework's, without authenticating here first.
    if (page ? !this.answers.hasPage(searchId, page) : !this.answers.hasStatus(searchId)) return false;
    const auth = await this.pipeline.authenticate(req);
    if (!auth) return false;
    const kept = page ? this.answers.page(auth.company.id, searchId, page) : this.answers.status(auth.company.id, searchId);
    if (!kept) return false;
    const path = req.url!.split('?', 1)[0];
    const states = await this.pipeline.count(req, path, auth);
    if (states.some((s) => s.exceeded)) {
      this.pipeline.handOn(req, { auth, states });
      return false;
    }
    let body: { bytes: Buffer; coding: ContentCoding | null } | null;
    try {
      body = await this.bodyFor(req, kept);
    } catch (error) {
      // Counted already: the framework answers without counting again.
      this.logger.warn(
        `a kept answer could not be encoded (${error instanceof Error ? error.message : String(error)}); the framework answers`,
      );
      this.pipeline.handOn(req, { auth, states });
      return false;
    }
    const requestId = takeRequestId(req, res);
    this.pipeline.applyLimits(res, states);
    const route = page ? RESULTS_ROUTE : STATUS_ROUTE;
    // As the Express instrumentation names the framework's spans.
    trace.getActiveSpan()?.setAttribute('http.route', route).updateName(`${req.method} ${route}`);
    const fields = { requestId, ...logFieldsOf(req, auth), ...activeTraceIds() };
    res.once('finish', () => {
      logRequest(req.method, path, res, started, fields);
      this.metrics.observeRequest(req.method!, route, res.statusCode, started);
    });
    this.metrics.keptAnswer(route);
    this.write(req, res, kept, body, page ? [] : ['Prefer']);
    return true;
  }

  /** The bytes to send and their coding; null for a 304. */
  private async bodyFor(req: IncomingMessage, kept: KeptAnswer): Promise<{ bytes: Buffer; coding: ContentCoding | null } | null> {
    if (noneMatchHits(req.headers['if-none-match'], kept.body.etag)) return null;
    const coding = contentCodingFor(req, kept.body.bytes.length);
    return { bytes: coding ? await this.answers.encoded(kept, coding) : kept.body.bytes, coding };
  }

  /** The headers and body the framework's route, ConditionalGetInterceptor and the compression middleware give. */
  private write(
    req: IncomingMessage,
    res: ServerResponse,
    kept: KeptAnswer,
    body: { bytes: Buffer; coding: ContentCoding | null } | null,
    vary: string[],
  ): void {
    setValidators(res, kept.body.etag);
    if (!body) {
      // Express drops the type of a 304, so the compression middleware adds no Vary to it.
      if (vary.length) res.setHeader('Vary', vary.join(', '));
      res.statusCode = 304;
      res.end();
      return;
    }
    res.setHeader('Vary', [...vary, 'Accept-Encoding'].join(', '));
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    if (body.coding) res.setHeader('Content-Encoding', body.coding);
    // A HEAD says the length the GET's identity body has.
    res.setHeader('Content-Length', String(body.bytes.length));
    res.statusCode = 200;
    if (req.method === 'HEAD') res.end();
    else res.end(body.bytes);
  }
}

/** The page a results query asks for, or undefined when the route would answer it otherwise (a 400). */
function pageOf(query: string | undefined): http.ResultsQuery | undefined {
  const params = parseQuery(query ?? '');
  // Repeated parameters are refused by the route (RequestShapeInterceptor); unknown ones by the schema.
  if (Object.values(params).some((value) => typeof value !== 'string')) return undefined;
  const parsed = http.resultsQuery.safeParse(params);
  return parsed.success ? parsed.data : undefined;
}
