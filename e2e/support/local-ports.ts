import * as net from 'node:net';
import * as path from 'node:path';

export const ROOT = path.resolve(__dirname, '../..');
/** Word vectors are converted once and shared by every run (a cache, not test data). */
export const EMBEDDINGS_CACHE = path.join(ROOT, 'node_modules/.cache/candidate-search/embeddings');

/** A port nothing listens on right now, for a service under test. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
