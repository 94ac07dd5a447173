import * as path from 'node:path';
import { jetstream } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { natsNames } from '@cs/nats';
import { openPglite } from '@cs/pglite';
import { eventually, testEnvironment } from '@cs/test-services';
import { ClusterServices } from '../support/cluster-services';
import { adminCli } from '../support/fixtures';
import { clusterAvailable } from '../support/service-under-test';
import { StandaloneService } from '../support/standalone-service';

jest.setTimeout(480_000); // a restart, three 60 s polls and some twenty admin CLI calls, on a loaded machine

interface Letter {
  queue: string;
  id: string;
  jobId: string;
  reason: string;
  deliveries: number;
  deadAt: string;
  payload: unknown;
}

/** One mode's service, and a way to put a job its consumer refuses into its ingestion queue. */
interface Setup {
  baseUrl: string;
  adminToken: string;
  /** Jobs with these ids and a payload the ingestion schema refuses, which the consumer dead-letters. */
  publishBadJobs: (ids: string[]) => Promise<void>;
  destroy: () => Promise<void>;
}

/**
 * A dead letter made the way the service makes them: the ingestion consumer refuses a payload its
 * kind does not accept (a job a foreign or older publisher sent), without retrying, with the reason.
 * No API route yields one (the handlers record failures on the document and acknowledge), so each
 * mode gets the bad job into its queue from outside:
 * - standalone: the queue is a table of the in-process PGlite, so the service is stopped, the row
 *   written into its data folder, and the service started again (it then claims the row);
 * - cluster: published straight to the job stream with the NATS client.
 */
const BAD_PAYLOAD = { documentId: 'not-a-uuid' };

async function standalone(): Promise<Setup> {
  const service = await StandaloneService.start();
  return {
    baseUrl: service.baseUrl,
    adminToken: service.adminToken,
    publishBadJobs: async (ids) => {
      await service.stop();
      const sql = await openPglite(path.join(service.dataDir, 'pg'));
      try {
        for (const id of ids) await sql.query(`INSERT INTO jobs (id, kind, payload) VALUES ($1, 'ingestion', $2)`, [id, BAD_PAYLOAD]);
      } finally {
        await sql.close();
      }
      await service.boot();
    },
    destroy: () => service.destroy(),
  };
}

async function cluster(): Promise<Setup> {
  const services = (await ClusterServices.start({}, ['gateway', 'ingestion']))!;
  return {
    baseUrl: services.baseUrl,
    adminToken: services.adminToken,
    publishBadJobs: async (ids) => {
      const nc = await connect({ servers: testEnvironment().natsUrl! });
      try {
        const subject = natsNames(services.natsPrefix).subject('ingestion');
        for (const id of ids) await jetstream(nc).publish(subject, JSON.stringify(BAD_PAYLOAD), { msgID: `ingestion:${id}` });
      } finally {
        await nc.drain();
      }
    },
    destroy: () => services.destroy(),
  };
}

const modes: [string, () => Promise<Setup>, boolean][] = [
  ['standalone (embedded queue)', standalone, true],
  ['cluster (NATS JetStream)', cluster, clusterAvailable],
];

