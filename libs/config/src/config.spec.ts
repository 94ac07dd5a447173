import * as os from 'node:os';
import * as path from 'node:path';
import { ConfigError, ENV_SCHEMA, loadCliEnvironment, loadConfig, requireClusterSettings } from './config';

describe('loadConfig', () => {
  it('applies the documented defaults to an empty environment', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(config.publicBaseUrl).toBe('http://localhost:8080');
    expect(config.uploadFromUrlAllowPrivateNetworks).toBe(false);
    expect(config.reranker).toEqual({ provider: 'local' });
    expect(config.crossEncoder).toBeUndefined();
  });

  it('keeps several CVs in flight for each parse worker, unless told otherwise', () => {
    expect(loadConfig({ PARSE_WORKERS: '1' })).toMatchObject({ parseWorkers: 1, ingestionConcurrency: 6 });
    expect(loadConfig({ PARSE_WORKERS: '3' })).toMatchObject({ parseWorkers: 3, ingestionConcurrency: 12 });
    expect(loadConfig({ PARSE_WORKERS: '0' })).toMatchObject({ parseWorkers: 0, ingestionConcurrency: 6 });
    expect(loadConfig({ PARSE_WORKERS: '3', INGESTION_CONCURRENCY: '2' })).toMatchObject({ ingestionConcurrency: 2 });
  });

  it('parses on a worker a core, from one to four', () => {
    const cores = os.cpus().length;
    expect(loadConfig({}).parseWorkers).toBe(Math.max(1, Math.min(4, cores)));
  });

  it('lists every bad key at once', () => {
    try {
      loadConfig({ PORT: 'eighty', LOG_LEVEL: 'loud', UPLOAD_FROM_URL_ALLOW_PRIVATE_NETWORKS: 'maybe' });
      fail('expected a ConfigError');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const problems = (error as ConfigError).problems.join('\n');
      expect(problems).toContain('PORT');
      expect(problems).toContain('LOG_LEVEL');
      expect(problems).toContain('UPLOAD_FROM_URL_ALLOW_PRIVATE_NETWORKS');
    }
  });

  it('reads the webhooks schedule and retention as durations, and refuses one without a unit', () => {
    expect(loadConfig({}).webhooks).toEqual({
      allowPrivateNetworks: false,
      retryDelaysMs: [5000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 10_800_000],
      retryForMs: 86_400_000,
      timeoutMs: 10_000,
      pollMs: 1000,
      concurrency: 8,
      retentionMs: 604_800_000,
    });
    expect(loadConfig({ WEBHOOKS_RETRY_SCHEDULE: '250ms,2s', WEBHOOKS_RETRY_FOR: '90m', WEBHOOKS_RETENTION: '1d' }).webhooks).toMatchObject(
      {
        retryDelaysMs: [250, 2000],
        retryForMs: 5_400_000,
        retentionMs: 86_400_000,
      },
    );
    expect(() => loadConfig({ WEBHOOKS_RETRY_SCHEDULE: '5,30s', WEBHOOKS_RETRY_FOR: 'a day' })).toThrow(
      /WEBHOOKS_RETRY_SCHEDULE[\s\S]*WEBHOOKS_RETRY_FOR/,
    );
  });

  it('reads the ranking choices as shipped unless RANKING_TUNING changes some, and names what it refuses', () => {
    const shipped = loadConfig({}).rankingTuning;
    expect(shipped).toMatchObject({ typoRepair: true, inducedWords: 3, hybridDenseShare: 0.5 });
    const changed = loadConfig({ RANKING_TUNING: '{"typoRepair":false,"inducedWords":0}' }).rankingTuning;
    expect(changed).toEqual({ ...shipped, typoRepair: false, inducedWords: 0 });
    expect(() => loadConfig({ RANKING_TUNING: '{typoRepair' })).toThrow(/RANKING_TUNING.*not JSON/);
    expect(() => loadConfig({ RANKING_TUNING: '{"hybridDenseShare":-1}' })).toThrow(/RANKING_TUNING/);
    expect(() => loadConfig({ RANKING_TUNING: '{"spellcheck":false}' })).toThrow(/RANKING_TUNING.*spellcheck/);
  });

  it('requires a URL for the cohere reranker', () => {
    expect(() => loadConfig({ RERANKER_PROVIDER: 'cohere' })).toThrow(/RERANKER_URL/);
  });

  it('lists every setting a hosted dense model lacks, naming DENSE_MODEL, and needs no model name for TEI', () => {
    try {
      loadConfig({ DENSE_MODEL: 'http:openai' });
      fail('expected a ConfigError');
    } catch (error) {
      expect((error as ConfigError).problems).toEqual([
        'DENSE_API_URL: required when DENSE_MODEL=http:openai',
        "DENSE_API_DIMENSIONS: required when DENSE_MODEL=http:openai (the model's vector length)",
        'DENSE_API_MODEL: required when DENSE_MODEL=http:openai',
      ]);
    }
    expect(() => loadConfig({ DENSE_MODEL: 'http:tei', DENSE_API_URL: 'http://tei:8080' })).toThrow(
      /^(?![\s\S]*DENSE_API_MODEL)[\s\S]*DENSE_API_DIMENSIONS/,
    );
    expect(() => loadConfig({ DENSE_MODEL: 'http:gemini' })).toThrow(/DENSE_MODEL/);
  });

  it('reads a hosted dense model with its defaults, the URL without its trailing slash', () => {
    const env = {
      DENSE_MODEL: 'http:cohere',
      DENSE_API_URL: 'https://api.cohere.com/',
      DENSE_API_MODEL: 'embed-english-v3.0',
      DENSE_API_DIMENSIONS: '1024',
    };
    expect(loadConfig({ ...env, DENSE_API_KEY: 'co-key' }).denseModel).toEqual({
      kind: 'http',
      spec: 'http:cohere',
      provider: 'cohere',
      url: 'https://api.cohere.com',
      apiKey: 'co-key',
      model: 'embed-english-v3.0',
      dimensions: 1024,
      queryPrefix: undefined,
      passagePrefix: undefined,
      batchSize: 32,
      timeoutMs: 10_000,
      attempts: 4,
    });
    expect(() => loadConfig({ ...env, DENSE_API_DIMENSIONS: '0', DENSE_API_ATTEMPTS: '11' })).toThrow(
      /DENSE_API_DIMENSIONS[\s\S]*DENSE_API_ATTEMPTS/,
    );
  });

  it('times gRPC calls, Qdrant and Elasticsearch each by its own setting, the stores by GRPC_TIMEOUT_MS when theirs is unset', () => {
    const stores = { QDRANT_URL: 'http://qdrant:6333', ELASTICSEARCH_URL: 'http://es:9200' };
    const inherited = loadConfig({ ...stores, GRPC_TIMEOUT_MS: '15000' }).cluster;
    expect([inherited.grpcTimeoutMs, inherited.qdrant?.timeoutMs, inherited.elasticsearch?.timeoutMs]).toEqual([15000, 15000, 15000]);
    const own = loadConfig({ ...stores, QDRANT_TIMEOUT_MS: '3000', ELASTICSEARCH_TIMEOUT_MS: '20000' }).cluster;
    expect([own.grpcTimeoutMs, own.qdrant?.timeoutMs, own.elasticsearch?.timeoutMs]).toEqual([10000, 3000, 20000]);
  });

  it('takes a cross-encoder folder only when it holds a model', () => {
    expect(() => loadConfig({ RERANKER_ONNX_MODEL_DIR: '/nowhere' })).toThrow(/RERANKER_ONNX_MODEL_DIR: no model.onnx in \/nowhere/);
    const folder = path.join(__dirname, '../../onnx-reranker/src/testing/tiny-cross-encoder');
    expect(loadConfig({ RERANKER_ONNX_MODEL_DIR: folder, RERANKER_ONNX_TOP_N: '20' }).crossEncoder).toEqual({
      modelDir: path.resolve(folder),
      topN: 20,
      maxTokens: 256,
    });
  });

  it('reads DENSE_MODEL=onnx:<folder> as an absolute folder with the ONNX settings, an empty prefix as unset, and refuses a folder that is not there', () => {
    const folder = path.join(__dirname, '../../onnx-encoder/src/testing/tiny-bi-encoder');
    const relative = path.relative(process.cwd(), folder);
    expect(
      loadConfig({ DENSE_MODEL: `onnx:${relative}`, DENSE_QUERY_PREFIX: '', DENSE_PASSAGE_PREFIX: 'passage: ', DENSE_ONNX_THREADS: '2' })
        .denseModel,
    ).toEqual({
      kind: 'onnx',
      spec: `onnx:${relative}`,
      modelDir: path.resolve(folder),
      // Empty is unset, as for every setting: the folder's prompt then applies.
      queryPrefix: undefined,
      passagePrefix: 'passage: ',
      maxTokens: 256,
      batchSize: 32,
      threads: 2,
    });
    expect(() => loadConfig({ DENSE_MODEL: 'onnx:/nowhere' })).toThrow(/DENSE_MODEL: no folder \/nowhere/);
  });

  it('describes every setting it reads in its schema, from which the configuration page is generated', () => {
    const undescribed = Object.entries(ENV_SCHEMA.shape)
      .filter(([, schema]) => {
        const meta = schema.meta() ?? {};
        return !meta.deprecated && (typeof meta.group !== 'string' || typeof meta.description !== 'string');
      })
      .map(([name]) => name);
    expect(undescribed).toEqual([]);
  });

  it('reads TRUST_PROXY as a hop count or a list of proxies, and refuses anything else', () => {
    expect(loadConfig({}).trustProxy).toBe('loopback');
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: 'loopback, uniquelocal, 10.0.0.0/8' }).trustProxy).toBe('loopback, uniquelocal, 10.0.0.0/8');
    expect(() => loadConfig({ TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY/);
  });

  it('signs presigned S3 URLs for S3_PUBLIC_ENDPOINT, else for S3_ENDPOINT', () => {
    const s3 = { S3_ENDPOINT: 'http://minio.cs.svc:9000', S3_ACCESS_KEY: 'k', S3_SECRET_KEY: 's' };
    expect(loadConfig(s3).cluster.s3).toMatchObject({
      endPoint: 'minio.cs.svc',
      port: 9000,
      useSSL: false,
      publicEndpoint: { endPoint: 'minio.cs.svc', port: 9000, useSSL: false },
    });
    expect(loadConfig({ ...s3, S3_PUBLIC_ENDPOINT: 'https://files.example.com' }).cluster.s3).toMatchObject({
      endPoint: 'minio.cs.svc',
      publicEndpoint: { endPoint: 'files.example.com', port: undefined, useSSL: true },
    });
    expect(() => loadConfig({ S3_PUBLIC_ENDPOINT: 'https://files.example.com' })).toThrow('S3_PUBLIC_ENDPOINT: only with S3_ENDPOINT');
    expect(() => loadConfig({ ...s3, S3_PUBLIC_ENDPOINT: 'https://example.com/s3' })).toThrow(
      'S3_PUBLIC_ENDPOINT: a scheme, host and port only',
    );
  });
});

