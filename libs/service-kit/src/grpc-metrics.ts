import type { GrpcObserver } from '@cs/grpc';
import type { MetricsRegistry } from './metrics';

/** Records gRPC calls, both sides, in go-grpc-prometheus' families (unary calls only, here). */
export function grpcMetrics(registry: MetricsRegistry): GrpcObserver {
  const labelNames = ['grpc_type', 'grpc_service', 'grpc_method', 'grpc_code'] as const;
  const serverHandled = registry.counter('grpc_server_handled_total', 'gRPC calls completed on the server, by status code', labelNames);
  const serverHandling = registry.histogram('grpc_server_handling_seconds', 'Time the server took to handle gRPC calls', [
    'grpc_type',
    'grpc_service',
    'grpc_method',
  ]);
  const clientHandled = registry.counter('grpc_client_handled_total', 'gRPC calls completed by the client, by status code', labelNames);
  return {
    serverHandled: (service, method, code, seconds) => {
      const labels = { grpc_type: 'unary', grpc_service: service, grpc_method: method };
      serverHandled.inc({ ...labels, grpc_code: code });
      serverHandling.observe(labels, seconds);
    },
    clientHandled: (service, method, code) =>
      clientHandled.inc({ grpc_type: 'unary', grpc_service: service, grpc_method: method, grpc_code: code }),
  };
}
