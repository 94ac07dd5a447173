import { Module, type DynamicModule } from '@nestjs/common';
import type { AppConfig } from '@cs/config';
import type { HostedRerankerClient } from '@cs/hosted-reranker';

/** The hosted reranker RERANKER_PROVIDER names (Cohere, Jina, Voyage or TEI); null for `local`. */
export const HOSTED_RERANKER = Symbol('HostedReranker');

/** Binds HOSTED_RERANKER from the config; the client's library is loaded (import()) only when a provider is named. */
@Module({})
export class HostedRerankerModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: HostedRerankerModule,
      providers: [
        {
          provide: HOSTED_RERANKER,
          useFactory: async (): Promise<HostedRerankerClient | null> => {
            const settings = config.reranker;
            if (settings.provider === 'local') return null;
            const { HostedRerankerClient } = await import('@cs/hosted-reranker');
            return new HostedRerankerClient({ ...settings, shape: settings.provider });
          },
        },
      ],
      exports: [HOSTED_RERANKER],
    };
  }
}
