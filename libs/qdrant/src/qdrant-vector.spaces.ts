import { UNRECORDED_DENSE_MODEL, type DenseModel, type VectorIndex, type VectorSpaces } from '@cs/ports';
import { QdrantVectorIndex, type QdrantApi } from './qdrant-vector.index';

/** The alias and collection calls the spaces make, as the Qdrant REST client offers them. */
export interface QdrantSpacesApi extends QdrantApi {
  getAliases(): Promise<{ aliases: { alias_name: string; collection_name: string }[] }>;
  getCollections(): Promise<{ collections: { name: string }[] }>;
  getCollection(name: string): Promise<{ config: { params: { vectors?: unknown } }; payload_schema?: Record<string, unknown> }>;
  updateCollectionAliases(body: { actions: Record<string, unknown>[] }): Promise<unknown>;
  deleteCollection(name: string): Promise<unknown>;
}

const SEPARATOR = '--';
const ACTIVE = 'active';

/**
 * The cluster's vector sets: each model's in a collection `<base>--<model id, base64url>` (so the
 * name says which model made its vectors), and the alias `<base>--active` on the one searches
 * read, moved in one call when a reindex ends; every dense replica resolves it, so all of them
 * switch together. A collection named `<base>` itself holds vectors from before the record
 * (UNRECORDED_DENSE_MODEL's): it keeps its name, so that replicas still writing to it during a
 * switch write to it and to nothing else, and goes with the other old sets after the grace.
 */
export class QdrantVectorSpaces implements VectorSpaces {
  private readonly opened = new Map<string, Promise<QdrantVectorIndex>>();

  constructor(
    private readonly api: QdrantSpacesApi,
    private readonly base: string,
  ) {}

  private get alias(): string {
    return `${this.base}${SEPARATOR}${ACTIVE}`;
  }

  async active(): Promise<DenseModel | null> {
    const { aliases } = await this.api.getAliases();
    const alias = aliases.find((a) => a.alias_name === this.alias);
    if (!alias) return (await this.api.collectionExists(this.base)).exists ? UNRECORDED_DENSE_MODEL : null;
    if (alias.collection_name === this.base) return UNRECORDED_DENSE_MODEL;
    const id = this.modelIdOf(alias.collection_name);
    if (id === null) throw new Error(`the alias ${this.alias} names ${alias.collection_name}, which is no collection of a dense model`);
    const info = await this.api.getCollection(alias.collection_name);
    return { id, dimensions: vectorSize(info.config.params.vectors, alias.collection_name) };
  }

  open(model: DenseModel): Promise<VectorIndex> {
    let index = this.opened.get(model.id);
    if (!index) {
      index = this.collectionOf(model).then((name) => QdrantVectorIndex.open(this.api, name, model.dimensions));
      this.opened.set(model.id, index);
      index.catch(() => this.opened.delete(model.id));
    }
    return index;
  }

  async activate(model: DenseModel): Promise<void> {
    if (!this.opened.has(model.id)) throw new Error(`the vector set of ${model.id} is not open`);
    // Qdrant applies the actions in order, under one lock; deleting an alias that is not there is no error.
    await this.api.updateCollectionAliases({
      actions: [
        { delete_alias: { alias_name: this.alias } },
        { create_alias: { collection_name: await this.collectionOf(model), alias_name: this.alias } },
      ],
    });
  }

  async removeAllBut(model: DenseModel): Promise<void> {
    const target = await this.collectionOf(model);
    for (const id of [...this.opened.keys()]) if (id !== model.id) this.opened.delete(id);
    const { collections } = await this.api.getCollections();
    for (const { name } of collections) {
      if (name !== target && (name === this.base || this.modelIdOf(name) !== null)) await this.api.deleteCollection(name);
    }
  }

  close(): Promise<void> {
    this.opened.clear();
    return Promise.resolve();
  }

  /** The collection of a model's set; the unrecorded model's is `<base>` while that collection exists. */
  private async collectionOf(model: DenseModel): Promise<string> {
    if (model.id === UNRECORDED_DENSE_MODEL.id && (await this.api.collectionExists(this.base)).exists) return this.base;
    return `${this.base}${SEPARATOR}${Buffer.from(model.id).toString('base64url')}`;
  }

  /** The model id a collection of these spaces is named after; null for any other collection (a backup, another deployment's). */
  private modelIdOf(collection: string): string | null {
    const prefix = `${this.base}${SEPARATOR}`;
    if (!collection.startsWith(prefix)) return null;
    const encoded = collection.slice(prefix.length);
    const id = Buffer.from(encoded, 'base64url').toString();
    return Buffer.from(id).toString('base64url') === encoded && /^(builtin|onnx|http):\S+$/.test(id) ? id : null;
  }
}

function vectorSize(vectors: unknown, collection: string): number {
  const size = (vectors as { size?: unknown } | undefined)?.size;
  if (typeof size !== 'number') throw new Error(`collection ${collection} has no single vector size`);
  return size;
}
