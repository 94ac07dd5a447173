export { activeTraceIds, addLogFields, createLogger, currentLogFields, loggerFor, rootLogger, setRootLogger, withLogFields } from './log';
export type { LogFields, LogLevelName } from './log';
export { currentTraceCarrier, inJobSpan, inSpan } from './trace';
export type { TraceCarrier } from './trace';
