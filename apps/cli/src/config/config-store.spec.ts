import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ConfigStore, writePrivateFile } from './config-store';

const modeOf = async (p: string) => (await fs.stat(p)).mode & 0o777;

describe('ConfigStore', () => {
  let root: string;
  beforeEach(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'cs-cli-config-'));
  });
  afterEach(() => fs.rm(root, { recursive: true, force: true }));

  it('stores the key in a 0600 file inside a 0700 folder it creates', async () => {
    const store = new ConfigStore(path.join(root, 'nested', 'candidate-search'));
    await store.write({ baseUrl: 'http://cs:8080', apiKey: 'csk_secret' });
    expect(store.file).toBe(path.join(root, 'nested', 'candidate-search', 'config.json'));
    expect(await modeOf(store.file)).toBe(0o600);
    expect(await modeOf(store.dir)).toBe(0o700);
    expect(await store.read()).toEqual({ baseUrl: 'http://cs:8080', apiKey: 'csk_secret' });
    expect(await store.readableByOthers()).toBe(false);
  });

  it('keeps 0600 and 0700 under a permissive umask, and tightens a folder that existed wider', async () => {
    const dir = path.join(root, 'candidate-search');
    await fs.mkdir(dir, { mode: 0o755 });
    await fs.chmod(dir, 0o755);
    const previous = process.umask(0o000);
    try {
      await new ConfigStore(dir).write({ baseUrl: 'http://a', apiKey: 'k' });
    } finally {
      process.umask(previous);
    }
    expect(await modeOf(path.join(dir, 'config.json'))).toBe(0o600);
    expect(await modeOf(dir)).toBe(0o700);
  });

  it('replaces a file whose mode was widened with a 0600 one, leaving no temporary file behind', async () => {
    const store = new ConfigStore(root);
    await store.write({ baseUrl: 'http://a', apiKey: 'old' });
    await fs.chmod(store.file, 0o644);
    expect(await store.readableByOthers()).toBe(true);
    await store.write({ baseUrl: 'http://a', apiKey: 'new' });
    expect(await modeOf(store.file)).toBe(0o600);
    expect(await fs.readdir(root)).toEqual(['config.json']);
    expect((await store.read())?.apiKey).toBe('new');
  });

  it('reads nothing before a login, and logout removes the file', async () => {
    const store = new ConfigStore(root);
    expect(await store.read()).toBeUndefined();
    expect(await store.remove()).toBe(false);
    await store.write({ baseUrl: 'http://a', apiKey: 'k' });
    expect(await store.remove()).toBe(true);
    expect(await store.read()).toBeUndefined();
  });

  it('names the file when it cannot read it', async () => {
    const store = new ConfigStore(root);
    await writePrivateFile(store.file, '{not json');
    await expect(store.read()).rejects.toThrow(`${store.file} is not valid JSON`);
    await writePrivateFile(store.file, '{"baseUrl":"http://a"}');
    await expect(store.read()).rejects.toThrow(/lacks baseUrl or apiKey/);
  });
});
