import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { eventually } from '@cs/test-services';
import { LoggedIndex, type LoggedMemory } from './logged-index';

type Record = { op: 'put' | 'del'; key: string };

/** A set of keys as an index's memory, with what the lifecycle asked of it. */
class Keys implements LoggedMemory<Record, string[], boolean> {
  keys = new Set<string>();
  replayed = 0;
  restored = false;
  ready = jest.fn();
  saved = jest.fn(async () => undefined);
  apply(record: Record, replaying: boolean): boolean {
    if (replaying) this.replayed++;
    return record.op === 'put' ? (this.keys.add(record.key), true) : this.keys.delete(record.key);
  }
  restore(snapshot: string[]): void {
    this.keys = new Set(snapshot);
    this.restored = true;
  }
  liveRecords(): number {
    return this.keys.size;
  }
  *records(): Generator<Record> {
    for (const key of this.keys) yield { op: 'put', key };
  }
  snapshot(): string[] {
    return [...this.keys];
  }
}

const fileIn = async () => path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'logged-')), 'index.jsonl');

describe('LoggedIndex', () => {
  it('logs then applies each write, and opens again from the snapshot saved at close and the records after it', async () => {
    const file = await fileIn();
    const first = new Keys();
    const index = await LoggedIndex.open(file, 1, first, 'test index');
    expect(first.ready).toHaveBeenCalledTimes(1);
    expect(await index.write({ op: 'put', key: 'a' })).toBe(true);
    expect(await index.write({ op: 'del', key: 'missing' })).toBe(false);
    await index.close();
    expect(first.saved).toHaveBeenCalledWith(['a']);
    await expect(index.write({ op: 'put', key: 'b' })).rejects.toThrow('test index is closed');
    await fs.appendFile(file, `${JSON.stringify({ op: 'put', key: 'c' })}\n`); // logged after the snapshot

    const second = new Keys();
    await (await LoggedIndex.open(file, 1, second, 'test index')).close();
    expect([second.restored, second.replayed, [...second.keys]]).toEqual([true, 1, ['a', 'c']]);
    // Another layout's snapshot is ignored: the whole log replays.
    const third = new Keys();
    await (await LoggedIndex.open(file, 2, third, 'test index')).close();
    expect([third.restored, [...third.keys].sort()]).toEqual([false, ['a', 'c']]);
  });

  it('compacts at open once superseded records outnumber live ones two to one (and a thousand)', async () => {
    const file = await fileIn();
    const put = JSON.stringify({ op: 'put', key: 'k' });
    await fs.writeFile(file, `${put}\n`.repeat(1002));
    await (await LoggedIndex.open(file, 1, new Keys(), 'test index')).close();
    expect(await fs.readFile(file, 'utf8')).toBe(`${put}\n`.repeat(1002));
    await fs.appendFile(file, `${put}\n`);
    await (await LoggedIndex.open(file, 1, new Keys(), 'test index')).close();
    expect(await fs.readFile(file, 'utf8')).toBe(`${put}\n`);
  });

  it('compacts on demand: writes in flight go in first, and writes made meanwhile wait and are kept', async () => {
    const file = await fileIn();
    const index = await LoggedIndex.open(file, 1, new Keys(), 'test index');
    for (const key of ['a', 'b', 'c']) await index.write({ op: 'put', key });
    await index.write({ op: 'del', key: 'b' });
    const inFlight = index.write({ op: 'put', key: 'd' });
    const compacting = index.compact();
    const meanwhile = index.write({ op: 'del', key: 'a' });
    await Promise.all([inFlight, compacting, meanwhile]);
    const lines = (await fs.readFile(file, 'utf8')).trim().split('\n');
    expect(lines).toEqual(['a', 'c', 'd'].map((key) => JSON.stringify({ op: 'put', key })).concat(JSON.stringify({ op: 'del', key: 'a' })));
    await index.close();
    const reopened = new Keys();
    await (await LoggedIndex.open(file, 1, reopened, 'test index')).close();
    expect([...reopened.keys].sort()).toEqual(['c', 'd']);
  });

  it('erases superseded records while open, soon after opening, and saves a snapshot with it', async () => {
    const file = await fileIn();
    // Logged before the open that is tested: written after it, they might come after its first pass.
    const before = await LoggedIndex.open(file, 1, new Keys(), 'test index', { firstAfterMs: 3_600_000, everyMs: 3_600_000 });
    await before.write({ op: 'put', key: 'kept' });
    await before.write({ op: 'put', key: 'gone' });
    await before.write({ op: 'del', key: 'gone' });
    await before.close();
    const memory = new Keys();
    const index = await LoggedIndex.open(file, 1, memory, 'test index', { firstAfterMs: 50, everyMs: 3_600_000 });
    // The snapshot is saved after the rewrite, so both are waited for; a loaded machine may take seconds.
    await eventually(
      async () => {
        expect(memory.saved).toHaveBeenCalledWith(['kept']);
        expect((await fs.readFile(file, 'utf8')).trim().split('\n')).toEqual([JSON.stringify({ op: 'put', key: 'kept' })]);
      },
      { timeoutMs: 20_000, intervalMs: 20 },
    );
    await fs.appendFile(file, `${JSON.stringify({ op: 'put', key: 'after' })}\n`); // as if logged after, then a crash
    const reopened = new Keys();
    await (await LoggedIndex.open(file, 1, reopened, 'test index')).close();
    expect([reopened.restored, reopened.replayed, [...reopened.keys].sort()]).toEqual([true, 1, ['after', 'kept']]);
    await index.close();
  }, 30_000);

  it('takes its snapshot only after the writes in flight are in memory', async () => {
    const memory = new Keys();
    const index = await LoggedIndex.open(await fileIn(), 1, memory, 'test index');
    const writes = ['a', 'b', 'c'].map((key) => index.write({ op: 'put', key }));
    await index.close();
    await Promise.all(writes);
    expect(memory.saved).toHaveBeenCalledWith(['a', 'b', 'c']);
  });

  it('saves no snapshot when memory gives none', async () => {
    const file = await fileIn();
    const memory = Object.assign(new Keys(), { snapshot: () => null });
    const index = await LoggedIndex.open(file, 1, memory, 'test index');
    await index.write({ op: 'put', key: 'a' });
    await index.close();
    await expect(fs.stat(`${file}.snapshot`)).rejects.toThrow();
  });
});
