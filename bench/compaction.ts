/**
 * What compaction costs: opens a stopped standalone's keyword index and active vector set (in
 * `--data`), rewrites each without its deleted CVs, as the store's own erasing pass does a minute
 * after a start and every 10 minutes (the log rewritten and a snapshot saved), and prints the
 * seconds each took and this process's peak RSS as JSON. `npm run bench` runs it in its `compaction` phase, after deleting a
 * tenth of the CVs through the API; a process of its own, so that its peak is compaction's alone.
 *
 *   node -r @swc-node/register bench/compaction.ts --data DIR
 */
import { promises as fs } from 'node:fs';
import { EmbeddedBm25Index } from '@cs/embedded-bm25';
import { EmbeddedVectorSpaces, type EmbeddedVectorIndex } from '@cs/embedded-vector';
import type { VectorSpaces } from '@cs/ports';
import { option } from './harness';

export interface CompactionReport {
  keywordSeconds: number;
  vectorSeconds: number;
  /** Peak RSS of the compacting process: opening the store, then both rewrites. */
  peakRssMb: number;
}

interface Compactable {
  compact(): Promise<void>;
  close(): Promise<void>;
}

async function timed(store: Compactable): Promise<number> {
  const started = performance.now();
  await store.compact();
  const seconds = (performance.now() - started) / 1000;
  await store.close();
  return seconds;
}

async function activeSet(spaces: VectorSpaces): Promise<Compactable> {
  const model = await spaces.active();
  if (!model) throw new Error('the data folder holds no active vector set');
  const index = (await spaces.open(model)) as EmbeddedVectorIndex;
  return { compact: () => index.compact(), close: () => spaces.close() };
}

async function main(): Promise<void> {
  const dataDir = option('data', '');
  if (!dataDir) throw new Error('--data names the stopped service’s data folder');
  // The first erasing pass of each is a minute away, so only the compaction measured runs.
  const report: Omit<CompactionReport, 'peakRssMb'> = {
    keywordSeconds: await timed(await EmbeddedBm25Index.open(dataDir)),
    vectorSeconds: await timed(await activeSet(await EmbeddedVectorSpaces.open(dataDir))),
  };
  const status = await fs.readFile('/proc/self/status', 'utf8');
  const peakRssMb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024;
  process.stdout.write(`${JSON.stringify({ ...report, peakRssMb })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`compaction: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
