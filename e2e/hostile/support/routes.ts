/** The routes the hostile suites aim at: those of the served OpenAPI document, and those it leaves out. */

export interface QueryParam {
  name: string;
  required: boolean;
  schema: { type?: string; minimum?: number; maximum?: number; enum?: string[]; pattern?: string };
}

export interface Route {
  method: string;
  /** `/v1/public/searches/{searchId}` */
  template: string;
  /** What authenticates it. */
  auth: 'api-key' | 'admin' | 'signature' | 'none';
  body: 'json' | 'file' | 'none';
  query: QueryParam[];
}

interface OpenApiOperation {
  parameters?: { name: string; in: string; required?: boolean; schema?: QueryParam['schema'] }[];
  requestBody?: { content?: Record<string, unknown> };
}

/** Every operation of the OpenAPI document, as routes. */
export function routesFromOpenApi(document: { paths?: Record<string, Record<string, OpenApiOperation>> }): Route[] {
  const routes: Route[] = [];
  for (const [template, operations] of Object.entries(document.paths ?? {})) {
    for (const [method, op] of Object.entries(operations)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const content = Object.keys(op.requestBody?.content ?? {});
      routes.push({
        method: method.toUpperCase(),
        template,
        auth: template.startsWith('/v1/public')
          ? 'api-key'
          : template.startsWith('/admin')
            ? 'admin'
            : template.startsWith('/uploads')
              ? 'signature'
              : 'none',
        body: content.length === 0 ? 'none' : content.some((c) => c.includes('json')) ? 'json' : 'file',
        query: (op.parameters ?? [])
          .filter((p) => p.in === 'query')
          .map((p) => ({ name: p.name, required: p.required ?? false, schema: p.schema ?? {} })),
      });
    }
  }
  return routes;
}

/** Routes outside the OpenAPI document (which holds /v1/public and the presigned PUT target): the admin API, health. */
export const EXTRA_ROUTES: Route[] = [
  { method: 'GET', template: '/admin/v1/companies', auth: 'admin', body: 'none', query: [] },
  { method: 'POST', template: '/admin/v1/companies', auth: 'admin', body: 'json', query: [] },
  { method: 'GET', template: '/admin/v1/companies/{companyId}/keys', auth: 'admin', body: 'none', query: [] },
  { method: 'POST', template: '/admin/v1/companies/{companyId}/keys', auth: 'admin', body: 'none', query: [] },
  { method: 'POST', template: '/admin/v1/companies/{companyId}/keys/revoke', auth: 'admin', body: 'json', query: [] },
  { method: 'PUT', template: '/admin/v1/companies/{companyId}/limits/{category}', auth: 'admin', body: 'json', query: [] },
  {
    method: 'GET',
    template: '/admin/v1/dead-letters',
    auth: 'admin',
    body: 'none',
    query: [
      { name: 'queue', required: false, schema: { type: 'string', enum: ['search', 'ingestion'] } },
      { name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: 100 } },
      { name: 'after', required: false, schema: { type: 'string' } },
    ],
  },
  { method: 'GET', template: '/admin/v1/dead-letters/{queue}/{id}', auth: 'admin', body: 'none', query: [] },
  { method: 'POST', template: '/admin/v1/dead-letters/{queue}/{id}/replay', auth: 'admin', body: 'none', query: [] },
  { method: 'POST', template: '/admin/v1/dead-letters/{queue}/replay', auth: 'admin', body: 'none', query: [] },
  { method: 'DELETE', template: '/admin/v1/dead-letters/{queue}/{id}', auth: 'admin', body: 'none', query: [] },
  { method: 'DELETE', template: '/admin/v1/dead-letters/{queue}', auth: 'admin', body: 'none', query: [] },
  { method: 'GET', template: '/admin/v1/dense', auth: 'admin', body: 'none', query: [] },
  { method: 'POST', template: '/admin/v1/dense/reindexes', auth: 'admin', body: 'json', query: [] },
  { method: 'GET', template: '/admin/v1/dense/reindexes/{reindexId}', auth: 'admin', body: 'none', query: [] },
  { method: 'GET', template: '/healthz', auth: 'none', body: 'none', query: [] },
  { method: 'GET', template: '/readyz', auth: 'none', body: 'none', query: [] },
  { method: 'GET', template: '/openapi.json', auth: 'none', body: 'none', query: [] },
];

/** Paths served outside any route of ours (Swagger UI and its assets): never "unknown", never "wrong method". */
export const OPAQUE_PREFIXES = ['/docs'];

const patterns = new Map<string, RegExp>();
/**
 * Express's matching: case-insensitive, an optional trailing slash, a parameter is one non-empty
 * segment matched before decoding.
 */
function patternOf(template: string): RegExp {
  let re = patterns.get(template);
  if (!re) {
    const body = template
      .split('/')
      .map((seg) => (/^\{.+\}$/.test(seg) ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    re = new RegExp(`^${body}/?$`, 'i');
    patterns.set(template, re);
  }
  return re;
}

/** The routes whose template matches a path (query ignored). */
export function matchRoutes(routes: Route[], path: string): Route[] {
  const p = path.split('?')[0];
  return routes.filter((r) => patternOf(r.template).test(p));
}

/** The methods some route accepts on this path. */
export function allowedMethods(routes: Route[], path: string): string[] {
  return [...new Set(matchRoutes(routes, path).map((r) => r.method))];
}

export function isOpaque(path: string): boolean {
  const p = path.split('?')[0].toLowerCase();
  return OPAQUE_PREFIXES.some((prefix) => p === prefix || p.startsWith(`${prefix}/`) || p.startsWith(`${prefix}.`));
}

/** A label for grouping: the template a path matched, else the path with its junk folded. */
export function routeLabel(routes: Route[], method: string, path: string): string {
  const matched = matchRoutes(routes, path);
  const own = matched.find((r) => r.method === method) ?? matched[0];
  if (own) return `${method} ${own.template}`;
  const folded = path
    .split('?')[0]
    .split('/')
    .map((seg) => (seg.length > 24 || /[^\w.-]/.test(seg) ? '{junk}' : seg))
    .join('/');
  return `${method} ${folded.length > 60 ? `${folded.slice(0, 60)}…` : folded} (no route)`;
}

/** Fills a template's parameters. */
export function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? `{${name}}`);
}
