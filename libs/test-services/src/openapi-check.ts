import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

type Response = { content?: Record<string, { schema?: unknown }>; headers?: Record<string, { required?: boolean }> };
type Operation = { responses?: Record<string, Response> };
/**
 * What the document says of requests no operation serves, per path prefix (see unmatchedRequests
 * in openapi.ts); `notFound` are requests answered 404 although an operation's path matches.
 */
type Unmatched = Record<string, { responses: Record<string, Response>; notFound?: { method: string; path: string }[] }>;
type OpenApi = { paths: Record<string, Record<string, unknown>>; components?: unknown; 'x-unmatched-requests'?: Unmatched };

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/**
 * Checks answers against the OpenAPI document a service serves, so the document cannot drift
 * from the server: the operation is found by method and path template (as Express routes: the raw
 * path, case-insensitive, an optional trailing slash), the status must be one it lists, the JSON
 * body must match that status's schema (whose objects refuse unknown properties), and the headers
 * it requires must be there. A HEAD is held to its GET's statuses and headers (it has no body).
 * Requests no operation serves are held to the document's `x-unmatched-requests` for their prefix:
 * a 405 only where some operation's path matches, with `Allow` naming exactly those methods; a
 * 404 only where none does, or where the prefix's `notFound` names the method and path.
 */
export class OpenApiCheck {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly routes: { method: string; template: string; pattern: RegExp; operation: Operation }[];
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly document: OpenApi) {
    addFormats(this.ajv);
    this.ajv.addSchema(document, 'openapi');
    this.routes = Object.entries(document.paths)
      .flatMap(([template, item]) =>
        Object.entries(item)
          .filter(([method]) => METHODS.has(method))
          .map(([method, operation]) => ({
            method: method.toUpperCase(),
            template,
            pattern: templatePattern(template),
            operation: operation as Operation,
          })),
      )
      // Literal segments before parameters, so /searches/groups is not read as /searches/{searchId}.
      .sort((a, b) => a.template.split('{').length - b.template.split('{').length);
  }

  static async fetch(baseUrl: string): Promise<OpenApiCheck> {
    const response = await fetch(`${baseUrl}/openapi.json`);
    if (!response.ok) throw new Error(`GET /openapi.json answered ${response.status}`);
    return new OpenApiCheck((await response.json()) as OpenApi);
  }

  /** Whether the document speaks of this path at all (an operation's or an unmatched prefix's). */
  describes(url: string): boolean {
    const pathname = pathnameOf(url);
    return this.routes.some((r) => r.pattern.test(pathname)) || this.unmatchedPrefix(pathname) !== undefined;
  }

  /** The problems of one answer, in words; empty when it matches the document. */
  problems(method: string, url: string, status: number, headers: Headers, body: unknown): string[] {
    const pathname = pathnameOf(url);
    const where = `${method} ${pathname} -> ${status}`;
    const asMethod = method === 'HEAD' ? 'GET' : method;
    const route = this.routes.find((r) => r.method === asMethod && r.pattern.test(pathname));
    if (!route) return this.unmatchedProblems(method, pathname, status, headers, body, where);
    const statusKey = String(status);
    const response = route.operation.responses?.[statusKey];
    if (!response) return [`${where}: ${route.template} does not list status ${status}`];
    const out = this.headerProblems(response, headers, where);
    if (method === 'HEAD') return out;
    if (response.content?.['application/json'])
      out.push(
        ...this.bodyProblems(
          `#/paths/${pointer(route.template)}/${route.method.toLowerCase()}/responses/${statusKey}/content/application~1json/schema`,
          body,
          where,
        ),
      );
    return out;
  }

  private unmatchedProblems(method: string, pathname: string, status: number, headers: Headers, body: unknown, where: string): string[] {
    const prefix = this.unmatchedPrefix(pathname);
    const response = prefix === undefined ? undefined : this.document['x-unmatched-requests']?.[prefix].responses[String(status)];
    if (prefix === undefined) return [`${where}: the document describes no operation or prefix for this path`];
    if (!response) return [`${where}: no operation serves ${method} here, and x-unmatched-requests of ${prefix} does not list ${status}`];
    const allowed = [
      ...new Set(this.routes.filter((r) => r.pattern.test(pathname)).flatMap((r) => (r.method === 'GET' ? ['GET', 'HEAD'] : [r.method]))),
    ].sort();
    // A path of its own (no parameter in it) is never taken for a notFound template's parameter.
    const ownPath = this.routes.some((r) => !r.template.includes('{') && r.pattern.test(pathname));
    const notFound =
      !ownPath &&
      this.document['x-unmatched-requests']?.[prefix].notFound?.some((n) => n.method === method && templatePattern(n.path).test(pathname));
    const out = this.headerProblems(response, headers, where);
    if (status === 405 && notFound) out.push(`${where}: a 405 where the document's notFound of ${prefix} says 404`);
    else if (status === 405 && allowed.length === 0) out.push(`${where}: a 405 where no operation's path matches (expected 404)`);
    if (status === 404 && allowed.length > 0 && !notFound)
      out.push(`${where}: a 404 where ${allowed.join(', ')} serve this path (expected 405)`);
    if (status === 405 && !notFound && headers.get('allow') !== allowed.join(', '))
      out.push(`${where}: Allow is "${headers.get('allow')}", the document's operations say "${allowed.join(', ')}"`);
    if (method === 'HEAD') return out;
    const schema = response.content?.['application/json']?.schema as { $ref?: string } | undefined;
    if (schema?.$ref) out.push(...this.bodyProblems(schema.$ref, body, where));
    return out;
  }

  private unmatchedPrefix(pathname: string): string | undefined {
    return Object.keys(this.document['x-unmatched-requests'] ?? {}).find((prefix) =>
      new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(/|$)`, 'i').test(pathname),
    );
  }

  private headerProblems(response: Response, headers: Headers, where: string): string[] {
    // Only the headers the document requires: an optional one (Idempotent-Replayed) may be absent.
    return Object.entries(response.headers ?? {})
      .filter(([name, header]) => header.required === true && !headers.has(name))
      .map(([name]) => name)
      .map((name) => `${where}: header ${name} missing`);
  }

  private bodyProblems(ref: string, body: unknown, where: string): string[] {
    const validate = this.validator(ref);
    return validate(body) ? [] : [`${where}: ${this.ajv.errorsText(validate.errors, { dataVar: 'body' })}`];
  }

  private validator(ref: string): ValidateFunction {
    let validate = this.validators.get(ref);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `openapi${ref}` });
      this.validators.set(ref, validate);
    }
    return validate;
  }
}

/** A path template as Express routes it: the raw path, case-insensitive, an optional trailing slash. */
function templatePattern(template: string): RegExp {
  return new RegExp(
    `^${template.replace(/[.*+?^${}()|[\]\\]/g, (c) => (c === '{' || c === '}' ? c : `\\${c}`)).replace(/\{[^}]+\}/g, '[^/]+')}/?$`,
    'i',
  );
}

/** The path exactly as sent (Express routes on it undecoded and unnormalised), without query or fragment. */
function pathnameOf(url: string): string {
  if (!url.startsWith('/')) return new URL(url).pathname;
  return url.split(/[?#]/, 1)[0];
}

const pointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');