describe('requireClusterSettings', () => {
  const cluster = { DATABASE_URL: 'postgres://db/cs', NATS_URL: 'nats://nats:4222', REDIS_URL: 'redis://redis:6379' };
  const gateway = ['databaseUrl', 'natsUrl', 'redisUrl', 'adminToken', 'presignSecret'] as const;

  it('refuses a cluster gateway without ADMIN_TOKEN and PRESIGN_SECRET, naming both (no replica may make up its own)', () => {
    let error: unknown;
    try {
      requireClusterSettings(loadConfig(cluster), 'gateway', [...gateway]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      expect.stringMatching(/^ADMIN_TOKEN: required by the gateway service/),
      expect.stringMatching(/^PRESIGN_SECRET: required by the gateway service/),
    ]);
    expect(() => requireClusterSettings(loadConfig({ ...cluster, ADMIN_TOKEN: 'a'.repeat(32) }), 'gateway', [...gateway])).toThrow(
      /PRESIGN_SECRET/,
    );
  });

  it('lets a cluster gateway start with both secrets', () => {
    const config = loadConfig({ ...cluster, ADMIN_TOKEN: 'a'.repeat(32), PRESIGN_SECRET: 'p'.repeat(32) });
    expect(() => requireClusterSettings(config, 'gateway', [...gateway])).not.toThrow();
  });

  it('lists the missing stores and secrets together', () => {
    expect(() => requireClusterSettings(loadConfig({}), 'gateway', [...gateway])).toThrow(
      /DATABASE_URL[^]*NATS_URL[^]*REDIS_URL[^]*ADMIN_TOKEN[^]*PRESIGN_SECRET/,
    );
  });
});

