import { QdrantClient } from '@qdrant/js-client-rest';
import { describeVectorIndexContract } from '@cs/ports/testing';
import { startContainer } from '@cs/test-services';
import { QdrantVectorIndex } from './qdrant-vector.index';

let server: ReturnType<typeof startContainer> | undefined;
let n = 0;
describeVectorIndexContract(
  'Qdrant (testcontainers)',
  async () => {
    server ??= startContainer('qdrant/qdrant:v1.13.6', 6333, { waitPath: '/readyz' });
    const qdrant = await server;
    return QdrantVectorIndex.open(new QdrantClient({ url: qdrant.url }), `contract_${Date.now()}_${n++}`, 3);
  },
  undefined,
  ['docker'],
);
afterAll(async () => (await server)?.stop());
