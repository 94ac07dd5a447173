import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { setFolderName, type DenseModel, type VectorIndex, type VectorSpaces } from '@cs/ports';
import { LanceDbVectorIndex, type LanceDbVectorIndexOptions } from './lancedb-vector.index';

const RECORD = 'active.json';
const SETS = 'models';

/**
 * The LanceDB store's vector sets: each model's in `lancedb/vectors/models/<model>/`, and the
 * model searches read in `lancedb/vectors/active.json`, replaced atomically (written aside,
 * flushed, then renamed).
 */
export class LanceDbVectorSpaces implements VectorSpaces {
  private readonly opened = new Map<string, Promise<LanceDbVectorIndex>>();

  private constructor(
    private readonly root: string,
    private readonly options: LanceDbVectorIndexOptions,
  ) {}

  static async open(dataDir: string, options: LanceDbVectorIndexOptions = {}): Promise<LanceDbVectorSpaces> {
    const root = path.join(dataDir, 'lancedb', 'vectors');
    await fs.mkdir(path.join(root, SETS), { recursive: true });
    return new LanceDbVectorSpaces(root, options);
  }

  async active(): Promise<DenseModel | null> {
    try {
      const record = JSON.parse(await fs.readFile(path.join(this.root, RECORD), 'utf8')) as DenseModel;
      return { id: record.id, dimensions: record.dimensions };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw new Error(`${path.join(this.root, RECORD)} is unreadable: ${(error as Error).message}`);
    }
  }

  open(model: DenseModel): Promise<VectorIndex> {
    let index = this.opened.get(model.id);
    if (!index) {
      index = LanceDbVectorIndex.open(this.folderOf(model.id), model.dimensions, this.options);
      this.opened.set(model.id, index);
      index.catch(() => this.opened.delete(model.id));
    }
    return index;
  }

  async activate(model: DenseModel): Promise<void> {
    if (!this.opened.has(model.id)) throw new Error(`the vector set of ${model.id} is not open`);
    const record = path.join(this.root, RECORD);
    const aside = `${record}.tmp`;
    const file = await fs.open(aside, 'w');
    try {
      await file.writeFile(JSON.stringify({ id: model.id, dimensions: model.dimensions }));
      await file.sync();
    } finally {
      await file.close();
    }
    await fs.rename(aside, record);
  }

  async removeAllBut(model: DenseModel): Promise<void> {
    for (const [id, index] of [...this.opened]) {
      if (id === model.id) continue;
      this.opened.delete(id);
      await (await index).close();
    }
    const keep = setFolderName(model.id);
    for (const entry of await fs.readdir(path.join(this.root, SETS))) {
      if (entry !== keep) await fs.rm(path.join(this.root, SETS, entry), { recursive: true, force: true });
    }
  }

  async close(): Promise<void> {
    const indexes = [...this.opened.values()];
    this.opened.clear();
    for (const index of indexes) await (await index).close();
  }

  private folderOf(modelId: string): string {
    return path.join(this.root, SETS, setFolderName(modelId));
  }
}
