/**
 * What the gazetteer costs: the time of its one load (both packages' data read into maps), the
 * heap it keeps after a full collection (and what it held just before), and lookups per second over a mix of place texts. A
 * process of its own, so the heap is the gazetteer's alone; `--expose-gc` makes the heap figure
 * exact (without it the figure includes garbage not yet collected).
 *
 *   node --expose-gc -r @swc-node/register bench/gazetteer-load.ts
 */
import { preloadGazetteer, resolvePlace } from '@cs/gazetteer';

const TEXTS = [
  'Austin, TX',
  'Bangalore, Karnataka, India',
  'London, UK',
  'New York, NY 10001',
  'Texas',
  'USA',
  'Zürich',
  'Springfield, Narnia',
];
const LOOKUPS = 100_000;

const collect = () => (globalThis as { gc?: () => void }).gc?.();
collect();
const before = process.memoryUsage();
const started = performance.now();
preloadGazetteer();
const loadMs = performance.now() - started;
// Before collecting: about the peak the load reached (the cities' objects and the linking's 8 MB list, then dropped).
const uncollected = process.memoryUsage().heapUsed;
collect();
const after = process.memoryUsage();
const timed = performance.now();
for (let i = 0; i < LOOKUPS; i++) resolvePlace(TEXTS[i % TEXTS.length]);
const lookupSeconds = (performance.now() - timed) / 1000;
process.stdout.write(
  `${JSON.stringify({
    loadMs: Math.round(loadMs),
    heapMb: +((after.heapUsed - before.heapUsed) / 1e6).toFixed(1),
    heapBeforeCollectionMb: +((uncollected - before.heapUsed) / 1e6).toFixed(1),
    rssMb: +((after.rss - before.rss) / 1e6).toFixed(1),
    lookupsPerSecond: Math.round(LOOKUPS / lookupSeconds),
    exactHeap: typeof (globalThis as { gc?: unknown }).gc === 'function',
  })}\n`,
);
