import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { SearchesRepository } from '@cs/records';
import { MAX_PROCESSING_MS } from '@cs/search-domain';

/** No search stays initiated or processing past its maximum time: this fails it, retryable. */
@Injectable()
export class SearchWatchdogService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(SearchWatchdogService.name);
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly searches: SearchesRepository) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.sweep(), 1000);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  async sweep(): Promise<string[]> {
    let failed: string[] = [];
    try {
      failed = await this.searches.failOverdue(MAX_PROCESSING_MS, 'the search ran past its maximum time; start a new one');
    } catch (error) {
      this.logger.error(`watchdog sweep failed: ${String(error)}`);
    }
    if (failed.length) this.logger.warn(`watchdog failed ${failed.length} overdue searches`);
    return failed;
  }
}
