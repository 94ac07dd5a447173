import type { DenseClient, DenseModel } from '@cs/ports';
import type { DenseReindexRecord, DenseReindexesRepository, DocumentsRepository } from '@cs/records';
import { CV_ATTEMPTS, DenseReindexRunner, REINDEX_MAX_FAILURES, REINDEX_PAGE } from './dense-reindex.runner';

const OLD: DenseModel = { id: 'builtin:glove-sif-100d-v1', dimensions: 100 };
const NEW: DenseModel = { id: 'onnx:minilm@0123456789ab', dimensions: 384 };

/** A reindex record, the documents it walks, and a dense service that records what it is asked. */
function setUp(
  cvCount: number,
  models: { active: DenseModel; next: DenseModel | null },
  failing: (id: string) => Error | null = () => null,
) {
  const cvs = Array.from({ length: cvCount }, (_, i) => ({
    companyId: 'c1',
    id: `d${String(i).padStart(4, '0')}`,
    text: `CV ${i}: nurse`,
    chunks: [{ index: 0, start: 0, end: 4 }],
  }));
  const deleted = new Set<string>();
  /** CVs completed after the reindex began: its last pass embeds them again. */
  const completedLate = new Set<string>();
  let record: DenseReindexRecord = {
    id: 'r1',
    companyId: null,
    fromModel: models.active.id,
    toModel: (models.next ?? models.active).id,
    state: 'running',
    documentsTotal: cvCount,
    documentsDone: 0,
    documentsSkipped: 0,
    skippedDocumentIds: [],
    cursorCompanyId: null,
    cursorDocumentId: null,
    switched: false,
    error: null,
    createdAt: new Date(),
    updatedAt: new Date(),
    finishedAt: null,
  };
  const started: unknown[] = [];
  const reindexes = {
    claim: async () => (record.state === 'running' ? record : null),
    latest: async () => record,
    renew: async () => record.state === 'running',
    start: async (input: { fromModel: string; toModel: string; documentsTotal: number }) => {
      started.push(input);
      record = { ...record, id: 'r2', ...input, state: 'running', documentsDone: 0, cursorCompanyId: null, cursorDocumentId: null };
      return record;
    },
    advance: async (
      _id: string,
      _owner: string,
      page: { cursor: { companyId: string; documentId: string } | null; done: number; skipped: string[] },
    ) => {
      record = {
        ...record,
        documentsDone: record.documentsDone + page.done,
        documentsSkipped: record.documentsSkipped + page.skipped.length,
        skippedDocumentIds: [...record.skippedDocumentIds, ...page.skipped],
        cursorCompanyId: page.cursor?.companyId ?? record.cursorCompanyId,
        cursorDocumentId: page.cursor?.documentId ?? record.cursorDocumentId,
      };
      return true;
    },
    finish: async (
      _id: string,
      _owner: string,
      outcome: { state: 'completed'; switched: boolean } | { state: 'failed'; error: string },
    ) => {
      record = {
        ...record,
        state: outcome.state,
        switched: outcome.state === 'completed' && outcome.switched,
        error: outcome.state === 'failed' ? outcome.error : null,
      };
      return true;
    },
  } as unknown as DenseReindexesRepository;
  const documents = {
    countProcessed: async () => cvs.length,
    processedAfter: async (after: { documentId: string } | null, _companyId: string | null, limit: number, since: Date | null = null) =>
      cvs.filter((cv) => (!after || cv.id > after.documentId) && (!since || completedLate.has(cv.id))).slice(0, limit),
    deletedAmong: async <T extends { id: string }>(page: T[]) => page.filter((cv) => deleted.has(cv.id)),
  } as unknown as DocumentsRepository;
  const calls = {
    reindexed: [] as string[],
    attempts: [] as string[],
    chunkTexts: [] as string[],
    deleted: [] as string[],
    activated: 0,
    targets: new Set<string>(),
  };
  const dense = {
    models: async () => models,
    reindex: async (_companyId: string, documentId: string, _text: string, chunks: { text: string }[], modelId: string) => {
      calls.targets.add(modelId);
      calls.attempts.push(documentId);
      const failure = failing(documentId);
      if (failure) throw failure;
      calls.reindexed.push(documentId);
      calls.chunkTexts.push(...chunks.map((c) => c.text));
      return 2;
    },
    delete: async (_companyId: string, documentId: string) => {
      calls.deleted.push(documentId);
      return 2;
    },
    activateNext: async (modelId: string) => {
      calls.targets.add(modelId);
      calls.activated++;
      return models.next!;
    },
  } as unknown as DenseClient;
  const runner = new DenseReindexRunner(reindexes, documents, dense);
  runner.retryPauseMs = 1;
  return { runner, calls, deleted, started, completedLate, record: () => record };
}

