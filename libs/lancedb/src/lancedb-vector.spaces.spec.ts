import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describeVectorSpacesContract } from '@cs/ports/testing';
import { LanceDbVectorSpaces } from './lancedb-vector.spaces';

let dir = '';
describeVectorSpacesContract(
  'lancedb',
  async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'lance-vector-spaces-'));
    return LanceDbVectorSpaces.open(dir, { tables: { eraseEveryMs: 0 } });
  },
  () => LanceDbVectorSpaces.open(dir, { tables: { eraseEveryMs: 0 } }),
);
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

describe('LanceDbVectorSpaces', () => {
  it('keeps its sets and record under lancedb/vectors, and says which file is unreadable when the record is damaged', async () => {
    const data = await fs.mkdtemp(path.join(os.tmpdir(), 'lance-vector-spaces-bad-'));
    try {
      const spaces = await LanceDbVectorSpaces.open(data);
      const model = { id: 'builtin:test-3d-v1', dimensions: 3 };
      await spaces.open(model);
      await spaces.activate(model);
      await spaces.close();
      expect((await fs.readdir(path.join(data, 'lancedb', 'vectors'))).sort()).toEqual(['active.json', 'models']);
      await fs.writeFile(path.join(data, 'lancedb', 'vectors', 'active.json'), '{not json');
      await expect((await LanceDbVectorSpaces.open(data)).active()).rejects.toThrow(/lancedb\/vectors\/active\.json is unreadable/);
    } finally {
      await fs.rm(data, { recursive: true, force: true });
    }
  });
});
