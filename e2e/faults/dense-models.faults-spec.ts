import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { setFolderName } from '@cs/ports';
import { ApiClient } from '../support/api-client';
import { TEXT, TEXT_CVS, adminApi, adminCli, createCompany } from '../support/fixtures';
import { ROOT } from '../support/local-ports';
import { ClusterServices } from '../support/cluster-services';
import { MODES, describeMode } from '../support/service-under-test';
import { StandaloneService } from '../support/standalone-service';

jest.setTimeout(600_000);

/** The onnx-encoder's stand-in bi-encoder: a real ONNX graph with a real tokenizer, 8 dimensions. */
const TINY_MODEL = path.join(ROOT, 'libs/onnx-encoder/src/testing/tiny-bi-encoder');
const ONNX = `onnx:${TINY_MODEL}`;
/** Enough CVs that a reindex takes several pages, and searches can be seen completing while it runs. */
const CV_COUNT = 240;

/** `npm run admin -- ...` as a child process, without blocking the test's own requests meanwhile. */
function adminCliAsync(args: string[], env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '-s', 'admin', '--', ...args], { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: '', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

const countBy = (values: (string | null)[]) =>
  values.reduce<Record<string, number>>((n, v) => ({ ...n, [String(v)]: (n[String(v)] ?? 0) + 1 }), {});

/**
 * One mode's service, with its dense service restarted on other settings: standalone restarts its
 * one process; the cluster restarts only its dense service, the gateway and workers staying up.
 * A start that fails throws with the service's log in the message.
 */
interface DenseUnderTest {
  baseUrl: string;
  dataDir: string;
  restartDense(env: Record<string, string>): Promise<void>;
  destroy(): Promise<void>;
}

async function startMode(mode: string): Promise<DenseUnderTest> {
  if (mode === 'standalone') {
    const service = await StandaloneService.start();
    return { ...pick(service), restartDense: (env) => service.restartWith(env), destroy: () => service.destroy() };
  }
  const cluster = await ClusterServices.start();
  if (!cluster) throw new Error('PostgreSQL, Redis or NATS went away since the global setup found them');
  return {
    ...pick(cluster),
    restartDense: async (env) => {
      await cluster.stopService('dense');
      await cluster.startService('dense', 'dense', env);
    },
    destroy: () => cluster.destroy(),
  };
}
const pick = (s: { baseUrl: string; dataDir: string }) => ({ baseUrl: s.baseUrl, dataDir: s.dataDir });

for (const mode of MODES) {
  describeMode(mode)(
    `dense models (${mode.name}): the vectors know their model, and a reindex moves to another while searches go on`,
    () => {
      let service: DenseUnderTest;
      let client: ApiClient;
      const admin = () => ({ ADMIN_URL: service.baseUrl, DATA_DIR: service.dataDir });

      /** A dense search run to its end: its status and the model its metadata names. */
      const denseSearch = async (query: string) => {
        const created = await client.post('/v1/public/searches/dense', { query, top_k: 5 });
        const status = await client.waitForSearch(created.body.searchId, 60_000, 50);
        if (status.status !== 'completed') return { status: status.status as string, model: null };
        const { body } = await client.get(`/v1/public/searches/${created.body.searchId}/results`);
        return {
          status: 'completed',
          model: body.metadata.denseModel.id as string,
          first: body.results[0]?.documentId as string | undefined,
        };
      };

      beforeAll(async () => {
        service = await startMode(mode.name);
        const { apiKey } = await createCompany(service, 'dense-models', 100_000);
        client = new ApiClient(service.baseUrl, apiKey);
        const texts = Object.values(TEXT_CVS);
        const ids: string[] = [];
        for (let i = 0; i < CV_COUNT; i++) {
          const text = `${texts[i % texts.length]}\nReference number ${i}.`;
          ids.push((await client.upload(Buffer.from(text), TEXT, { documentName: `cv-${i}`, documentDate: '01-2024' })).body.documentId);
        }
        await client.waitForDocuments(ids, 300_000);
      });

      afterAll(() => service?.destroy());

      it('echoes the builtin model in each search', async () => {
        const search = await denseSearch('chef running a restaurant kitchen');
        expect(search).toMatchObject({ status: 'completed', model: expect.stringMatching(/^builtin:glove-sif-100d-v\d+$/) });
      });

      it('refuses to start on vectors another model made, saying what to run', async () => {
        const refused = await service.restartDense({ DENSE_MODEL: ONNX }).then(
          () => '',
          (error: unknown) => (error as Error).message,
        );
        expect(refused).toMatch(/exited with 1/);
        expect(refused).toMatch(/the vectors searches read were made by builtin:glove-sif-100d-v\d+ \(100 dimensions\)/);
        expect(refused).toContain(`DENSE_MODEL_NEXT=${ONNX}, run \`npm run admin -- reindex --dense\``);
      });

      it('reindexes into the next model while searches keep completing, then switches them to it', async () => {
        await service.restartDense({ DENSE_MODEL: 'builtin', DENSE_MODEL_NEXT: ONNX });
        const models = JSON.parse(adminCli(['dense'], admin()).stdout) as {
          active: { id: string };
          next: { id: string; dimensions: number };
        };
        expect(models.next).toEqual({ id: expect.stringMatching(/^onnx:tiny-bi-encoder@[0-9a-f]{12}$/), dimensions: 8 });

        const reindex = adminCliAsync(['reindex', '--dense'], admin());
        const searches: { status: string; model: string | null }[] = [];
        let finished = false;
        void reindex.then(() => (finished = true));
        while (!finished) searches.push(await denseSearch('executive chef, seasonal menus'));
        const { status, stdout, stderr } = await reindex;
        // Without a terminal the progress bar prints a line now and then, and its last at the end.
        expect(stderr).toMatch(new RegExp(`Reindexing \\[.*\\] ${CV_COUNT}/${CV_COUNT} CVs \\| 100%`));
        expect({ status, stderr: stderr.replace(/Reindexing \[.*/g, '').trim() }).toEqual({ status: 0, stderr: '' });
        expect(JSON.parse(stdout)).toMatchObject({ state: 'completed', documentsTotal: CV_COUNT, documentsDone: CV_COUNT, switched: true });

        // Every search completed, each by one model: the old one's until the switch, then the new one's.
        process.stdout.write(
          `${mode.name}: searches during the reindex: ${searches.length}, by model: ${JSON.stringify(countBy(searches.map((s) => s.model)))}\n`,
        );
        expect(searches.length).toBeGreaterThan(0);
        expect(searches.every((s) => s.status === 'completed')).toBe(true);
        const firstNew = searches.findIndex((s) => s.model === models.next.id);
        const order = searches.map((s, i) => (firstNew >= 0 && i >= firstNew ? models.next.id : models.active.id));
        expect(searches.map((s) => s.model)).toEqual(order);
        expect(await denseSearch('executive chef, seasonal menus')).toMatchObject({ status: 'completed', model: models.next.id });
      });

      it('starts on the new model once DENSE_MODEL names it, and refuses the old one', async () => {
        const refused = await service.restartDense({ DENSE_MODEL: 'builtin' }).then(
          () => '',
          (error: unknown) => (error as Error).message,
        );
        expect(refused).toMatch(/the vectors searches read were made by onnx:tiny-bi-encoder@[0-9a-f]{12} \(8 dimensions\)/);
        await service.restartDense({ DENSE_MODEL: ONNX });
        const search = await denseSearch('middle school teacher');
        expect(search).toMatchObject({ status: 'completed', model: expect.stringMatching(/^onnx:tiny-bi-encoder@/) });
        expect(search.first).toBeDefined();
      });
    },
  );
}

describe('dense models (standalone): a release that changes the builtin model reindexes by itself', () => {
  let service: StandaloneService;
  let client: ApiClient;

  afterAll(() => service?.destroy());

  it('reads the old version until its own reindex has made the new one, then switches', async () => {
    service = await StandaloneService.start();
    const { apiKey } = await createCompany(service, 'upgrade', 100_000);
    client = new ApiClient(service.baseUrl, apiKey);
    const ids: string[] = [];
    for (const [i, text] of Object.values(TEXT_CVS).entries())
      ids.push((await client.upload(Buffer.from(text), TEXT, { documentName: `cv-${i}`, documentDate: '01-2024' })).body.documentId);
    await client.waitForDocuments(ids);
    const current = await adminApi<{ active: { id: string } }>(service, 'GET', '/dense');
    const version = Number(/-v(\d+)$/.exec(current.active.id)![1]);
    expect(version).toBeGreaterThan(1);

    // As a data folder written by the release before: its vectors recorded as version 1's.
    await service.stop();
    const older = current.active.id.replace(/-v\d+$/, '-v1');
    const vectors = path.join(service.dataDir, 'vectors');
    await fs.rename(path.join(vectors, 'models', setFolderName(current.active.id)), path.join(vectors, 'models', setFolderName(older)));
    await fs.writeFile(path.join(vectors, 'active.json'), JSON.stringify({ id: older, dimensions: 100 }));
    await service.boot();

    const deadline = Date.now() + 120_000;
    type Dense = { active: { id: string }; latestReindex: { state: string } | null };
    let dense = await adminApi<Dense>(service, 'GET', '/dense');
    const seen = new Set<string>();
    while (dense.active.id !== current.active.id && Date.now() < deadline) {
      const created = await client.post('/v1/public/searches/dense', { query: 'chef' });
      const ended = await client.waitForSearch(created.body.searchId);
      expect(ended.status).toBe('completed');
      seen.add(((await client.get(`/v1/public/searches/${created.body.searchId}/results`)).body.metadata.denseModel as { id: string }).id);
      dense = await adminApi<Dense>(service, 'GET', '/dense');
    }
    expect(dense).toMatchObject({ active: { id: current.active.id }, next: null, latestReindex: { state: 'completed', switched: true } });
    expect(service.logs).toContain(`the builtin dense model changed (${older} -> ${current.active.id})`);
    // Every search before the switch read version 1's vectors by version 1.
    expect([...seen].every((id) => id === older || id === current.active.id)).toBe(true);
  });
});
