import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describeVectorSpacesContract } from '@cs/ports/testing';
import { EmbeddedVectorIndex } from './embedded-vector.index';
import { UNRECORDED_DENSE_MODEL } from '@cs/ports';
import { EmbeddedVectorSpaces } from './embedded-vector.spaces';

let dir = '';
describeVectorSpacesContract(
  'embedded',
  async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'vector-spaces-'));
    return EmbeddedVectorSpaces.open(dir);
  },
  () => EmbeddedVectorSpaces.open(dir),
);
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

/** A data folder as a release from before the record left it: one CV's vectors, logged directly in vectors/. */
async function writeUnrecordedStore(data: string): Promise<void> {
  const old = await EmbeddedVectorIndex.open(data, UNRECORDED_DENSE_MODEL.dimensions);
  const vector = new Float32Array(UNRECORDED_DENSE_MODEL.dimensions);
  vector[0] = 1;
  await old.upsert('c1', 'd1', [{ chunkIndex: -1, vector }]);
  await old.close();
}

describe('EmbeddedVectorSpaces', () => {
  it('adopts a store from before the record as the set of the model that made it', async () => {
    const data = await fs.mkdtemp(path.join(os.tmpdir(), 'vector-spaces-old-'));
    try {
      await writeUnrecordedStore(data);
      const spaces = await EmbeddedVectorSpaces.open(data);
      expect(await spaces.active()).toEqual(UNRECORDED_DENSE_MODEL);
      expect(await (await spaces.open(UNRECORDED_DENSE_MODEL)).count('c1')).toBe(1);
      await spaces.close();
      expect((await fs.readdir(path.join(data, 'vectors'))).sort()).toEqual(['active.json', 'models']);
    } finally {
      await fs.rm(data, { recursive: true, force: true });
    }
  });

  it('finishes an adoption a crash cut off: the record written, some files still to move', async () => {
    const data = await fs.mkdtemp(path.join(os.tmpdir(), 'vector-spaces-cut-'));
    try {
      await writeUnrecordedStore(data);
      // As a start that wrote the record and died before moving the files.
      await fs.writeFile(path.join(data, 'vectors', 'active.json'), JSON.stringify(UNRECORDED_DENSE_MODEL));
      const spaces = await EmbeddedVectorSpaces.open(data);
      expect(await spaces.active()).toEqual(UNRECORDED_DENSE_MODEL);
      expect(await (await spaces.open(UNRECORDED_DENSE_MODEL)).count('c1')).toBe(1);
      await spaces.close();
    } finally {
      await fs.rm(data, { recursive: true, force: true });
    }
  });

  it('says which file is unreadable when the record is damaged', async () => {
    const data = await fs.mkdtemp(path.join(os.tmpdir(), 'vector-spaces-bad-'));
    try {
      await fs.mkdir(path.join(data, 'vectors'));
      await fs.writeFile(path.join(data, 'vectors', 'active.json'), '{not json');
      const spaces = await EmbeddedVectorSpaces.open(data);
      await expect(spaces.active()).rejects.toThrow(/vectors\/active\.json is unreadable/);
    } finally {
      await fs.rm(data, { recursive: true, force: true });
    }
  });
});
