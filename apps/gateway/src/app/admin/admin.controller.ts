import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Put, Query, UseGuards } from '@nestjs/common';
import { DomainError, http, notFound, parseOrThrow, type JobKind } from '@cs/contracts';
import { JOB_QUEUE, type JobQueue } from '@cs/ports';
import { CompaniesRepository, type ApiKeyRecord, type CompanyRecord, type LimitCategory } from '@cs/records';
import { UuidParam } from '../http/params';
import { QueryParams } from '../http/request-shape';
import { RefusesIdempotencyKey } from '../idempotency/idempotency.interceptor';
import { DEFAULT_RULES } from '@cs/rate-limits';
import { AdminTokenGuard } from './admin-token.guard';
import { DeadLetterIdParam, QueueParam, deadLetterView, deadLettersQuery } from './dead-letters.params';

const LIMIT_CATEGORIES: LimitCategory[] = ['search', 'read', 'upload-burst', 'upload-sustained'];

const companyView = (c: CompanyRecord) => ({
  companyId: c.id,
  name: c.name,
  createdAt: c.createdAt.toISOString(),
  limits: Object.fromEntries(
    LIMIT_CATEGORIES.map((k) => [
      k,
      { limit: c.limits[k] ?? DEFAULT_RULES[k].limit, window: DEFAULT_RULES[k].window, custom: c.limits[k] !== undefined },
    ]),
  ),
});
/** A replay would need the key in clear; keys are stored hashed only. */
const HOLDS_AN_API_KEY = 'the answer holds a new API key, and API keys are never stored in clear';

const keyView = (k: ApiKeyRecord) => ({
  keyId: k.id,
  keyPrefix: k.keyPrefix,
  createdAt: k.createdAt.toISOString(),
  revokedAt: k.revokedAt?.toISOString() ?? null,
});

/** Operator API behind the admin token, used by `npm run admin`; not part of /v1/public. */
@Controller('admin/v1')
@UseGuards(AdminTokenGuard)
export class AdminController {
  constructor(
    private readonly companies: CompaniesRepository,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
  ) {}

  @Post('companies')
  @RefusesIdempotencyKey(HOLDS_AN_API_KEY)
  async createCompany(@Body() body: unknown) {
    const { name } = parseOrThrow(http.createCompanyBody, body);
    const company = await this.companies.create(name);
    const { apiKey, record } = await this.companies.createKey(company.id);
    return { ...companyView(company), apiKey, keyPrefix: record.keyPrefix };
  }

  @Get('companies')
  async listCompanies() {
    return { data: (await this.companies.list()).map(companyView) };
  }

  @Post('companies/:companyId/keys')
  @RefusesIdempotencyKey(HOLDS_AN_API_KEY)
  async createKey(@Param('companyId', new UuidParam('companyId')) companyId: string) {
    if (!(await this.companies.get(companyId))) throw notFound('company');
    const { apiKey, record } = await this.companies.createKey(companyId);
    return { companyId, apiKey, ...keyView(record) };
  }

  @Get('companies/:companyId/keys')
  async listKeys(@Param('companyId', new UuidParam('companyId')) companyId: string) {
    if (!(await this.companies.get(companyId))) throw notFound('company');
    return { data: (await this.companies.listKeys(companyId)).map(keyView) };
  }

  @Post('companies/:companyId/keys/revoke')
  async revoke(@Param('companyId', new UuidParam('companyId')) companyId: string, @Body() body: unknown) {
    const { keyPrefix } = parseOrThrow(http.revokeKeysBody, body);
    const revoked = await this.companies.revokeKeys(companyId, keyPrefix);
    if (revoked === 0) throw notFound('live key of that company with that prefix');
    return { companyId, keyPrefix, revoked };
  }

  @Put('companies/:companyId/limits/:category')
  async setLimit(
    @Param('companyId', new UuidParam('companyId')) companyId: string,
    @Param('category') category: string,
    @Body() body: unknown,
  ) {
    if (!LIMIT_CATEGORIES.includes(category as LimitCategory)) {
      throw new DomainError('invalid_request', `category must be one of ${LIMIT_CATEGORIES.join(', ')}`);
    }
    const { limit } = parseOrThrow(http.setLimitBody, body);
    const company = await this.companies.setLimit(companyId, category as LimitCategory, limit);
    if (!company) throw notFound('company');
    return companyView(company);
  }

  // Dead letters: the jobs a queue gave up on (either queue, either mode: this process's JOB_QUEUE).

  @Get('dead-letters')
  @QueryParams('queue', 'limit', 'after')
  async listDeadLetters(@Query() query: unknown) {
    const { queue, limit, after } = parseOrThrow(deadLettersQuery, query, 'query string');
    const page = await this.queue.deadLetters({ kind: queue, limit, after });
    return { data: page.letters.map(deadLetterView), next: page.next };
  }

  @Get('dead-letters/:queue/:id')
  async showDeadLetter(@Param('queue', QueueParam) queue: JobKind, @Param('id', DeadLetterIdParam) id: string) {
    const letter = await this.queue.deadLetter(queue, id);
    if (!letter) throw notFound('dead letter');
    return deadLetterView(letter);
  }

  @Post('dead-letters/:queue/:id/replay')
  @HttpCode(200)
  async replayDeadLetter(@Param('queue', QueueParam) queue: JobKind, @Param('id', DeadLetterIdParam) id: string) {
    if ((await this.queue.replayDeadLetters(queue, id)) === 0) throw notFound('dead letter');
    return { queue, id, replayed: 1 };
  }

  @Post('dead-letters/:queue/replay')
  @HttpCode(200)
  async replayDeadLetters(@Param('queue', QueueParam) queue: JobKind) {
    return { queue, replayed: await this.queue.replayDeadLetters(queue) };
  }

  @Delete('dead-letters/:queue/:id')
  async purgeDeadLetter(@Param('queue', QueueParam) queue: JobKind, @Param('id', DeadLetterIdParam) id: string) {
    if ((await this.queue.purgeDeadLetters(queue, id)) === 0) throw notFound('dead letter');
    return { queue, id, purged: 1 };
  }

  @Delete('dead-letters/:queue')
  async purgeDeadLetters(@Param('queue', QueueParam) queue: JobKind) {
    return { queue, purged: await this.queue.purgeDeadLetters(queue) };
  }
}
