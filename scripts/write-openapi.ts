// Writes the generated OpenAPI document (as /openapi.json serves it) to a file, for lint and clients.
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { buildOpenApiDocument } from '../apps/gateway/src/app/openapi/openapi';

const target = path.resolve(process.argv[2] ?? 'tmp/openapi.json');
mkdirSync(path.dirname(target), { recursive: true });
writeFileSync(target, `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);
process.stdout.write(`wrote ${target}\n`);
