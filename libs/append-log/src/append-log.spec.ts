import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AppendLog } from './append-log';

describe('AppendLog', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'append-log-'));
  });
  afterEach(() => fs.rm(dir, { recursive: true, force: true }));

  it('replays what was appended, in order, after a reopen', async () => {
    const file = path.join(dir, 'log.jsonl');
    const log = await AppendLog.open<{ n: number }>(file, () => undefined);
    await Promise.all([1, 2, 3].map((n) => log.append({ n })));
    await log.close();
    const seen: number[] = [];
    const again = await AppendLog.open<{ n: number }>(file, (r) => seen.push(r.n));
    expect(seen).toEqual([1, 2, 3]);
    expect(again.size).toBe(3);
    await again.close();
  });

  it('skips a torn last line and keeps the rest', async () => {
    const file = path.join(dir, 'log.jsonl');
    await fs.writeFile(file, '{"n":1}\n{"n":2}\n{"n":');
    const seen: number[] = [];
    const log = await AppendLog.open<{ n: number }>(file, (r) => seen.push(r.n));
    expect(seen).toEqual([1, 2]);
    await log.close();
  });

  it('keeps the records appended after a torn line', async () => {
    const file = path.join(dir, 'log.jsonl');
    await fs.writeFile(file, '{"n":1}\n{"n":');
    const log = await AppendLog.open<{ n: number }>(file, () => undefined);
    await log.append({ n: 2 });
    await log.close();
    const seen: number[] = [];
    await (await AppendLog.open<{ n: number }>(file, (r) => seen.push(r.n))).close();
    expect(seen).toEqual([1, 2]);
  });

  it('compacts to exactly the given records', async () => {
    const file = path.join(dir, 'log.jsonl');
    const log = await AppendLog.open<{ n: number }>(file, () => undefined);
    for (let n = 0; n < 5; n++) await log.append({ n });
    await log.rewrite([{ n: 9 }]);
    await log.append({ n: 10 });
    await log.close();
    const seen: number[] = [];
    await (await AppendLog.open<{ n: number }>(file, (r) => seen.push(r.n))).close();
    expect(seen).toEqual([9, 10]);
  });

  describe('snapshots', () => {
    /** A log of the numbers 1..3 whose owner saved its memory (their sum) at close. */
    async function logWithSnapshot(file: string): Promise<void> {
      const log = await AppendLog.open<{ n: number }>(file, () => undefined, { layout: 1, restore: () => undefined });
      for (const n of [1, 2, 3]) await log.append({ n });
      await log.saveSnapshot({ sum: 6 });
      await log.close();
    }

    /** Opens the log with a snapshot-aware owner: what it restored, and what it replayed after. */
    async function reopen(file: string, restore: (memory: { sum: number }) => void = () => undefined, layout = 1) {
      const restored: number[] = [];
      const replayed: number[] = [];
      const log = await AppendLog.open<{ n: number }, { sum: number }>(file, (r) => replayed.push(r.n), {
        layout,
        restore: (memory) => {
          restore(memory);
          restored.push(memory.sum);
        },
      });
      return { log, restored, replayed };
    }

    it('restores the snapshot and replays only the records appended after it', async () => {
      const file = path.join(dir, 'log.jsonl');
      await logWithSnapshot(file);
      const first = await reopen(file);
      expect(first.restored).toEqual([6]);
      expect(first.replayed).toEqual([]);
      await first.log.append({ n: 4 });
      await first.log.close();
      const second = await reopen(file);
      expect(second.restored).toEqual([6]);
      expect(second.replayed).toEqual([4]);
      expect(second.log.size).toBe(4);
      await second.log.close();
    });

    it('keeps typed arrays of every kind and size, large ones as views of the bytes read', async () => {
      const file = path.join(dir, 'log.jsonl');
      const log = await AppendLog.open<{ n: number }>(file, () => undefined, { layout: 1, restore: () => undefined });
      await log.append({ n: 1 });
      const memory = {
        name: 'company',
        ids: ['a', null, 'b'],
        small: new Uint16Array([1, 2, 3]),
        odd: new Uint8Array(1001).fill(7), // leaves the next section misaligned unless padded
        words: Uint16Array.from({ length: 5000 }, (_, i) => i),
        codes: Int8Array.from({ length: 3000 }, (_, i) => (i % 256) - 128),
        keys: BigUint64Array.from({ length: 300 }, (_, i) => BigInt(i) << 40n),
        matrix: Float32Array.from({ length: 2000 }, (_, i) => i / 7),
        nested: [['x', { postings: Uint32Array.from({ length: 700 }, (_, i) => i * 3) }]],
        next: 12n,
      };
      await log.saveSnapshot(memory);
      await log.close();
      let restored: typeof memory | undefined;
      await (
        await AppendLog.open<{ n: number }, typeof memory>(file, () => undefined, { layout: 1, restore: (m) => (restored = m) })
      ).close();
      expect(restored).toEqual(memory);
      const views = [restored?.words, restored?.keys, restored?.matrix, restored?.nested[0][1]];
      const buffers = new Set(views.map((v) => (v as { postings?: Uint32Array }).postings?.buffer ?? (v as Uint16Array).buffer));
      expect(buffers.size).toBe(1); // one read of the file, no copies
    });

    it('replays the whole log when the snapshot is damaged, unreadable or of another layout, or its owner cannot restore it', async () => {
      const file = path.join(dir, 'log.jsonl');
      await logWithSnapshot(file);
      const refused = await reopen(file, () => {
        throw new Error('unknown format');
      });
      expect(refused.replayed).toEqual([1, 2, 3]);
      await refused.log.close();
      const otherLayout = await reopen(file, undefined, 2);
      expect(otherLayout.restored).toEqual([]);
      expect(otherLayout.replayed).toEqual([1, 2, 3]);
      await otherLayout.log.close();
      const bytes = await fs.readFile(`${file}.snapshot`);
      bytes[bytes.length - 1] ^= 0xff; // the body no longer matches its checksum
      await fs.writeFile(`${file}.snapshot`, bytes);
      const damaged = await reopen(file);
      expect(damaged.restored).toEqual([]);
      expect(damaged.replayed).toEqual([1, 2, 3]);
      await damaged.log.close();
      await fs.rm(`${file}.snapshot`);
      await fs.mkdir(`${file}.snapshot`); // unreadable as a file
      const unreadable = await reopen(file);
      expect(unreadable.replayed).toEqual([1, 2, 3]);
      await unreadable.log.close();
    });

    it('ignores a snapshot of another log, or of a log since compacted', async () => {
      const file = path.join(dir, 'log.jsonl');
      await logWithSnapshot(file);
      await fs.writeFile(file, '{"n":7}\n{"n":8}\n{"n":9}\n'); // as long as the covered log, other records
      const other = await reopen(file);
      expect(other.restored).toEqual([]);
      expect(other.replayed).toEqual([7, 8, 9]);
      await other.log.close();

      await logWithSnapshot(path.join(dir, 'b.jsonl'));
      const log = await AppendLog.open<{ n: number }>(path.join(dir, 'b.jsonl'), () => undefined, { layout: 1, restore: () => undefined });
      await log.rewrite([{ n: 6 }]);
      await log.close();
      const compacted = await reopen(path.join(dir, 'b.jsonl'));
      expect(compacted.restored).toEqual([]);
      expect(compacted.replayed).toEqual([6]);
      await compacted.log.close();
    });
  });
});
