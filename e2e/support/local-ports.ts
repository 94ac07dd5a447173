import * as net from 'node:net';
import * as path from 'node:path';

export const ROOT = path.resolve(__dirname, '../..');
/** Word vectors are converted once and shared by every run (a cache, not test data). */
export const EMBEDDINGS_CACHE = path.join(ROOT, 'node_modules/.cache/candidate-search/embeddings');

/**
 * Ports handed to services under test come from below the kernel's ephemeral range (32768 and
 * up on Linux), so no outbound connection of a parallel suite can take one between this probe
 * and the service's bind; each Jest worker draws from its own slice, from a random start, so two
 * suites running at once are not handed the same port. Outside Jest (benchmarks, scripts) the
 * kernel picks one from the ephemeral range, as before.
 */
const FIRST_PORT = 20_000;
const WORKER_SLICES = 24;
const PORTS_PER_WORKER = 500;
const jestWorker = process.env.JEST_WORKER_ID === undefined ? null : (Number(process.env.JEST_WORKER_ID) - 1) % WORKER_SLICES;
let nextOffset = Math.floor(Math.random() * PORTS_PER_WORKER);

/** A port nothing listens on right now, for a service under test. */
export async function freePort(): Promise<number> {
  return jestWorker === null ? kernelPort() : freePortRun(1);
}

/** The first of `count` consecutive ports nothing listens on, from this Jest worker's slice. */
export async function freePortRun(count: number): Promise<number> {
  const slice = FIRST_PORT + (jestWorker ?? 0) * PORTS_PER_WORKER;
  for (let attempt = 0; attempt < PORTS_PER_WORKER; attempt++) {
    if (nextOffset + count > PORTS_PER_WORKER) nextOffset = 0;
    const base = slice + nextOffset;
    nextOffset += count;
    const free = await Promise.all(Array.from({ length: count }, (_, i) => canListen(base + i)));
    if (free.every(Boolean)) return base;
  }
  throw new Error(`no ${count} free consecutive ports among ${slice} to ${slice + PORTS_PER_WORKER - 1}`);
}

/** Probed on every IPv4 address, since the gRPC services bind 0.0.0.0. */
function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '0.0.0.0', () => server.close(() => resolve(true)));
  });
}

function kernelPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
