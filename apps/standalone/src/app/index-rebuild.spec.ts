import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { DenseClient, JobQueue, SparseClient, SqlClient } from '@cs/ports';
import type { DocumentsRepository } from '@cs/records';
import type { RateLimiterService } from '@cs/rate-limits';
import { eventually } from '@cs/test-services';
import { ReadinessService } from '../../../gateway/src/app/health/readiness';
import { IndexRebuild } from './index-rebuild';

type Cv = { companyId: string; id: string; text: string; chunks: { start: number; end: number }[] };

const cvs: Cv[] = Array.from({ length: 70 }, (_, i) => ({
  companyId: i < 40 ? '00000000-0000-4000-8000-000000000001' : '00000000-0000-4000-8000-000000000002',
  id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  text: `CV number ${i}: accountant`,
  chunks: [{ start: 0, end: 12 }],
}));

/** The documents the rebuild reads, in company and id order; `gate` holds each page until released. */
function documents(gate: { wait: Promise<void> }, deleted: Set<string>) {
  return {
    countProcessed: async () => cvs.length,
    processedAfter: async (after: { companyId: string; documentId: string } | null, _company: string | null, limit: number) => {
      await gate.wait;
      const from = after ? cvs.findIndex((cv) => cv.id === after.documentId) + 1 : 0;
      return cvs.slice(from, from + limit);
    },
    deletedAmong: async (page: Cv[]) => page.filter((cv) => deleted.has(cv.id)),
  } as unknown as DocumentsRepository;
}

describe('IndexRebuild', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cs-rebuild-'));
  });
  afterEach(() => fs.rm(dataDir, { recursive: true, force: true }));

  const services = (failing = new Set<string>()) => {
    const calls = { sparse: [] as string[], dense: [] as string[], deleted: [] as string[], tries: new Map<string, number>() };
    const sparse = {
      upsert: async (_c: string, id: string) => void calls.sparse.push(id),
      delete: async (_c: string, id: string) => (calls.deleted.push(`sparse ${id}`), 1),
    } as unknown as SparseClient;
    const dense = {
      upsert: async (_c: string, id: string, text: string, chunks: { text: string }[]) => {
        calls.tries.set(id, (calls.tries.get(id) ?? 0) + 1);
        if (failing.has(id)) throw new Error('the encoder refused it');
        expect(chunks[0].text).toBe(text.slice(0, 12));
        calls.dense.push(id);
        return 2;
      },
      delete: async (_c: string, id: string) => (calls.deleted.push(`dense ${id}`), 2),
    } as unknown as DenseClient;
    return { calls, sparse, dense };
  };

  it('does nothing over a folder of the embedded store', async () => {
    const { calls, sparse, dense } = services();
    const rebuild = new IndexRebuild(dataDir, 'builtin', documents({ wait: Promise.resolve() }, new Set()), dense, sparse);
    await rebuild.onApplicationBootstrap();
    await rebuild.whenDone();
    expect(rebuild.pending()).toBeNull();
    expect(calls.sparse).toEqual([]);
  });

  it("indexes every stored CV again over the LanceDB store's folder, not ready until done, then records it and removes the tables", async () => {
    await fs.mkdir(path.join(dataDir, 'lancedb'));
    await fs.writeFile(path.join(dataDir, 'store.json'), '{"store":"lancedb"}');
    let release!: () => void;
    const gate = { wait: new Promise<void>((resolve) => (release = resolve)) };
    const deleted = new Set([cvs[5].id]);
    const { calls, sparse, dense } = services(new Set([cvs[64].id]));
    const rebuild = new IndexRebuild(dataDir, 'lancedb', documents(gate, deleted), dense, sparse);
    rebuild.retryPauseMs = 1;
    const up = async () => undefined;
    const readiness = new ReadinessService(
      { query: up } as unknown as SqlClient,
      { ping: up } as unknown as RateLimiterService,
      {} as JobQueue,
      {} as DenseClient,
      {} as SparseClient,
      rebuild,
    );

    await rebuild.onApplicationBootstrap();
    expect(await readiness.check()).toEqual({
      ready: false,
      checks: {
        database: 'up',
        rateLimits: 'up',
        indexes: 'down: rebuilding the keyword index and vector sets from the stored texts: 0 of 70 CVs',
      },
    });
    release();
    await rebuild.whenDone();

    expect(rebuild.pending()).toBeNull();
    // A CV's try writes both indexes again (an upsert): the keyword index saw the failing CV's three.
    expect([...new Set(calls.sparse)]).toEqual(cvs.map((cv) => cv.id));
    expect(calls.dense).toEqual(cvs.filter((cv) => cv !== cvs[64]).map((cv) => cv.id));
    expect(calls.tries.get(cvs[64].id)).toBe(3); // then passed over, and named in the log
    // Deleted while it was indexed again: taken out of both indexes after its page.
    expect(calls.deleted).toEqual([`dense ${cvs[5].id}`, `sparse ${cvs[5].id}`]);
    expect(JSON.parse(await fs.readFile(path.join(dataDir, 'store.json'), 'utf8'))).toEqual({ store: 'builtin' });
    await expect(fs.stat(path.join(dataDir, 'lancedb'))).rejects.toMatchObject({ code: 'ENOENT' });
    await eventually(async () => expect((await readiness.check()).ready).toBe(true), { timeoutMs: 5_000, intervalMs: 100 });
  });

  it('stops at a shutdown and leaves the record, so the next start rebuilds again', async () => {
    await fs.writeFile(path.join(dataDir, 'store.json'), '{"store":"lancedb"}');
    let release!: () => void;
    const gate = { wait: new Promise<void>((resolve) => (release = resolve)) };
    const { calls, sparse, dense } = services();
    const rebuild = new IndexRebuild(dataDir, 'lancedb', documents(gate, new Set()), dense, sparse);
    await rebuild.onApplicationBootstrap();
    const stopping = rebuild.onModuleDestroy();
    release();
    await stopping;
    expect(calls.sparse.length).toBeLessThan(cvs.length);
    expect(JSON.parse(await fs.readFile(path.join(dataDir, 'store.json'), 'utf8'))).toEqual({ store: 'lancedb' });
  });
});
