import { promises as fs } from 'node:fs';
import type { Server } from 'node:http';
import { Module, type DynamicModule, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import * as grpc from '@grpc/grpc-js';
import { ConfigError, loadConfig, type AppConfig } from '@cs/config';
import { addHealthService, observeGrpc, startGrpcServer } from '@cs/grpc';
import { createLogger, setRootLogger } from '@cs/telemetry';
import { Logger as NestPinoLogger, PinoLogger } from 'nestjs-pino';
import { DataDirInUseError, claimDataDir } from './data-dir-lock';
import { DataDirStoreError, claimDataDirStore, type DataDirStore } from './data-dir-store';
import { grpcMetrics } from './grpc-metrics';
import { MetricsRegistry, startMetricsServer } from './metrics';
import { ProcessLifecycle } from './process-lifecycle';
import { ProcessModule } from './process.module';
import { stopTracing } from './tracing';

export interface ServiceDefinition {
  /** As it appears in logs. */
  name: string;
  /** `dataDirStore`: whose indexes DATA_DIR holds, read once at start; null unless `ownsDataDir`. */
  module: (config: AppConfig, dataDirStore: DataDirStore | null) => DynamicModule;
  /** Throws a ConfigError listing what this service lacks. */
  validate?: (config: AppConfig) => void;
  /** An HTTP service: configure the app (awaited: it may build or read what it serves); it then listens on PORT. */
  http?: (app: NestExpressApplication, config: AppConfig) => void | Promise<void>;
  /** A gRPC service: register its services; it then listens on GRPC_PORT, with health. */
  grpc?: (app: INestApplicationContext, server: grpc.Server) => void;
  /** Its embedded stores live in DATA_DIR: it refuses to start while another process uses the folder. */
  ownsDataDir?: boolean;
}

/**
 * Beyond the grace for work in hand: closing saves the embedded indexes' snapshots (about 5 s at
 * 100k CVs). Cut short, the next start replays their logs instead, which is slower but whole.
 */
const CLOSE_ALLOWANCE_MS = 15_000;

/**
 * Starts one service process: validated config, JSON logs, HTTP and/or gRPC, and a graceful stop
 * on SIGTERM or SIGINT (stop taking work, let work in hand finish, exit 0; forced after a bound).
 */
export async function runService(definition: ServiceDefinition): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig();
    definition.validate?.(config);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${definition.name}: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  await fs.mkdir(config.dataDir, { recursive: true });
  let dataDirStore: DataDirStore | null = null;
  if (definition.ownsDataDir) {
    try {
      await claimDataDir(config.dataDir);
      dataDirStore = await claimDataDirStore(config.dataDir);
    } catch (error) {
      if (!(error instanceof DataDirInUseError || error instanceof DataDirStoreError)) throw error;
      process.stderr.write(`${definition.name}: ${error.message}\n`);
      process.exit(2);
    }
  }
  // pino under Nest's logger interface (nestjs-pino): every line JSON with level names, ISO
  // times, the service, and the ids of the request, job and span it was logged in.
  const rootLogger = createLogger(definition.name, config.logLevel);
  setRootLogger(rootLogger);
  const grpcLogger = rootLogger.child({ context: 'grpc' });
  grpc.setLogger({ error: (...args: unknown[]) => grpcLogger.warn(args.map(String).join(' ')) });
  const logger = new NestPinoLogger(new PinoLogger({ pinoHttp: { logger: rootLogger } }), {});
  // The service's module, with what there is one of per process (its metrics, its lifecycle).
  const module: DynamicModule = {
    module: ServiceRootModule,
    imports: [ProcessModule.forRoot(definition.name), definition.module(config, dataDirStore)],
  };
  let app: INestApplicationContext;
  let httpServer: Server | undefined;
  let address = '';
  if (definition.http) {
    const httpApp = await NestFactory.create<NestExpressApplication>(module, { bodyParser: false, logger });
    httpApp.set('trust proxy', config.trustProxy);
    httpApp.set('x-powered-by', false);
    httpApp.set('etag', false);
    observeGrpc(grpcMetrics(httpApp.get(MetricsRegistry))); // before any module starts calling
    await definition.http(httpApp, config);
    await httpApp.listen(config.port, config.host);
    // Outlive the idle timeouts of clients and load balancers, so a reused connection is not cut under a request.
    const server = httpApp.getHttpServer();
    httpServer = server;
    server.keepAliveTimeout = 65_000;
    server.headersTimeout = 66_000;
    address = (await httpApp.getUrl()).replace('[::1]', 'localhost').replace('0.0.0.0', 'localhost');
    app = httpApp;
  } else {
    app = await NestFactory.createApplicationContext(module, { logger });
    observeGrpc(grpcMetrics(app.get(MetricsRegistry))); // before any module starts calling
    await app.init();
  }
  // Declared before the gRPC server starts: its health service reads it from the first check.
  let stopping = false;
  let stopGrpc: ((graceMs: number) => Promise<void>) | undefined;
  if (definition.grpc) {
    const started = await startGrpcServer(`0.0.0.0:${config.cluster.grpcPort ?? 0}`, (server) => {
      definition.grpc?.(app, server);
      addHealthService(server, () => !stopping);
    });
    stopGrpc = started.stop;
    address = `${address ? `${address}, ` : ''}grpc :${started.port}`;
  }
  const metrics = app.get(MetricsRegistry);
  const lifecycle = app.get(ProcessLifecycle);
  let stopMetrics: (() => Promise<void>) | undefined;
  if (config.metricsPort !== undefined) {
    const metricsServer = await startMetricsServer(metrics, lifecycle, config.metricsPort, config.host);
    stopMetrics = metricsServer.close;
    address = `${address ? `${address}, ` : ''}metrics :${metricsServer.port}`;
  }
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    // SIGTERM is Kubernetes' stop: an HTTP service first answers /readyz with 503 and goes on
    // serving for DRAIN_MS, while load balancers take it out. Ctrl-C (SIGINT) stops at once.
    const drainMs = definition.http && signal === 'SIGTERM' ? config.drainMs : 0;
    lifecycle.startDraining();
    if (lifecycle.failed) logger.fatal(`stopping: ${lifecycle.failed}`);
    else logger.log(`${signal} received: shutting down${drainMs ? ` after draining for ${drainMs} ms` : ''}`);
    setTimeout(
      () => {
        logger.error('shutdown took too long; exiting anyway');
        process.exit(1);
      },
      drainMs + config.shutdownGraceMs + CLOSE_ALLOWANCE_MS,
    ).unref();
    new Promise((resolve) => setTimeout(resolve, drainMs))
      .then(() => stopGrpc?.(Math.min(2000, config.shutdownGraceMs)))
      .then(() => {
        // Closing waits for every connection: one whose answer ends after the close (a request
        // held by Prefer: wait, an event stream) would otherwise stay open idle for the 65 s
        // keep-alive, past the shutdown's bound. Idle ones are closed as they become idle.
        if (httpServer) setInterval(() => httpServer?.closeIdleConnections(), 100).unref();
        return app.close();
      })
      .then(() => stopMetrics?.())
      .then(() => stopTracing())
      .then(() => process.exit(lifecycle.failed ? 1 : 0))
      .catch((error: unknown) => {
        logger.error(`shutdown failed: ${String(error)}`);
        process.exit(1);
      });
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  logger.log(`${definition.name} ready${address ? ` on ${address}` : ''}; data in ${config.dataDir}`);
}

@Module({})
class ServiceRootModule {}

/** For a main file: run, and exit 1 with the reason if start-up fails. */
export function main(definition: ServiceDefinition): void {
  runService(definition).catch((error: unknown) => {
    process.stderr.write(
      `${definition.name}: startup failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  });
}
