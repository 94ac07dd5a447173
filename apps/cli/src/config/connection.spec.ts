import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ConfigStore } from './config-store';
import { resolveConnection } from './connection';

describe('resolveConnection', () => {
  let store: ConfigStore;
  const env = (values: { baseUrl?: string; apiKey?: string } = {}) => ({
    configDir: store.dir,
    baseUrl: values.baseUrl,
    apiKey: values.apiKey,
  });

  beforeEach(async () => {
    store = new ConfigStore(await fs.mkdtemp(path.join(os.tmpdir(), 'cs-cli-conn-')));
  });
  afterEach(() => fs.rm(store.dir, { recursive: true, force: true }));

  it('takes each of URL and key from its flag, else its environment variable, else the login', async () => {
    await store.write({ baseUrl: 'http://stored:1', apiKey: 'csk_stored' });
    expect(await resolveConnection({}, env(), store)).toEqual({ baseUrl: 'http://stored:1', apiKey: 'csk_stored', keySource: 'config' });
    expect(await resolveConnection({}, env({ apiKey: 'csk_env' }), store)).toMatchObject({
      apiKey: 'csk_env',
      keySource: 'CANDIDATE_SEARCH_API_KEY',
    });
    expect(await resolveConnection({ apiKey: 'csk_flag' }, env({ apiKey: 'csk_env' }), store)).toMatchObject({ apiKey: 'csk_flag' });
    expect(await resolveConnection({ apiKey: 'k' }, env({ baseUrl: 'http://env:2/' }), store)).toMatchObject({ baseUrl: 'http://env:2' });
    expect(await resolveConnection({ apiKey: 'k', baseUrl: 'https://flag:3' }, env({ baseUrl: 'http://env:2' }), store)).toMatchObject({
      baseUrl: 'https://flag:3',
    });
  });

  it('defaults to the standalone service on localhost:8080', async () => {
    expect((await resolveConnection({ apiKey: 'k' }, env(), store)).baseUrl).toBe('http://localhost:8080');
  });

  it('never sends the stored key to another service than the one it was checked against', async () => {
    await store.write({ baseUrl: 'http://stored:1', apiKey: 'csk_stored' });
    await expect(resolveConnection({ baseUrl: 'http://other:9' }, env(), store)).rejects.toMatchObject({
      exitCode: 3,
      message: 'no API key for http://other:9 (the stored key is for http://stored:1)',
      hint: expect.stringContaining('candidate-search login --base-url http://other:9'),
    });
  });

  it('says how to give a key when there is none (exit 3), and refuses a base URL that is not http(s) (exit 2)', async () => {
    await expect(resolveConnection({}, env(), store)).rejects.toMatchObject({ exitCode: 3, hint: expect.stringContaining('login') });
    await expect(resolveConnection({ apiKey: 'k', baseUrl: 'localhost:8080' }, env(), store)).rejects.toMatchObject({ exitCode: 2 });
    await expect(resolveConnection({ apiKey: 'k', baseUrl: 'not a url' }, env(), store)).rejects.toMatchObject({ exitCode: 2 });
  });
});
