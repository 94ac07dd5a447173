import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { UNRECORDED_DENSE_MODEL, setFolderName, type DenseModel, type VectorIndex, type VectorSpaces } from '@cs/ports';
import { DEFAULT_ANN_THRESHOLD, EmbeddedVectorIndex } from './embedded-vector.index';

const RECORD = 'active.json';
const SETS = 'models';

/**
 * The standalone store's vector sets: each model's in `vectors/models/<model>/`, and the model
 * searches read in `vectors/active.json`, replaced atomically (written aside, then renamed).
 * Vectors from before the record (a log directly in `vectors/`) are moved into the set of
 * UNRECORDED_DENSE_MODEL at first open.
 */
export class EmbeddedVectorSpaces implements VectorSpaces {
  private readonly opened = new Map<string, { model: DenseModel; index: Promise<EmbeddedVectorIndex> }>();

  private constructor(
    private readonly root: string,
    private readonly annThreshold: number,
  ) {}

  static async open(dataDir: string, annThreshold = DEFAULT_ANN_THRESHOLD): Promise<EmbeddedVectorSpaces> {
    const spaces = new EmbeddedVectorSpaces(path.join(dataDir, 'vectors'), annThreshold);
    await spaces.adoptUnrecorded();
    return spaces;
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
    let set = this.opened.get(model.id);
    if (!set) {
      const index = EmbeddedVectorIndex.openFolder(this.folderOf(model.id), model.dimensions, this.annThreshold);
      set = { model, index };
      this.opened.set(model.id, set);
      index.catch(() => this.opened.delete(model.id));
    }
    return set.index;
  }

  async activate(model: DenseModel): Promise<void> {
    if (!this.opened.has(model.id)) throw new Error(`the vector set of ${model.id} is not open`);
    await this.record(model);
  }

  /** Writes the record aside, flushed, then renames it into place: a crash leaves the old one or the new one whole. */
  private async record(model: DenseModel): Promise<void> {
    await fs.mkdir(this.root, { recursive: true });
    const record = path.join(this.root, RECORD);
    const file = await fs.open(`${record}.tmp`, 'w');
    try {
      await file.writeFile(JSON.stringify({ id: model.id, dimensions: model.dimensions }));
      await file.sync();
    } finally {
      await file.close();
    }
    await fs.rename(`${record}.tmp`, record);
  }

  async removeAllBut(model: DenseModel): Promise<void> {
    for (const [id, set] of [...this.opened]) {
      if (id === model.id) continue;
      this.opened.delete(id);
      await (await set.index).close();
    }
    const keep = setFolderName(model.id);
    for (const entry of await fs.readdir(path.join(this.root, SETS))) {
      if (entry !== keep) await fs.rm(path.join(this.root, SETS, entry), { recursive: true, force: true });
    }
  }

  async close(): Promise<void> {
    const sets = [...this.opened.values()];
    this.opened.clear();
    for (const set of sets) await (await set.index).close();
  }

  private folderOf(modelId: string): string {
    return path.join(this.root, SETS, setFolderName(modelId));
  }

  /**
   * A store from before the record: the record names UNRECORDED_DENSE_MODEL first, then its files
   * move into that model's set. A start cut off midway finds the record and moves the rest.
   */
  private async adoptUnrecorded(): Promise<void> {
    const entries = await fs.readdir(this.root, { withFileTypes: true }).catch(() => []);
    const loose = entries.filter((e) => e.isFile() && e.name !== RECORD && !e.name.startsWith(`${RECORD}.`));
    if (loose.length === 0) return;
    const recorded = await this.active();
    if (recorded === null) await this.record(UNRECORDED_DENSE_MODEL);
    else if (recorded.id !== UNRECORDED_DENSE_MODEL.id) throw new Error(`${this.root} holds vector files outside any model's set`);
    const folder = this.folderOf(UNRECORDED_DENSE_MODEL.id);
    await fs.mkdir(folder, { recursive: true });
    for (const file of loose) await fs.rename(path.join(this.root, file.name), path.join(folder, file.name));
  }
}
