import { randomUUID } from 'node:crypto';
import { connect } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { describeJobQueueContract } from '@cs/ports/testing';
import { describeWith, eventually, runPrefix, testEnvironment, waitFor } from '@cs/test-services';
import { NatsJobQueue, deleteTopology, natsNames } from './nats-job.queue';

// Heartbeats come every third of the ack wait: 2 s lets a loaded machine stall the event loop over a second.
const options = { maxDeliveries: 3, backoffMs: [50], ackWaitMs: 2000, shutdownGraceMs: 300 };
const withNats = describeWith(['nats']);
const natsUrl = () => testEnvironment().natsUrl!;

/** Messages in the dead-letter stream: what a poll reads until there are some. */
const deadLetterCount = async (jsm: JetStreamManager, stream: string) => (await jsm.streams.info(stream)).state.messages;

describeJobQueueContract(
  'NATS JetStream',
  async () => {
    const servers = natsUrl();
    const prefix = runPrefix();
    const queue = await NatsJobQueue.open({ servers, prefix, ...options });
    const names = natsNames(prefix);
    const nc = await connect({ servers });
    const jsm = await jetstreamManager(nc);
    return {
      queue,
      crash: () => queue.abandon(),
      reopen: () => NatsJobQueue.open({ servers, prefix, ...options }),
      deadLetters: async (kind) => {
        const { state } = await jsm.streams.info(names.deadLetterStream);
        const reasons: string[] = [];
        for (let seq = state.first_seq; state.messages > 0 && seq <= state.last_seq; seq++) {
          const stored = await jsm.streams.getMessage(names.deadLetterStream, { seq }).catch(() => null);
          if (stored?.subject === names.deadLetterSubject(kind)) reasons.push(stored.header.get('Cs-Dead-Reason'));
        }
        return reasons;
      },
      publishRaw: async (kind, id, payload) => {
        await jetstream(nc).publish(names.subject(kind), JSON.stringify(payload), { msgID: `${kind}:${id}` });
      },
      cleanup: async () => {
        await nc.drain();
        await deleteTopology(servers, prefix);
      },
      ackWaitMs: options.ackWaitMs,
    };
  },
  ['nats'],
);

withNats('NATS JetStream topology', () => {
  it('creates streams and durable consumers idempotently, and dead-letters poison jobs', async () => {
    const servers = natsUrl();
    const prefix = runPrefix();
    const first = await NatsJobQueue.open({ servers, prefix, ...options });
    const second = await NatsJobQueue.open({ servers, prefix, ...options });
    const names = natsNames(prefix);
    const nc = await connect({ servers });
    try {
      const jsm = await jetstreamManager(nc);
      const consumer = await jsm.consumers.info(names.stream, names.consumer('search'));
      expect(consumer.config).toMatchObject({ durable_name: names.consumer('search'), ack_policy: 'explicit', max_deliver: 3 });
      expect((await jsm.streams.info(names.stream)).config.retention).toBe('workqueue');

      first.consume('search', 1, async () => ({ ack: false, retry: false, reason: 'cannot parse this job' }));
      await first.publish('search', 'poison', { searchId: randomUUID() });
      await eventually(async () => expect(await deadLetterCount(jsm, names.deadLetterStream)).toBe(1), {
        timeoutMs: 10_000,
        intervalMs: 50,
      });
      const stored = await jsm.streams.getMessage(names.deadLetterStream, { last_by_subj: names.deadLetterSubject('search') });
      expect(stored?.header.get('Cs-Dead-Reason')).toBe('cannot parse this job');
    } finally {
      await first.close();
      await second.close();
      await nc.drain();
      await deleteTopology(servers, prefix);
    }
  }, 30_000);
});

withNats('NATS JetStream dead letters', () => {
  it('dead-letters a job whose workers never acknowledged it in max deliveries, and frees the queue', async () => {
    const servers = natsUrl();
    const prefix = runPrefix();
    const queue = await NatsJobQueue.open({ servers, prefix, ...options });
    const names = natsNames(prefix);
    const nc = await connect({ servers });
    try {
      const jsm = await jetstreamManager(nc);
      const payload = { documentId: randomUUID() };
      await queue.publish('ingestion', 'stuck', payload);
      // A worker that takes the job and dies each time, without a word: what a crash loop does.
      const consumer = await jetstream(nc).consumers.get(names.stream, names.consumer('ingestion'));
      for (let delivery = 1; delivery <= options.maxDeliveries; delivery++) {
        const msg = await consumer.next({ expires: 5000 });
        expect(msg?.info.deliveryCount).toBe(delivery);
      }
      // Workers go on asking for work; the server, redelivering no more, says so in its advisory and the
      // job is dead-lettered. A fourth delivery, were there one, would answer one of these asks instead.
      let beyondMax: number | undefined;
      await waitFor(
        async () => {
          const msg = await consumer.next({ expires: 1000 }); // the least the client allows
          beyondMax ??= msg?.info.deliveryCount;
          return msg !== null || (await deadLetterCount(jsm, names.deadLetterStream)) > 0;
        },
        { timeoutMs: 15_000, intervalMs: 0, what: 'the job dead-lettered' },
      );
      expect(beyondMax).toBeUndefined();
      expect(await deadLetterCount(jsm, names.deadLetterStream)).toBe(1);
      const stored = await jsm.streams.getMessage(names.deadLetterStream, { last_by_subj: names.deadLetterSubject('ingestion') });
      expect(stored?.json()).toEqual(payload);
      expect(stored?.header.get('Cs-Dead-Reason')).toMatch(/never acknowledged in 3 deliveries/);
      expect((await jsm.streams.info(names.stream)).state.messages).toBe(0);
    } finally {
      await queue.close();
      await nc.drain();
      await deleteTopology(servers, prefix);
    }
  }, 30_000);
});
