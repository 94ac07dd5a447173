import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { parseOrThrow } from '@cs/contracts';
import { UuidParam } from '../http/params';
import { QueryParams } from '../http/request-shape';
import { RefusesIdempotencyKey } from '../idempotency/idempotency.interceptor';
import { AdminTokenGuard } from './admin-token.guard';
import { createWebhookBody, deliveriesQuery, deliveryView, testAttemptView, webhookView } from './webhooks.params';
import { WebhooksService } from './webhooks.service';

/** Webhook endpoints of companies and their delivery log, behind the admin token (`npm run admin -- webhooks`). */
@Controller('admin/v1')
@UseGuards(AdminTokenGuard)
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post('companies/:companyId/webhooks')
  @RefusesIdempotencyKey('the answer holds the endpoint’s signing secret, which is shown only once')
  async create(@Param('companyId', new UuidParam('companyId')) companyId: string, @Body() body: unknown) {
    const { url, events } = parseOrThrow(createWebhookBody, body);
    const { endpoint, secret } = await this.webhooks.create(companyId, url, events);
    return { ...webhookView(endpoint), secret };
  }

  @Get('companies/:companyId/webhooks')
  async list(@Param('companyId', new UuidParam('companyId')) companyId: string) {
    return { data: (await this.webhooks.list(companyId)).map(webhookView) };
  }

  @Get('webhooks/:webhookId')
  async show(@Param('webhookId', new UuidParam('webhookId')) id: string) {
    return webhookView(await this.webhooks.get(id));
  }

  @Delete('webhooks/:webhookId')
  async remove(@Param('webhookId', new UuidParam('webhookId')) id: string) {
    await this.webhooks.remove(id);
    return { webhookId: id, removed: true };
  }

  @Post('webhooks/:webhookId/enable')
  @HttpCode(200)
  async enable(@Param('webhookId', new UuidParam('webhookId')) id: string) {
    return webhookView(await this.webhooks.setEnabled(id, true));
  }

  @Post('webhooks/:webhookId/disable')
  @HttpCode(200)
  async disable(@Param('webhookId', new UuidParam('webhookId')) id: string) {
    return webhookView(await this.webhooks.setEnabled(id, false));
  }

  @Post('webhooks/:webhookId/test')
  @HttpCode(200)
  async test(@Param('webhookId', new UuidParam('webhookId')) id: string) {
    const { deliveryId, eventId, attempt } = await this.webhooks.sendTest(id);
    return { webhookId: id, deliveryId, eventId, attempt: testAttemptView(attempt) };
  }

  @Get('webhooks/:webhookId/deliveries')
  @QueryParams('limit', 'offset', 'status')
  async deliveries(@Param('webhookId', new UuidParam('webhookId')) id: string, @Query() query: unknown) {
    const { limit, offset, status } = parseOrThrow(deliveriesQuery, query, 'query string');
    const { items, total } = await this.webhooks.deliveries(id, { limit, offset, status });
    return { data: items.map(deliveryView), pagination: { limit, offset, total, hasMore: offset + items.length < total } };
  }
}