describe('DenseReindexRunner', () => {
  it('embeds every processed CV again, page by page, then switches searches to the next model', async () => {
    const { runner, calls, record } = setUp(2 * REINDEX_PAGE + 5, { active: OLD, next: NEW });
    await runner.runOnce();
    expect(calls.reindexed).toHaveLength(2 * REINDEX_PAGE + 5);
    expect(new Set(calls.reindexed).size).toBe(2 * REINDEX_PAGE + 5);
    // Passages go with their text, cut from the stored text by their spans.
    expect(calls.chunkTexts[0]).toBe('CV 0');
    expect(calls.activated).toBe(1);
    expect([...calls.targets]).toEqual([NEW.id]);
    expect(record()).toMatchObject({ state: 'completed', switched: true, documentsDone: 2 * REINDEX_PAGE + 5 });
  });

  it('embeds again, before the switch, the CVs completed since the reindex began', async () => {
    const setup = setUp(5, { active: OLD, next: NEW });
    setup.completedLate.add('d0001');
    setup.completedLate.add('d0004');
    await setup.runner.runOnce();
    expect(setup.calls.reindexed).toEqual(['d0000', 'd0001', 'd0002', 'd0003', 'd0004', 'd0001', 'd0004']);
    expect(setup.record()).toMatchObject({ state: 'completed', switched: true, documentsDone: 5 });
  });

  it('re-embeds in place without a next model, switching nothing', async () => {
    const { runner, calls, record } = setUp(3, { active: OLD, next: null });
    await runner.runOnce();
    expect(calls.activated).toBe(0);
    expect(record()).toMatchObject({ state: 'completed', switched: false, documentsDone: 3 });
  });

  it('takes out of the new set a CV deleted while it was embedded again', async () => {
    const setup = setUp(3, { active: OLD, next: NEW });
    setup.deleted.add('d0001');
    await setup.runner.runOnce();
    expect(setup.calls.deleted).toEqual(['d0001']);
  });

  it('fails the reindex when the next model is no longer the one it fills', async () => {
    const { runner, calls, record } = setUp(3, { active: OLD, next: { id: 'onnx:other@ffffffffffff', dimensions: 8 } });
    (record() as { toModel: string }).toModel = NEW.id;
    await runner.runOnce();
    expect(calls.activated).toBe(0);
    expect(record()).toMatchObject({
      state: 'failed',
      error: expect.stringMatching(/DENSE_MODEL_NEXT changed during the reindex/) as unknown,
    });
  });

  it('starts by itself the reindex a changed builtin model needs, once, and not after one to it failed', async () => {
    const v1 = { id: 'builtin:glove-sif-100d-v1', dimensions: 100 };
    const v2 = { id: 'builtin:glove-sif-100d-v2', dimensions: 100 };
    const setup = setUp(3, { active: v1, next: v2 });
    (setup.record() as { state: string }).state = 'completed';
    (setup.record() as { toModel: string }).toModel = 'builtin:glove-sif-100d-v0';
    await setup.runner.runOnce();
    expect(setup.started).toEqual([{ companyId: null, fromModel: v1.id, toModel: v2.id, documentsTotal: 3 }]);
    expect(setup.calls.activated).toBe(1);
    expect(setup.record()).toMatchObject({ id: 'r2', state: 'completed', switched: true });

    const failed = setUp(3, { active: v1, next: v2 });
    Object.assign(failed.record(), { state: 'failed', toModel: v2.id });
    await failed.runner.runOnce();
    expect(failed.started).toEqual([]);
    // Another kind of next model is the operator's to reindex.
    const onnx = setUp(3, { active: v1, next: NEW });
    Object.assign(onnx.record(), { state: 'completed' });
    await onnx.runner.runOnce();
    expect(onnx.started).toEqual([]);
  });

  it('passes over a CV that keeps failing while the rest of its page embeds, and names it on the reindex', async () => {
    const { runner, calls, record } = setUp(5, { active: OLD, next: NEW }, (id) => (id === 'd0002' ? new Error('the model choked') : null));
    await runner.runOnce();
    expect(new Set(calls.reindexed)).toEqual(new Set(['d0000', 'd0001', 'd0003', 'd0004']));
    // Tried alone CV_ATTEMPTS times after the page failed (once within it).
    expect(calls.attempts.filter((id) => id === 'd0002')).toHaveLength(1 + CV_ATTEMPTS);
    expect(record()).toMatchObject({
      state: 'completed',
      switched: true,
      documentsDone: 5,
      documentsSkipped: 1,
      skippedDocumentIds: ['d0002'],
    });
  });

  it('tries a page whose every CV fails (an outage) again, and fails the reindex only after many failures in a row', async () => {
    const { runner, record } = setUp(3, { active: OLD, next: NEW }, () => new Error('the embeddings API answered 503'));
    for (let attempt = 1; attempt < REINDEX_MAX_FAILURES; attempt++) {
      await expect(runner.runOnce()).rejects.toThrow(/503/);
      expect(record().state).toBe('running');
    }
    await runner.runOnce();
    expect(record()).toMatchObject({
      state: 'failed',
      error: `${REINDEX_MAX_FAILURES} pages failed in a row: the embeddings API answered 503`,
    });
  });

  it('fails the reindex at once when no retry can help (a refused key), each CV tried once', async () => {
    const refused = Object.assign(new Error('the embeddings API refused the key (401)'), { retryable: false });
    const { runner, calls, record } = setUp(3, { active: OLD, next: NEW }, () => refused);
    await runner.runOnce();
    expect(record()).toMatchObject({ state: 'failed', error: 'the embeddings API refused the key (401)' });
    expect(calls.attempts).toHaveLength(2 + 3); // the page's first two at once, then each CV alone once
  });
});
