import type { BlobStore, DenseClient, NotificationListener, SparseClient } from '@cs/ports';
import type { CompanyRecord, DocumentRecord, DocumentsRepository } from '@cs/records';
import { SerializedBody } from '../http/conditional-get';
import { EndedSearchAnswers } from '../searches/ended-search-answers';
import { DocumentsService } from './documents.service';

const PAGE = { offset: 0, limit: 20, include: { extractedText: false } };

describe('DocumentsService.delete', () => {
  it('drops the kept result pages showing the CV before it answers, though no notification comes', async () => {
    // Listening works, but nothing is ever delivered: only the delete's own call can drop the page.
    const silent: NotificationListener = { listen: async () => async () => undefined, close: async () => undefined };
    const answers = new EndedSearchAnswers(1024 * 1024, silent);
    await answers.onModuleInit();
    const doc = { id: 'd1', companyId: 'acme', documentName: 'cv', storageKey: 'k' } as DocumentRecord;
    const documents = { get: async () => doc, delete: async () => true } as unknown as DocumentsRepository;
    const none = { delete: async () => 0 };
    const service = new DocumentsService(
      documents,
      { delete: async () => true } as unknown as BlobStore,
      none as unknown as DenseClient,
      none as unknown as SparseClient,
      answers,
    );
    answers.rememberPage('acme', 's1', PAGE, new SerializedBody('{"results":[]}'), ['d1'], answers.generation);
    answers.rememberPage('acme', 's2', PAGE, new SerializedBody('{"results":[]}'), ['d2'], answers.generation);
    await service.delete({ keyId: 'k1', company: { id: 'acme' } as CompanyRecord }, 'd1');
    expect(answers.page('acme', 's1', PAGE)).toBeUndefined();
    expect(answers.page('acme', 's2', PAGE)).toBeDefined();
  });
});