describe('loadCliEnvironment', () => {
  it('keeps its folder under XDG_CONFIG_HOME on every platform, when that is an absolute path', () => {
    expect(loadCliEnvironment({ XDG_CONFIG_HOME: '/x/conf' }, 'linux', '/home/ann').configDir).toBe('/x/conf/candidate-search');
    expect(loadCliEnvironment({ XDG_CONFIG_HOME: '/x/conf' }, 'darwin', '/Users/ann').configDir).toBe('/x/conf/candidate-search');
    expect(loadCliEnvironment({ XDG_CONFIG_HOME: 'relative' }, 'linux', '/home/ann').configDir).toBe('/home/ann/.config/candidate-search');
  });

  it("uses each platform's usual place otherwise", () => {
    expect(loadCliEnvironment({}, 'linux', '/home/ann').configDir).toBe('/home/ann/.config/candidate-search');
    expect(loadCliEnvironment({}, 'darwin', '/Users/ann').configDir).toBe('/Users/ann/Library/Application Support/candidate-search');
    expect(loadCliEnvironment({ APPDATA: 'C:\\Users\\ann\\AppData\\Roaming' }, 'win32', 'C:\\Users\\ann').configDir).toBe(
      'C:\\Users\\ann\\AppData\\Roaming\\candidate-search',
    );
  });

  it('reads the URL and the key, an empty variable counting as unset', () => {
    expect(
      loadCliEnvironment({ CANDIDATE_SEARCH_URL: 'http://cs:8080', CANDIDATE_SEARCH_API_KEY: ' csk_k\n' }, 'linux', '/h'),
    ).toMatchObject({
      baseUrl: 'http://cs:8080',
      apiKey: 'csk_k',
    });
    expect(loadCliEnvironment({ CANDIDATE_SEARCH_URL: '', CANDIDATE_SEARCH_API_KEY: '' }, 'linux', '/h')).toMatchObject({
      baseUrl: undefined,
      apiKey: undefined,
    });
  });
});
