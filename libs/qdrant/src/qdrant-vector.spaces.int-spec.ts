import { QdrantClient } from '@qdrant/js-client-rest';
import { describeVectorSpacesContract } from '@cs/ports/testing';
import { startContainer } from '@cs/test-services';
import { QdrantVectorSpaces } from './qdrant-vector.spaces';

let server: ReturnType<typeof startContainer> | undefined;
let base = '';
let n = 0;
describeVectorSpacesContract(
  'Qdrant (testcontainers)',
  async () => {
    server ??= startContainer('qdrant/qdrant:v1.13.6', 6333, { waitPath: '/readyz' });
    base = `spaces_${Date.now()}_${n++}`;
    return new QdrantVectorSpaces(new QdrantClient({ url: (await server).url }), base);
  },
  async () => new QdrantVectorSpaces(new QdrantClient({ url: (await server!).url }), base),
  ['docker'],
);
afterAll(async () => (await server)?.stop());
