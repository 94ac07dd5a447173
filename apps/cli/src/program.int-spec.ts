import { promises as fs } from 'node:fs';
import { createServer } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCliPiped } from './testing/run-cli-piped';

describe('candidate-search against a closed port', () => {
  let configDir: string;
  beforeEach(async () => {
    configDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cs-cli-program-'));
  });
  afterEach(() => fs.rm(configDir, { recursive: true, force: true }));

  it('exits 6 when the service cannot be reached, naming its address', async () => {
    // A port that was free a moment ago: nothing listens there.
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    const { code, stderr } = await runCliPiped(
      ['documents', 'list', '--api-key', 'csk_k', '--base-url', `http://127.0.0.1:${port}`],
      configDir,
    );
    expect(code).toBe(6);
    expect(stderr).toContain(`cannot reach the service at http://127.0.0.1:${port}`);
  });
});
