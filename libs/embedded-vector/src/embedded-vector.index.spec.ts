import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describeVectorIndexContract } from '@cs/ports/testing';
import { EmbeddedVectorIndex } from './embedded-vector.index';

let dir = '';
describeVectorIndexContract(
  'embedded',
  async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'vectors-'));
    return EmbeddedVectorIndex.open(dir, 3);
  },
  () => EmbeddedVectorIndex.open(dir, 3),
);
afterAll(() => fs.rm(dir, { recursive: true, force: true }));
