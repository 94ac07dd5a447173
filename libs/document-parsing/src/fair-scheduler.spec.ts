import { FairScheduler } from './fair-scheduler';
import { ParseLimitError } from './parse-limits';
import { TextExtractor, workerFailure } from './text-extractor';

/** A task that finishes when told to, recording when it started. */
function controlled(log: string[], name: string) {
  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return {
    task: () => {
      log.push(name);
      return done.then(() => name);
    },
    finish: () => finish(),
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('FairScheduler', () => {
  it("starts another company's task at the first free slot, ahead of a company's queue", async () => {
    const scheduler = new FairScheduler(2);
    const started: string[] = [];
    const a = [1, 2, 3, 4].map((i) => controlled(started, `a${i}`));
    const b = controlled(started, 'b1');
    const runs = a.map((t) => scheduler.run('company-a', t.task));
    const bRun = scheduler.run('company-b', b.task);
    await tick();
    expect(started).toEqual(['a1', 'a2']);
    expect(scheduler.waiting).toBe(3);

    a[0].finish();
    await tick();
    expect(started).toEqual(['a1', 'a2', 'b1']);
    b.finish();
    expect(await bRun).toBe('b1');
    await tick();
    expect(started).toEqual(['a1', 'a2', 'b1', 'a3']);
    a.slice(1).forEach((t) => t.finish());
    expect(await Promise.all(runs)).toEqual(['a1', 'a2', 'a3', 'a4']);
  });

  it('takes turns between waiting companies, each in its own upload order', async () => {
    const scheduler = new FairScheduler(1);
    const started: string[] = [];
    const tasks = ['a1', 'a2', 'a3', 'b1', 'b2', 'c1'].map((name) => ({ name, ...controlled(started, name) }));
    const runs = tasks.map((t) => scheduler.run(t.name[0], t.task));
    for (const _task of tasks) {
      await tick();
      tasks.find((candidate) => candidate.name === started[started.length - 1])?.finish();
    }
    await Promise.all(runs);
    expect(started).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
  });

  it('lets a company alone use every slot', async () => {
    const scheduler = new FairScheduler(3);
    const started: string[] = [];
    const tasks = [1, 2, 3, 4].map((i) => controlled(started, `a${i}`));
    const runs = tasks.map((t) => scheduler.run('a', t.task));
    await tick();
    expect(started).toEqual(['a1', 'a2', 'a3']);
    tasks.forEach((t) => t.finish());
    await Promise.all(runs);
  });

  it('frees the slot of a task that fails, and passes the failure on', async () => {
    const scheduler = new FairScheduler(1);
    await expect(scheduler.run('a', () => Promise.reject(new Error('bad file')))).rejects.toThrow('bad file');
    await expect(
      scheduler.run('a', () => {
        throw new Error('thrown at once');
      }),
    ).rejects.toThrow('thrown at once');
    expect(await scheduler.run('b', async () => 'next')).toBe('next');
  });
});

describe('TextExtractor', () => {
  it('reads files on the calling thread when it has no workers, company by company', async () => {
    const extractor = new TextExtractor(0);
    const text = 'Jane Doe, accountant: month-end close, reconciliations and audits for ten years.';
    expect(await extractor.extract(Buffer.from(text), 'text/plain', 'company-a')).toBe(text);
    await extractor.close();
  });

  it('takes a worker out of memory or out of time for a file past a bound, and nothing else', () => {
    const outOfMemory = Object.assign(new Error('Worker terminated due to reaching memory limit: JS heap out of memory'), {
      code: 'ERR_WORKER_OUT_OF_MEMORY',
    });
    expect(workerFailure(outOfMemory)).toEqual(
      new ParseLimitError('memory', 'The file needed too much memory to read; a CV needs far less'),
    );
    expect(workerFailure(outOfMemory)).toMatchObject({ limit: 'memory' });
    expect(workerFailure(Object.assign(new Error('The task has been aborted'), { name: 'AbortError' }))).toMatchObject({
      limit: 'time',
      message: expect.stringMatching(/took more than 60 s/),
    });
    const other = workerFailure(new Error('worker exited with code 1'));
    expect(other).not.toBeInstanceOf(ParseLimitError);
    expect(other.message).toBe('worker exited with code 1');
  });
});
