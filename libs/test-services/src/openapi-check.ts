import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

type Operation = { responses?: Record<string, { content?: Record<string, { schema?: unknown }>; headers?: Record<string, unknown> }> };
type OpenApi = { paths: Record<string, Record<string, Operation>>; components?: unknown };

/**
 * Checks answers against the OpenAPI document a service serves, so the document cannot drift
 * from the server: the operation is found by method and path template, the status must be one it
 * lists, the JSON body must match that status's schema (whose objects refuse unknown properties),
 * and the headers it lists must be there. Answers to paths no operation has (404/405 of unknown
 * routes) are checked against the Error schema.
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
        Object.entries(item).map(([method, operation]) => ({
          method: method.toUpperCase(),
          template,
          // Literal segments before parameters, so /searches/groups is not read as /searches/{searchId}.
          pattern: new RegExp(
            `^${template.replace(/[.*+?^${}()|[\]\\]/g, (c) => (c === '{' || c === '}' ? c : `\\${c}`)).replace(/\{[^}]+\}/g, '[^/]+')}/?$`,
          ),
          operation,
        })),
      )
      .sort((a, b) => a.template.split('{').length - b.template.split('{').length);
  }

  static async fetch(baseUrl: string): Promise<OpenApiCheck> {
    const response = await fetch(`${baseUrl}/openapi.json`);
    if (!response.ok) throw new Error(`GET /openapi.json answered ${response.status}`);
    return new OpenApiCheck((await response.json()) as OpenApi);
  }

  /** The problems of one answer, in words; empty when it matches the document. */
  problems(method: string, url: string, status: number, headers: Headers, body: unknown): string[] {
    const pathname = new URL(url, 'http://x').pathname;
    const route = this.routes.find((r) => r.method === method && r.pattern.test(pathname));
    const where = `${method} ${pathname} -> ${status}`;
    if (!route) return this.matchesError(status, body) ? [] : [`${where}: no operation, and the body is not the Error schema`];
    const statusKey = String(status);
    const response = route.operation.responses?.[statusKey];
    if (!response) return [`${where}: ${route.template} does not list status ${status}`];
    const out: string[] = [];
    for (const name of Object.keys(response.headers ?? {})) if (!headers.has(name)) out.push(`${where}: header ${name} missing`);
    const jsonSchema = response.content?.['application/json'];
    if (jsonSchema) {
      const validate = this.validator(
        `#/paths/${pointer(route.template)}/${route.method.toLowerCase()}/responses/${statusKey}/content/application~1json/schema`,
      );
      if (!validate(body)) out.push(`${where}: ${this.ajv.errorsText(validate.errors, { dataVar: 'body' })}`);
    }
    return out;
  }

  private matchesError(status: number, body: unknown): boolean {
    return status >= 400 && this.validator('#/components/schemas/Error')(body);
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

const pointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');
