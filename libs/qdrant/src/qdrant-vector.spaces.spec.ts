import { UNRECORDED_DENSE_MODEL } from '@cs/ports';
import { QdrantVectorSpaces, type QdrantSpacesApi } from './qdrant-vector.spaces';

/** A Qdrant of collections and aliases only (points are the contract suite's business), recording changes. */
function aliasApi(collections: string[], initialAliases: Record<string, string> = {}) {
  const names = new Set(collections);
  const aliases = new Map(Object.entries(initialAliases));
  const calls: unknown[] = [];
  const api = {
    collectionExists: async (name: string) => ({ exists: names.has(name) }),
    createCollection: async (name: string) => {
      names.add(name);
      calls.push(['createCollection', name]);
    },
    createPayloadIndex: async () => ({}),
    getAliases: async () => ({
      aliases: [...aliases].map(([alias_name, collection_name]) => ({ alias_name, collection_name })),
    }),
    getCollections: async () => ({ collections: [...names].map((name) => ({ name })) }),
    getCollection: async () => ({ config: { params: { vectors: { size: 384, distance: 'Cosine' } } } }),
    updateCollectionAliases: async ({ actions }: { actions: Record<string, { alias_name: string; collection_name?: string }>[] }) => {
      calls.push(['updateCollectionAliases', actions]);
      for (const action of actions) {
        if (action.delete_alias) aliases.delete(action.delete_alias.alias_name);
        if (action.create_alias) aliases.set(action.create_alias.alias_name, action.create_alias.collection_name!);
      }
    },
    deleteCollection: async (name: string) => {
      names.delete(name);
      calls.push(['deleteCollection', name]);
    },
  } as unknown as QdrantSpacesApi;
  return { api, calls, names, aliases };
}

const MINILM = { id: 'onnx:all-MiniLM-L6-v2@3f2a9c1b7d0e', dimensions: 384 };
const MINILM_COLLECTION = `cs_chunks--${Buffer.from(MINILM.id).toString('base64url')}`;

describe('QdrantVectorSpaces', () => {
  it('reads the model searches use from the alias, named in its collection', async () => {
    const { api } = aliasApi([MINILM_COLLECTION], { 'cs_chunks--active': MINILM_COLLECTION });
    expect(await new QdrantVectorSpaces(api, 'cs_chunks').active()).toEqual(MINILM);
  });

  it('knows a store without the alias as empty, or as the unrecorded model when the old collection is there', async () => {
    expect(await new QdrantVectorSpaces(aliasApi([]).api, 'cs_chunks').active()).toBeNull();
    expect(await new QdrantVectorSpaces(aliasApi(['cs_chunks']).api, 'cs_chunks').active()).toEqual(UNRECORDED_DENSE_MODEL);
  });

  it('moves the alias in one call, and removes the old sets (the unrecorded collection too) only when asked', async () => {
    const { api, calls, names, aliases } = aliasApi(['cs_chunks', 'unrelated', 'cs_chunks--backup']);
    const spaces = new QdrantVectorSpaces(api, 'cs_chunks');
    await spaces.open(UNRECORDED_DENSE_MODEL);
    await spaces.open(MINILM);
    await spaces.activate(MINILM);
    expect(calls).toEqual([
      ['createCollection', MINILM_COLLECTION],
      [
        'updateCollectionAliases',
        [
          { delete_alias: { alias_name: 'cs_chunks--active' } },
          { create_alias: { collection_name: MINILM_COLLECTION, alias_name: 'cs_chunks--active' } },
        ],
      ],
    ]);
    // Replicas that have not seen the switch still write to the old collection, and only to it.
    expect(names.has('cs_chunks')).toBe(true);
    await spaces.removeAllBut(MINILM);
    expect(calls.at(-1)).toEqual(['deleteCollection', 'cs_chunks']);
    // Collections whose names only look like a set's (a backup) are not the spaces' to remove.
    expect([...names].sort()).toEqual(['cs_chunks--backup', MINILM_COLLECTION, 'unrelated'].sort());
    expect(Object.fromEntries(aliases)).toEqual({ 'cs_chunks--active': MINILM_COLLECTION });
  });

  it('records the unrecorded set as active by the alias on its collection', async () => {
    const { api } = aliasApi(['cs_chunks'], { 'cs_chunks--active': 'cs_chunks' });
    expect(await new QdrantVectorSpaces(api, 'cs_chunks').active()).toEqual(UNRECORDED_DENSE_MODEL);
  });

  it('refuses to activate a set never opened', async () => {
    await expect(new QdrantVectorSpaces(aliasApi([]).api, 'cs_chunks').activate(MINILM)).rejects.toThrow(/not open/);
  });
});
