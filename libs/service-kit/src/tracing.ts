import { diag, DiagLogLevel } from '@opentelemetry/api';
import type { NodeSDK } from '@opentelemetry/sdk-node';
import { loggerFor } from '@cs/telemetry';

/**
 * Imported first by every main.ts (through its `instrument.ts`), before Nest, Express, pg,
 * ioredis or gRPC load, so that the instrumentations patch them. Kept apart from the library's
 * index, which loads Nest.
 */

let sdk: NodeSDK | undefined;

/** Which span exporters the standard variables ask for, less OTLP when no endpoint is set: nothing is sent to a default address. */
export function tracesExporters(env: NodeJS.ProcessEnv = process.env): string[] {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return [];
  const asked = (env.OTEL_TRACES_EXPORTER ?? 'otlp')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s && s !== 'null');
  if (asked.includes('none')) return [];
  const hasEndpoint = Boolean(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? env.OTEL_EXPORTER_OTLP_ENDPOINT);
  const exporters = [...new Set(asked.length ? asked : ['otlp'])];
  return hasEndpoint ? exporters : exporters.filter((e) => e !== 'otlp');
}

/**
 * Starts OpenTelemetry's Node SDK, configured by the standard `OTEL_*` variables only
 * (`OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_EXPORTER_OTLP_PROTOCOL`, `OTEL_TRACES_EXPORTER`,
 * `OTEL_TRACES_SAMPLER`, `OTEL_SERVICE_NAME`, which defaults to `serviceName`). Off, at no cost
 * (not even loaded), when no exporter is left to send to.
 */
export function startTracing(serviceName: string): void {
  const exporters = tracesExporters();
  if (exporters.length === 0 || sdk) return;
  process.env.OTEL_TRACES_EXPORTER = exporters.join(',');
  // Metrics are Prometheus' (/metrics) and logs go to stdout: the SDK exports traces only unless told otherwise.
  process.env.OTEL_METRICS_EXPORTER ??= 'none';
  process.env.OTEL_LOGS_EXPORTER ??= 'none';
  // Looked up at each call: the process's logger is set after this runs.
  const logger = () => loggerFor('opentelemetry');
  diag.setLogger(
    {
      error: (message, ...args) => logger().error({ args }, message),
      warn: (message, ...args) => logger().warn({ args }, message),
      info: (message, ...args) => logger().info({ args }, message),
      debug: () => undefined,
      verbose: () => undefined,
    },
    DiagLogLevel.WARN,
  );
  // Required here, synchronously: loaded only when tracing is on, and still before what it patches.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded lazily, only when tracing is on
  const { createTracingSdk } = require('./tracing-sdk') as typeof import('./tracing-sdk');
  sdk = createTracingSdk(process.env.OTEL_SERVICE_NAME ? undefined : serviceName);
  sdk.start();
}

/** Sends the spans still buffered (at a graceful stop). */
export async function stopTracing(): Promise<void> {
  await sdk?.shutdown().catch(() => undefined);
  sdk = undefined;
}
