import * as grpc from '@grpc/grpc-js';
import { create, fromBinary, toBinary, type DescMessage, type MessageInitShape, type MessageShape } from '@bufbuild/protobuf';
import type { GenService, GenServiceMethods } from '@bufbuild/protobuf/codegenv2';
import { healthV1 } from '@cs/contracts';
import { fromServiceError, toServiceError } from './error-mapping';
import { grpcObserver } from './grpc-observer';

const codeName = (code: grpc.status | undefined): string => grpc.status[code ?? grpc.status.UNKNOWN];

/** Handlers of a service's unary methods, in protobuf-es shapes. */
export type ServiceImpl<T extends GenServiceMethods> = {
  [K in keyof T]: (request: MessageShape<T[K]['input']>) => Promise<MessageInitShape<T[K]['output']>>;
};

/** A typed client: one promise per unary method, each with a deadline. */
export type ServiceClient<T extends GenServiceMethods> = {
  [K in keyof T]: (request: MessageInitShape<T[K]['input']>, options?: { timeoutMs?: number }) => Promise<MessageShape<T[K]['output']>>;
};

const codec = (schema: DescMessage) => ({
  serialize: (message: MessageShape<DescMessage>) => Buffer.from(toBinary(schema, message)),
  deserialize: (bytes: Buffer) => fromBinary(schema, bytes),
});

/** grpc-js's service definition of a protobuf-es service: paths and binary codecs. */
export function serviceDefinition<T extends GenServiceMethods>(service: GenService<T>): grpc.ServiceDefinition {
  const definition: Record<string, grpc.MethodDefinition<unknown, unknown>> = {};
  for (const method of service.methods) {
    if (method.methodKind !== 'unary') throw new Error(`${service.typeName}.${method.name}: only unary methods are supported`);
    const input = codec(method.input);
    const output = codec(method.output);
    definition[method.localName] = {
      path: `/${service.typeName}/${method.name}`,
      requestStream: false,
      responseStream: false,
      requestSerialize: input.serialize,
      requestDeserialize: input.deserialize,
      responseSerialize: output.serialize,
      responseDeserialize: output.deserialize,
    } as grpc.MethodDefinition<unknown, unknown>;
  }
  return definition;
}

/** Adds a service to a server; thrown errors become gRPC statuses by the one mapping table. */
export function addService<T extends GenServiceMethods>(server: grpc.Server, service: GenService<T>, impl: ServiceImpl<T>): void {
  const handlers: grpc.UntypedServiceImplementation = {};
  for (const method of service.methods) {
    const handle = impl[method.localName as keyof T] as (request: unknown) => Promise<MessageInitShape<DescMessage>>;
    handlers[method.localName] = (call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => {
      const started = performance.now();
      const handled = (code: grpc.status | undefined) =>
        grpcObserver()?.serverHandled(service.typeName, method.name, codeName(code), (performance.now() - started) / 1000);
      handle(call.request)
        .then((result) => {
          handled(grpc.status.OK);
          callback(null, create(method.output, result));
        })
        .catch((error: unknown) => {
          const serviceError = toServiceError(error);
          handled(serviceError.code);
          callback(serviceError);
        });
    };
  }
  server.addService(serviceDefinition(service), handlers);
}

export interface ClientOptions {
  /** host:port */
  address: string;
  /** Deadline of calls that set none. */
  defaultTimeoutMs: number;
  /** A connection of its own rather than one shared with other clients of the address (grpc-js pools them). */
  ownConnection?: boolean;
}

/** A typed client of a service; failures come back as JobFailure with a retryable flag. */
export function createClient<T extends GenServiceMethods>(
  service: GenService<T>,
  options: ClientOptions,
): { client: ServiceClient<T>; close: () => void } {
  const Constructor = grpc.makeGenericClientConstructor(serviceDefinition(service), service.typeName);
  const raw = new Constructor(options.address, grpc.credentials.createInsecure(), {
    'grpc.keepalive_time_ms': 30_000,
    // Reconnect quickly once a restarted service is back (the default backoff grows to 2 minutes).
    'grpc.initial_reconnect_backoff_ms': 200,
    'grpc.max_reconnect_backoff_ms': 2000,
    'grpc.max_receive_message_length': 64 * 1024 * 1024,
    'grpc.max_send_message_length': 64 * 1024 * 1024,
    // Behind a headless Kubernetes Service the name resolves to every replica: spread calls over
    // them all, not one long-lived HTTP/2 connection to a single pod.
    'grpc.service_config': JSON.stringify({ loadBalancingConfig: [{ round_robin: {} }] }),
    ...(options.ownConnection ? { 'grpc.use_local_subchannel_pool': 1 } : {}),
  }) as unknown as Record<
    string,
    (req: unknown, meta: grpc.Metadata, opts: grpc.CallOptions, cb: (e: grpc.ServiceError | null, r: unknown) => void) => void
  >;
  const shortName = service.typeName
    .split('.')
    .slice(-1)[0]
    .replace(/Service$/, '')
    .toLowerCase();
  const client = {} as Record<string, unknown>;
  for (const method of service.methods) {
    client[method.localName] = (request: MessageInitShape<DescMessage>, callOptions: { timeoutMs?: number } = {}) =>
      new Promise((resolve, reject) => {
        const deadline = Date.now() + (callOptions.timeoutMs ?? options.defaultTimeoutMs);
        raw[method.localName](create(method.input, request), new grpc.Metadata(), { deadline }, (error, response) => {
          grpcObserver()?.clientHandled(service.typeName, method.name, codeName(error ? error.code : grpc.status.OK));
          if (error) reject(fromServiceError(shortName, method.name, error));
          else resolve(response);
        });
      });
  }
  return { client: client as ServiceClient<T>, close: () => (raw as unknown as grpc.Client).close() };
}

/**
 * A check of a server's standard health service: resolves when it answers SERVING within
 * `timeoutMs`, else throws saying what it answered (or that it did not).
 */
export function grpcHealthCheck(address: string, timeoutMs: number): { check: () => Promise<void>; close: () => void } {
  const { client, close } = createClient(healthV1.Health, { address, defaultTimeoutMs: timeoutMs, ownConnection: true });
  return {
    check: async () => {
      const { status } = await client.check({});
      if (status !== healthV1.HealthCheckResponse_ServingStatus.SERVING)
        throw new Error(`reports ${healthV1.HealthCheckResponse_ServingStatus[status]}`);
    },
    close,
  };
}

/** Starts a server with the standard health service reporting SERVING. */
export async function startGrpcServer(
  address: string,
  register: (server: grpc.Server) => void,
): Promise<{ server: grpc.Server; port: number; stop: (graceMs: number) => Promise<void> }> {
  const server = new grpc.Server({
    'grpc.max_receive_message_length': 64 * 1024 * 1024,
    // Clients reconnect every few minutes, resolving the name again, so new replicas get traffic.
    'grpc.max_connection_age_ms': 5 * 60_000,
    'grpc.max_connection_age_grace_ms': 30_000,
  });
  register(server);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(address, grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
  );
  return {
    server,
    port,
    stop: (graceMs) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, graceMs);
        server.tryShutdown(() => {
          clearTimeout(timer);
          resolve();
        });
      }),
  };
}
