import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadConfig } from '@cs/config';
import { consoleConnectSources, readConsoleDir } from './console-files';

describe('the console’s built files', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'cs-console-files-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads a built folder’s page, script, style sheet and icon, and nothing else in it', () => {
    for (const name of ['index.html', 'console-AB12CD34.js', 'console-EF56GH78.css', 'icon-0123abcd.svg', 'notes.txt', '.env'])
      writeFileSync(path.join(dir, name), name);
    const files = readConsoleDir(dir);
    expect([...files.keys()].sort()).toEqual(['console-AB12CD34.js', 'console-EF56GH78.css', 'icon-0123abcd.svg', 'index.html']);
    expect(Buffer.from(files.get('index.html')!).toString()).toBe('index.html');
  });

  it('refuses a folder that is not a console build, so a wrong CONSOLE_DIR stops the start', () => {
    writeFileSync(path.join(dir, 'console.js'), '');
    expect(() => readConsoleDir(dir)).toThrow(/holds no index\.html: build it with npm run build/);
    expect(() => readConsoleDir(path.join(dir, 'missing'))).toThrow(/ENOENT/);
  });

  it('lets the page PUT presigned uploads to S3’s public endpoint only when uploads go there', () => {
    expect(consoleConnectSources(loadConfig({}))).toEqual([]);
    const s3 = { S3_ENDPOINT: 'http://minio:9000', S3_ACCESS_KEY: 'a', S3_SECRET_KEY: 'b' };
    expect(consoleConnectSources(loadConfig(s3))).toEqual(['http://minio:9000']);
    expect(consoleConnectSources(loadConfig({ ...s3, S3_PUBLIC_ENDPOINT: 'https://files.example.com' }))).toEqual([
      'https://files.example.com',
    ]);
  });
});
