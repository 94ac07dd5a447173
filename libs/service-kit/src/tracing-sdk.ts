import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { GrpcInstrumentation } from '@opentelemetry/instrumentation-grpc';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { NodeSDK } from '@opentelemetry/sdk-node';

/** Paths polled by Kubernetes and Prometheus: a span each would drown the traces worth reading. */
const UNTRACED_PATHS = /^\/(metrics|healthz|readyz|livez)(\?|$)/;

/**
 * OpenTelemetry's Node SDK with the instrumentations of what the services use. Its own module,
 * which `startTracing` requires only when tracing is on: a process with tracing off loads none of
 * it (about 1,100 modules, 300 ms of its start).
 */
export function createTracingSdk(serviceName: string | undefined): NodeSDK {
  return new NodeSDK({
    serviceName,
    instrumentations: [
      new HttpInstrumentation({ ignoreIncomingRequestHook: (req) => UNTRACED_PATHS.test(req.url ?? '') }),
      new ExpressInstrumentation(),
      new GrpcInstrumentation(),
      new PgInstrumentation(),
      new IORedisInstrumentation(),
    ],
  });
}
