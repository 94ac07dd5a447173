import * as net from 'node:net';
import * as path from 'node:path';

export const ROOT = path.resolve(__dirname, '../..');
/** Word vectors are converted once and shared by every run (a cache, not test data). */
export const EMBEDDINGS_CACHE = path.join(ROOT, 'node_modules/.cache/candidate-search/embeddings');

/**
 * Ports handed to services under test come from below the kernel's ephemeral range (32768 and
 * up on Linux), so no outbound connection of a parallel suite can take one between this probe
 * and the service's bind; each Jest worker draws from its own thousand, from a random start, so
 * two suites running at once are not handed the same port.
 */
const PORTS_PER_WORKER = 1000;
const FIRST_PORT = 20_000;
const WORKER_SLICES = 12;
const worker = (Number(process.env.JEST_WORKER_ID ?? 1) - 1) % WORKER_SLICES;
let nextOffset = Math.floor(Math.random() * PORTS_PER_WORKER);

/** A port nothing listens on right now, for a service under test. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < PORTS_PER_WORKER; attempt++) {
    const port = FIRST_PORT + worker * PORTS_PER_WORKER + (nextOffset++ % PORTS_PER_WORKER);
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port among worker ${worker + 1}'s ${PORTS_PER_WORKER}`);
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
