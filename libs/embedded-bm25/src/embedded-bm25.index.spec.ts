import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describeKeywordIndexContract } from '@cs/ports/testing';
import { EmbeddedBm25Index } from './embedded-bm25.index';

let dir = '';
describeKeywordIndexContract(
  'embedded BM25',
  async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bm25-'));
    return EmbeddedBm25Index.open(dir);
  },
  () => EmbeddedBm25Index.open(dir),
);
