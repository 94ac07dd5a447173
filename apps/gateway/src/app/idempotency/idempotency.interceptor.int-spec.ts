import { Controller, HttpCode, Module, Post, type INestApplication } from '@nestjs/common';
import { APP_FILTER, APP_INTERCEPTOR, NestFactory } from '@nestjs/core';
import type { NextFunction, Request, Response } from 'express';
import compression from 'compression';
import { DomainError } from '@cs/contracts';
import { openPglite } from '@cs/pglite';
import type { SqlClient } from '@cs/ports';
import { IdempotencyKeysRepository, migrate, type CompanyRecord } from '@cs/records';
import type { AuthedRequest } from '../auth/auth-context';
import { ErrorFilter } from '../http/error.filter';
import { RequestShapeInterceptor } from '../http/request-shape';
import { IdempotencyInterceptor } from './idempotency.interceptor';

/** What each route ran, so that a replay can be seen to run nothing. */
const runs: Record<string, number> = {};
const ran = (name: string) => (runs[name] = (runs[name] ?? 0) + 1);

@Controller('v1/public/test')
class TestController {
  @Post('created')
  @HttpCode(202)
  created() {
    return { run: ran('created'), text: 'é ✓ "quoted"' };
  }

  @Post('failing')
  failing(): never {
    ran('failing');
    throw new Error('a dependency failed');
  }

  @Post('refused')
  refused(): never {
    ran('refused');
    throw new DomainError('gone', 'expired');
  }

  @Post('large')
  @HttpCode(202)
  large() {
    return { run: ran('large'), filler: 'y'.repeat(4000) };
  }

  @Post('huge')
  huge() {
    return { run: ran('huge'), filler: 'x'.repeat(70 * 1024) };
  }
}

describe('IdempotencyInterceptor in a Nest app (PGlite)', () => {
  let sql: SqlClient;
  let app: INestApplication;
  let base = '';

  beforeAll(async () => {
    sql = await openPglite(null);
    await migrate(sql);
    const keys = new IdempotencyKeysRepository(sql);
    @Module({
      controllers: [TestController],
      providers: [
        { provide: APP_FILTER, useClass: ErrorFilter },
        { provide: APP_INTERCEPTOR, useClass: RequestShapeInterceptor },
        { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor },
        { provide: IdempotencyKeysRepository, useValue: keys },
      ],
    })
    class TestModule {}
    app = await NestFactory.create(TestModule, { bodyParser: false, logger: false });
    app.use(compression({ threshold: 1024 }));
    // Authentication as PublicApiAuthMiddleware leaves it: the company from X-API-Key.
    app.use((req: Request, _res: Response, next: NextFunction) => {
      const company = String(req.headers['x-api-key']);
      (req as AuthedRequest).auth = { keyId: company, company: { id: company } as CompanyRecord };
      next();
    });
    await app.listen(0, '127.0.0.1');
    base = await app.getUrl();
  });

  afterAll(async () => {
    await app?.close();
    await sql?.close();
  });

  const send = async (route: string, key: string, body = '{"a":1}', company = '00000000-0000-4000-8000-000000000001') => {
    const response = await fetch(`${base}/v1/public/test/${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': key, 'x-api-key': company, 'accept-encoding': 'gzip' },
      body,
    });
    return {
      status: response.status,
      replayed: response.headers.get('idempotent-replayed'),
      text: await response.text(),
      headers: response.headers,
    };
  };

  it('stores a success as it was sent and replays it byte for byte without running the route again', async () => {
    const first = await send('created', 'created-1');
    const again = await send('created', 'created-1');
    expect(first).toMatchObject({ status: 202, replayed: null });
    expect(again).toMatchObject({ status: 202, replayed: 'true', text: first.text });
    expect(again.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(JSON.parse(first.text)).toEqual({ run: 1, text: 'é ✓ "quoted"' });
    expect(runs.created).toBe(1);
  });

  it('stores a deterministic 4xx from the error filter, and replays it', async () => {
    const first = await send('refused', 'refused-1');
    const again = await send('refused', 'refused-1');
    expect(first).toMatchObject({ status: 410, text: '{"error":"gone","message":"expired"}' });
    expect(again).toMatchObject({ status: 410, replayed: 'true', text: first.text });
    expect(runs.refused).toBe(1);
  });

  it('releases the key after a 500, so that a retry runs', async () => {
    expect((await send('failing', 'failing-1')).status).toBe(500);
    const retry = await send('failing', 'failing-1');
    expect(retry).toMatchObject({ status: 500, replayed: null });
    expect(runs.failing).toBe(2);
    expect(await sql.query(`SELECT key FROM idempotency_keys WHERE key = 'failing-1'`)).toEqual([]);
  });

  it('does not keep an answer over the bound (compressed on the wire or not): the key is released', async () => {
    const first = await send('huge', 'huge-1');
    expect(first.status).toBe(201);
    expect(first.text.length).toBeGreaterThan(70 * 1024);
    const again = await send('huge', 'huge-1');
    expect(again.replayed).toBeNull();
    expect(runs.huge).toBe(2);
  });

  it('stores the bytes before compression, and replays them compressed as the first were', async () => {
    const first = await send('large', 'large-1');
    const again = await send('large', 'large-1');
    expect(first.headers.get('content-encoding')).toBe('gzip');
    expect(again.headers.get('content-encoding')).toBe('gzip');
    expect(again).toMatchObject({ status: 202, replayed: 'true', text: first.text });
    const [row] = await sql.query<{ response_body: Uint8Array }>(`SELECT response_body FROM idempotency_keys WHERE key = 'large-1'`);
    expect(Buffer.from(row.response_body).toString('utf8')).toBe(first.text);
    expect(runs.large).toBe(1);
  });

  it('refuses another body under the key with 422, and keeps companies apart', async () => {
    await send('created', 'shared', '{"a":1}');
    const reused = await send('created', 'shared', '{"a":2}');
    expect(reused.status).toBe(422);
    expect(JSON.parse(reused.text)).toMatchObject({ error: 'idempotency_key_reused' });
    const elsewhere = await send('created', 'shared', '{"a":2}', '00000000-0000-4000-8000-000000000002');
    expect(elsewhere).toMatchObject({ status: 202, replayed: null });
  });

  it('refuses a malformed key with 400 before the route runs', async () => {
    const before = runs.created;
    const answer = await send('created', 'has space');
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text).message).toMatch(/Idempotency-Key/);
    expect(runs.created).toBe(before);
  });
});
