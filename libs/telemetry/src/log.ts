import { AsyncLocalStorage } from 'node:async_hooks';
import { trace } from '@opentelemetry/api';
import pino, { type Logger } from 'pino';

/** What a log line says about the work in hand, wherever it is known. */
export interface LogFields {
  requestId?: string;
  companyId?: string;
  searchId?: string;
  documentId?: string;
  jobId?: string;
  /** An API key is never logged; its first 8 characters are what support quotes. */
  keyPrefix?: string;
}

const fieldsOfWork = new AsyncLocalStorage<LogFields>();

/** Runs `fn` with `fields` added to every line logged in it (and in what it awaits). */
export function withLogFields<T>(fields: LogFields, fn: () => T): T {
  return fieldsOfWork.run({ ...fieldsOfWork.getStore(), ...fields }, fn);
}

/** The fields of the work in hand (one object, which {@link addLogFields} adds to later). */
export function currentLogFields(): LogFields | undefined {
  return fieldsOfWork.getStore();
}

/** Adds fields to the work in hand once they are learnt (the company, after authentication). */
export function addLogFields(fields: LogFields): void {
  const store = fieldsOfWork.getStore();
  if (store) Object.assign(store, fields);
}

/** The active span's ids, as log lines name them; none when tracing is off. */
export function activeTraceIds(): { traceId?: string; spanId?: string } {
  const span = trace.getActiveSpan()?.spanContext();
  return span ? { traceId: span.traceId, spanId: span.spanId } : {};
}

export type LogLevelName = 'silent' | 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/** Keys whose values must never reach a log, wherever they appear. */
const SECRETS = [
  'apiKey',
  'token',
  'adminToken',
  'presignSecret',
  'authorization',
  'cookie',
  'password',
  'secretKey',
  'secretAccessKey',
  'databaseUrl',
  'redisUrl',
];

/**
 * One JSON line per event, with level names, ISO times, the service, and the fields of the work
 * in hand and of the active span, so that a search's lines in every service share its trace id.
 */
export function createLogger(service: string, level: LogLevelName, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service, pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      messageKey: 'msg',
      redact: {
        // Up to three levels below the line's own keys: a config object nests a store's settings (config.cluster.s3.secretKey).
        paths: [
          ...SECRETS,
          ...SECRETS.map((k) => `*.${k}`),
          ...SECRETS.map((k) => `*.*.${k}`),
          ...SECRETS.map((k) => `*.*.*.${k}`),
          'req.headers["x-api-key"]',
          'req.headers.authorization',
        ],
        censor: '[redacted]',
      },
      mixin: () => ({ ...fieldsOfWork.getStore(), ...activeTraceIds() }),
    },
    // Synchronous (pino's default): a line logged just before an exit is not lost.
    destination ?? pino.destination(1),
  );
}

let root: Logger | undefined;

/** Sets the process's logger (bootstrap does, before anything logs). */
export function setRootLogger(logger: Logger): void {
  root = logger;
}

/** The process's logger, or one at LOG_LEVEL (info unless set) under the process's name when none was set (tests, scripts). */
export function rootLogger(): Logger {
  const level = process.env.LOG_LEVEL;
  const levels: readonly string[] = ['silent', 'fatal', 'error', 'warn', 'info', 'debug', 'trace'];
  root ??= createLogger(
    process.env.OTEL_SERVICE_NAME ?? 'candidate-search',
    level && levels.includes(level) ? (level as LogLevelName) : 'info',
  );
  return root;
}

/** A child logger naming the component that logs (the `context` of Nest's loggers). */
export function loggerFor(context: string): Logger {
  return rootLogger().child({ context });
}
