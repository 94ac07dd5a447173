import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
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

  it('opens a log larger than the heap of the process that reads it', async () => {
    const file = path.join(dir, 'log.jsonl');
    const line = `${JSON.stringify({ v: 'x'.repeat(4000) })}\n`;
    const out = await fs.open(file, 'w');
    for (let i = 0; i < 30; i++) await out.appendFile(line.repeat(1000)); // 120 MB
    await out.close();
    const script = `require('./append-log').AppendLog.open(${JSON.stringify(file)}, () => undefined).then((log) => console.log(log.size))`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--max-old-space-size=48', '-r', '@swc-node/register', '-e', script], { cwd: __dirname });
    expect(stdout.trim()).toBe('30000');
  }, 60_000);

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
});
