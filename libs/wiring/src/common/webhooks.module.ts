import { Injectable, Logger, Module, type DynamicModule, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { AppConfig } from '@cs/config';
import { SQL_CLIENT, type SqlClient } from '@cs/ports';
import { WebhooksRepository } from '@cs/records';
import { safePost } from '@cs/safe-http';
import { InjectConfig, MetricsRegistry, configPart } from '@cs/service-kit';
import { RESPONSE_EXCERPT_BYTES, WebhookDispatcher, type WebhookSender } from '@cs/webhooks';
import type { ModuleImport } from './ports.module';

/** Polls from the start (what a stopped process left), and lets attempts in flight finish before the stores close. */
@Injectable()
class WebhookDispatcherLifecycle implements OnApplicationBootstrap, OnModuleDestroy {
  constructor(private readonly dispatcher: WebhookDispatcher) {}

  onApplicationBootstrap(): void {
    this.dispatcher.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.dispatcher.close();
  }
}

/** The POSTs of the dispatcher: the SSRF guard of upload-from-url, checked again at every attempt (DNS can change). */
@Injectable()
class SafeWebhookSender implements WebhookSender {
  constructor(@InjectConfig('webhooks') private readonly webhooks: AppConfig['webhooks']) {}

  send(request: { url: string; headers: Record<string, string>; body: string; timeoutMs: number }) {
    return safePost(request.url, request.body, request.headers, {
      allowPrivateNetworks: this.webhooks.allowPrivateNetworks,
      timeoutMs: request.timeoutMs,
      maxResponseBytes: RESPONSE_EXCERPT_BYTES,
    });
  }
}

/** The dispatcher's delivery attempts, by outcome. */
@Injectable()
class WebhookMetrics {
  private readonly attempts;
  private readonly attemptDuration;

  constructor(registry: MetricsRegistry) {
    this.attempts = registry.counter(
      'cs_webhook_delivery_attempts_total',
      'Webhook delivery attempts, by outcome (delivered; retrying: failed, tried again later; failed: given up on)',
      ['outcome'],
    );
    this.attemptDuration = registry.histogram(
      'cs_webhook_delivery_attempt_duration_seconds',
      "Webhook delivery attempts, from the connection to the end of the endpoint's answer (at most its timeout)",
      ['outcome'],
    );
  }

  attempted(outcome: string, seconds: number): void {
    this.attempts.inc({ outcome });
    this.attemptDuration.observe({ outcome }, seconds);
  }
}

/**
 * Webhooks for the process that serves the admin API and sends them: the gateway in the cluster
 * (it already fetches users' URLs; every replica dispatches, claims keep them apart), standalone's
 * one process. `stores` binds the SqlClient the events are recorded in.
 */
@Module({})
export class WebhooksModule {
  static over(stores: ModuleImport): DynamicModule {
    return {
      module: WebhooksModule,
      imports: [stores],
      providers: [
        { provide: WebhooksRepository, useFactory: (sql: SqlClient) => new WebhooksRepository(sql), inject: [SQL_CLIENT] },
        SafeWebhookSender,
        {
          provide: WebhookDispatcher,
          useFactory: (
            repository: WebhooksRepository,
            sender: SafeWebhookSender,
            webhooks: AppConfig['webhooks'],
            metrics: WebhookMetrics,
          ) => {
            const logger = new Logger('WebhookDispatcher');
            const { retryDelaysMs, retryForMs, timeoutMs, pollMs, concurrency, retentionMs } = webhooks;
            return new WebhookDispatcher(repository, sender, {
              schedule: { delaysMs: retryDelaysMs, retryForMs },
              timeoutMs,
              // Well past an attempt's deadline: a claimed delivery is never sent by two replicas at once.
              leaseMs: 3 * timeoutMs + 30_000,
              pollMs,
              concurrency,
              retentionMs,
              onError: (message, error) => logger.warn(`${message}: ${error instanceof Error ? error.message : String(error)}`),
              onAttempt: (outcome, seconds) => metrics.attempted(outcome, seconds),
            });
          },
          inject: [WebhooksRepository, SafeWebhookSender, configPart('webhooks'), WebhookMetrics],
        },
        WebhookMetrics,
        WebhookDispatcherLifecycle,
      ],
      exports: [WebhooksRepository, WebhookDispatcher],
    };
  }
}
