import 'reflect-metadata';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { ConsoleLogger, type LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { ConfigError, loadConfig, type AppConfig } from '@cs/config';
import { buildOpenApiDocument } from '../../gateway/src/app/openapi/openapi';
import { StandaloneModule } from './app/standalone.module';

const LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];
function logLevels(level: AppConfig['logLevel']): LogLevel[] {
  const map: Record<AppConfig['logLevel'], number> = { silent: -1, fatal: 0, error: 1, warn: 2, info: 3, debug: 4, trace: 5 };
  return LEVELS.slice(0, map[level] + 1);
}

/** Graceful stop: no new work, in-flight jobs finish, stores close; forced after 9 s. */
function handleShutdown(app: NestExpressApplication, logger: ConsoleLogger): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.log(`${signal} received: shutting down`, 'Main');
    setTimeout(() => {
      logger.error('shutdown took longer than 9 s; exiting anyway', 'Main');
      process.exit(1);
    }, 9000).unref();
    app
      .close()
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        logger.error(`shutdown failed: ${String(error)}`, 'Main');
        process.exit(1);
      });
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

async function main(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  await fs.mkdir(config.dataDir, { recursive: true });
  const logger = new ConsoleLogger({ json: true, logLevels: logLevels(config.logLevel) });
  const app = await NestFactory.create<NestExpressApplication>(StandaloneModule.forRoot(config), { bodyParser: false, logger });
  app.set('trust proxy', 'loopback');
  app.set('x-powered-by', false);
  app.set('etag', false);
  SwaggerModule.setup('docs', app, buildOpenApiDocument() as unknown as OpenAPIObject, { jsonDocumentUrl: 'openapi.json' });
  await app.listen(config.port, config.host);
  const url = (await app.getUrl()).replace('[::1]', 'localhost').replace('0.0.0.0', 'localhost');
  handleShutdown(app, logger);
  logger.log(
    `Candidate Search (standalone) listening on ${url}; data in ${config.dataDir}; admin token in ${path.join(config.dataDir, 'admin-token')}; API docs at ${url}/docs`,
    'Main',
  );
}

main().catch((error) => {
  process.stderr.write(`startup failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
