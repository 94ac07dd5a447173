import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';

// In a process of its own, so that its heap can be bounded below the log's size.
describe('AppendLog in a small heap', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'append-log-'));
  });
  afterEach(() => fs.rm(dir, { recursive: true, force: true }));

  it('opens a log larger than the heap of the process that reads it', async () => {
    const file = path.join(dir, 'log.jsonl');
    const line = `${JSON.stringify({ v: 'x'.repeat(4000) })}\n`;
    const out = await fs.open(file, 'w');
    for (let i = 0; i < 30; i++) await out.appendFile(line.repeat(1000)); // 120 MB
    await out.close();
    const script = `require('./append-log').AppendLog.open(${JSON.stringify(file)}, () => undefined).then((log) => console.log(log.size))`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--max-old-space-size=48', '-r', '@swc-node/register', '-e', script], {
      cwd: __dirname,
    });
    expect(stdout.trim()).toBe('30000');
  }, 60_000);
});
