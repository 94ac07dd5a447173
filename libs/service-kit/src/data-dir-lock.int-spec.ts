import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DataDirInUseError, claimDataDir } from './data-dir-lock';

describe('claimDataDir', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cs-lock-'));
  });
  afterEach(() => fs.rm(dir, { recursive: true, force: true }));

  it('holds the folder until released, then lets the next process have it', async () => {
    const release = await claimDataDir(dir);
    expect((await fs.readFile(path.join(dir, 'process.pid'), 'utf8')).trim()).toBe(String(process.pid));
    release();
    await expect(fs.access(path.join(dir, 'process.pid'))).rejects.toThrow();
    (await claimDataDir(dir))();
  });

  it('refuses while a live process holds it, naming it and what to do', async () => {
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      await fs.writeFile(path.join(dir, 'process.pid'), `${other.pid}\n`);
      const refusal = await claimDataDir(dir).catch((e: unknown) => e);
      expect(refusal).toBeInstanceOf(DataDirInUseError);
      expect((refusal as Error).message).toMatch(
        new RegExp(`another process \\(pid ${other.pid}\\) is using DATA_DIR=.*stop it, or give this one another DATA_DIR`),
      );
    } finally {
      other.kill('SIGKILL');
    }
  });

  it('takes over at once from a process that is gone (a crash left its file)', async () => {
    const gone = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => gone.once('exit', resolve));
    await fs.writeFile(path.join(dir, 'process.pid'), `${gone.pid}\n`);
    const release = await claimDataDir(dir);
    expect((await fs.readFile(path.join(dir, 'process.pid'), 'utf8')).trim()).toBe(String(process.pid));
    release();
  });
});
