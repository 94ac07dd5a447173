import { Injectable } from '@nestjs/common';
import type { AppConfig } from '@cs/config';
import { DomainError, invalid, notFound } from '@cs/contracts';
import { CompaniesRepository, WebhooksRepository, type DeliveryRecord, type DeliveryStatus } from '@cs/records';
import { FetchRefused, checkPublicUrl } from '@cs/safe-http';
import { InjectConfig } from '@cs/service-kit';
import { WebhookDispatcher, generateWebhookSecret, type AttemptRecord, type WebhookEndpoint, type WebhookEventType } from '@cs/webhooks';

/** Endpoints a company may have: each event is sent to each of them, so the fan-out stays small. */
export const MAX_WEBHOOKS_PER_COMPANY = 20;
/** How long registration waits for the URL's host name to resolve. */
const LOOKUP_TIMEOUT_MS = 5000;

/** The admin API's webhooks: endpoints of a company, their delivery log, and test events. */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly companies: CompaniesRepository,
    private readonly webhooks: WebhooksRepository,
    private readonly dispatcher: WebhookDispatcher,
    @InjectConfig('webhooks') private readonly settings: AppConfig['webhooks'],
  ) {}

  /**
   * Registers an endpoint once its URL passes upload-from-url's rules (http or https, no
   * credentials, a public address unless WEBHOOKS_ALLOW_PRIVATE_NETWORKS is set); every delivery
   * checks the address again. The secret is returned here only.
   */
  async create(companyId: string, url: string, eventTypes: WebhookEventType[]): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
    if (!(await this.companies.get(companyId))) throw notFound('company');
    try {
      await checkPublicUrl(url, { allowPrivateNetworks: this.settings.allowPrivateNetworks, timeoutMs: LOOKUP_TIMEOUT_MS });
    } catch (error) {
      if (!(error instanceof FetchRefused)) throw error;
      if (error.badUrl) throw invalid(error.message);
      const hint = error.privateAddress ? ' (WEBHOOKS_ALLOW_PRIVATE_NETWORKS=true allows them, for a trusted network)' : '';
      throw new DomainError('unprocessable', `url cannot receive webhooks: ${error.message}${hint}`);
    }
    const secret = generateWebhookSecret();
    const endpoint = await this.webhooks.createEndpoint({ companyId, url, eventTypes, secret }, MAX_WEBHOOKS_PER_COMPANY);
    if (!endpoint) {
      // The company existed a moment ago: it is the bound (or a delete that just won).
      if (!(await this.companies.get(companyId))) throw notFound('company');
      throw new DomainError('conflict', `a company has at most ${MAX_WEBHOOKS_PER_COMPANY} webhook endpoints; remove one first`);
    }
    return { endpoint, secret };
  }

  async list(companyId: string): Promise<WebhookEndpoint[]> {
    if (!(await this.companies.get(companyId))) throw notFound('company');
    return this.webhooks.listEndpoints(companyId);
  }

  async get(id: string): Promise<WebhookEndpoint> {
    const endpoint = await this.webhooks.getEndpoint(id);
    if (!endpoint) throw notFound('webhook');
    return endpoint;
  }

  async remove(id: string): Promise<void> {
    if (!(await this.webhooks.deleteEndpoint(id))) throw notFound('webhook');
  }

  async setEnabled(id: string, enabled: boolean): Promise<WebhookEndpoint> {
    const endpoint = await this.webhooks.setEnabled(id, enabled);
    if (!endpoint) throw notFound('webhook');
    return endpoint;
  }

  /** Sends a `webhook.test` event now and answers with its first attempt; a failed one is retried like any delivery. */
  async sendTest(id: string): Promise<{ deliveryId: string; eventId: string; attempt: AttemptRecord }> {
    if (!(await this.get(id)).enabled) throw new DomainError('conflict', 'the webhook is disabled; enable it before testing it');
    const sent = await this.dispatcher.sendTest(id);
    if (!sent) throw notFound('webhook'); // removed meanwhile
    return sent;
  }

  async deliveries(
    id: string,
    options: { limit: number; offset: number; status?: DeliveryStatus },
  ): Promise<{ items: DeliveryRecord[]; total: number }> {
    await this.get(id);
    return this.webhooks.listDeliveries(id, options);
  }
}