describe.each(modes)('dead letters through the admin CLI: %s', (_, start, available) => {
  const maybe = available ? it : it.skip;
  let setup: Setup;
  const admin = (...args: string[]) => adminCli(args, { ADMIN_URL: setup.baseUrl, ADMIN_TOKEN: setup.adminToken });
  /** A CLI call that must succeed: its JSON answer. */
  const ok = (...args: string[]): unknown => {
    const { status, stdout, stderr } = admin(...args);
    expect({ status, stderr }).toEqual({ status: 0, stderr: expect.any(String) }); // stderr shown if it fails
    return JSON.parse(stdout);
  };
  const list = (...args: string[]) => ok('dead-letters', 'list', ...args) as { data: Letter[]; next: string | null };
  /** The ingestion letters, once they are the jobs `ids` given up on at or after `since` (ISO time). */
  const lettersOf = (ids: string[], since = '') =>
    eventually(
      async () => {
        const letters = list('--queue', 'ingestion').data;
        expect(letters.map((l) => l.jobId).sort()).toEqual([...ids].sort());
        for (const letter of letters) expect(letter.deadAt > since).toBe(true);
        return letters;
      },
      { timeoutMs: 60_000, intervalMs: 500 },
    );

  beforeAll(async () => {
    if (available) setup = await start();
  });
  afterAll(async () => {
    await setup?.destroy();
  });

  maybe('lists, shows, replays and purges what the consumer gave up on', async () => {
    const ids = ['dead-letters-e2e-1', 'dead-letters-e2e-2'];
    await setup.publishBadJobs(ids);
    const letters = await lettersOf(ids);
    for (const letter of letters) {
      expect(letter).toEqual({
        queue: 'ingestion',
        id: expect.any(String),
        jobId: expect.stringMatching(/^dead-letters-e2e-/),
        reason: expect.stringMatching(/^invalid ingestion job payload: documentId: /),
        deliveries: 1, // refused at once, not retried
        deadAt: expect.any(String),
        payload: BAD_PAYLOAD,
      });
    }
    expect(list('--queue', 'search').data).toEqual([]);

    // A page at a time.
    const first = list('--limit', '1');
    expect(first.data).toHaveLength(1);
    const second = list('--limit', '1', '--after', first.next!);
    expect(second.data).toHaveLength(1);
    expect([...first.data, ...second.data].map((l) => l.id).sort()).toEqual(letters.map((l) => l.id).sort());

    const [one] = letters;
    expect(ok('dead-letters', 'show', 'ingestion', one.id)).toEqual(one);
    const wrongQueue = admin('dead-letters', 'show', 'search', one.id);
    expect(wrongQueue.status).toBe(1);
    expect(wrongQueue.stderr).toMatch(/HTTP 404: dead letter not found/);
    const badQueue = admin('dead-letters', 'show', 'nope', one.id);
    expect(badQueue.status).toBe(1);
    expect(badQueue.stderr).toMatch(/must be one of search, ingestion/);

    // Replayed, the job is delivered again: its payload is still refused, so it comes back with a later time.
    expect(ok('dead-letters', 'replay', 'ingestion', one.id)).toEqual({ queue: 'ingestion', id: one.id, replayed: 1 });
    const afterOne = await eventually(
      async () => {
        const again = list('--queue', 'ingestion').data.find((l) => l.jobId === one.jobId);
        expect((again?.deadAt ?? '') > one.deadAt).toBe(true);
        return again!;
      },
      { timeoutMs: 60_000, intervalMs: 500 },
    );
    expect(afterOne.deliveries).toBe(1); // from its first delivery again

    const both = admin('dead-letters', 'replay', 'ingestion', one.id, '--all');
    expect(both.status).toBe(1);
    expect(both.stderr).toMatch(/a letter id or --all/);
    const latest = list('--queue', 'ingestion')
      .data.map((l) => l.deadAt)
      .sort()[1];
    expect(ok('dead-letters', 'replay', 'ingestion', '--all')).toEqual({ queue: 'ingestion', replayed: 2 });
    const replayed = await lettersOf(ids, latest);

    // Purge: one by id (a second time 404), then the rest, which takes --yes.
    expect(ok('dead-letters', 'purge', 'ingestion', replayed[0].id)).toEqual({ queue: 'ingestion', id: replayed[0].id, purged: 1 });
    const again = admin('dead-letters', 'purge', 'ingestion', replayed[0].id);
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/HTTP 404/);
    const unconfirmed = admin('dead-letters', 'purge', 'ingestion');
    expect(unconfirmed.status).toBe(1);
    expect(unconfirmed.stderr).toMatch(/needs --yes/);
    expect(list().data).toHaveLength(1);
    expect(ok('dead-letters', 'purge', 'ingestion', '--yes')).toEqual({ queue: 'ingestion', purged: 1 });
    expect(list().data).toEqual([]);
  });

  maybe('answers a bad queue, limit, cursor or id with a 400, and an unknown letter with a 404', async () => {
    const answer = async (method: string, path: string) => {
      const response = await fetch(`${setup.baseUrl}/admin/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${setup.adminToken}` },
      });
      return { status: response.status, body: (await response.json()) as { error: string; message: string } };
    };
    expect(await answer('GET', '/dead-letters?queue=nope')).toMatchObject({
      status: 400,
      body: { error: 'invalid_request', message: 'queue must be one of search, ingestion' },
    });
    expect(await answer('GET', '/dead-letters?limit=101')).toMatchObject({
      status: 400,
      body: { message: 'limit must be an integer between 1 and 100' },
    });
    expect(await answer('GET', `/dead-letters?after=${'x'.repeat(201)}`)).toMatchObject({ status: 400 });
    expect(await answer('GET', '/dead-letters?kind=search')).toMatchObject({
      status: 400,
      body: { message: expect.stringMatching(/unknown query parameter "kind"/) },
    });
    expect(await answer('POST', '/dead-letters/nope/replay')).toMatchObject({ status: 400 });
    expect(await answer('DELETE', '/dead-letters/search/%20')).toMatchObject({ status: 400 });
    expect(await answer('GET', '/dead-letters/search/12345')).toMatchObject({
      status: 404,
      body: { error: 'not_found', message: 'dead letter not found' },
    });
    expect(await answer('POST', '/dead-letters/search/12345/replay')).toMatchObject({ status: 404 });
    expect(await answer('POST', '/dead-letters/search/replay')).toMatchObject({ status: 200, body: { queue: 'search', replayed: 0 } });
    expect((await fetch(`${setup.baseUrl}/admin/v1/dead-letters`)).status).toBe(401);
  });
});
