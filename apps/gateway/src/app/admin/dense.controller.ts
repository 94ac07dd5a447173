import { Body, Controller, Get, HttpCode, Inject, Param, Post, UseGuards } from '@nestjs/common';
import { DomainError, http, notFound, parseOrThrow } from '@cs/contracts';
import { DENSE_CLIENT, type DenseClient } from '@cs/ports';
import { CompaniesRepository, DenseReindexesRepository, DocumentsRepository, type DenseReindexRecord } from '@cs/records';
import { UuidParam } from '../http/params';
import { AdminTokenGuard } from './admin-token.guard';

const reindexView = (r: DenseReindexRecord) => ({
  reindexId: r.id,
  state: r.state,
  companyId: r.companyId,
  fromModel: r.fromModel,
  toModel: r.toModel,
  documentsTotal: r.documentsTotal,
  documentsDone: r.documentsDone,
  documentsSkipped: r.documentsSkipped,
  skippedDocumentIds: r.skippedDocumentIds,
  switched: r.switched,
  error: r.error,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
  finishedAt: r.finishedAt?.toISOString() ?? null,
});

/**
 * The dense models and their reindexes (`npm run admin -- reindex --dense`): the model searches
 * read, the one DENSE_MODEL_NEXT loads beside it, and the reindex that fills its vectors and
 * then switches searches to them. An ingestion worker carries the reindex out.
 */
@Controller('admin/v1/dense')
@UseGuards(AdminTokenGuard)
export class DenseController {
  constructor(
    @Inject(DENSE_CLIENT) private readonly dense: DenseClient,
    private readonly reindexes: DenseReindexesRepository,
    private readonly documents: DocumentsRepository,
    private readonly companies: CompaniesRepository,
  ) {}

  @Get()
  async show() {
    const [models, latest] = await Promise.all([this.dense.models(), this.reindexes.latest()]);
    return { ...models, latestReindex: latest && reindexView(latest) };
  }

  @Post('reindexes')
  @HttpCode(202)
  async start(@Body() body: unknown) {
    const { companyId } = parseOrThrow(http.denseReindexBody, body);
    if (companyId && !(await this.companies.get(companyId))) throw notFound('company');
    const { active, next } = await this.dense.models();
    if (next && companyId) {
      throw new DomainError(
        'conflict',
        `with DENSE_MODEL_NEXT set (${next.id}), a reindex covers every company: searches switch to the new model all at once`,
      );
    }
    const started = await this.reindexes.start({
      companyId: companyId ?? null,
      fromModel: active.id,
      toModel: (next ?? active).id,
      documentsTotal: await this.documents.countProcessed(companyId ?? null),
    });
    if (!started) {
      const running = await this.reindexes.latest();
      throw new DomainError('conflict', `a dense reindex is running already (${running?.id ?? 'unknown'}): wait for it to end`);
    }
    return reindexView(started);
  }

  @Get('reindexes/:reindexId')
  async get(@Param('reindexId', new UuidParam('reindexId')) reindexId: string) {
    const reindex = await this.reindexes.get(reindexId);
    if (!reindex) throw notFound('reindex');
    return reindexView(reindex);
  }
}
