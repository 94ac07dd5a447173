import { tracesExporters } from './tracing';

describe('tracesExporters (which OTEL_* variables turn tracing on)', () => {
  it('sends nothing without an endpoint: OTLP is the default exporter, and it needs one', () => {
    expect(tracesExporters({})).toEqual([]);
    expect(tracesExporters({ OTEL_TRACES_EXPORTER: 'otlp' })).toEqual([]);
  });

  it('exports over OTLP once an endpoint is set (the general or the traces one)', () => {
    expect(tracesExporters({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toEqual(['otlp']);
    expect(tracesExporters({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toEqual(['otlp']);
  });

  it('prints spans with console, with or without an endpoint', () => {
    expect(tracesExporters({ OTEL_TRACES_EXPORTER: 'console' })).toEqual(['console']);
    expect(tracesExporters({ OTEL_TRACES_EXPORTER: 'console,otlp', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' })).toEqual([
      'console',
      'otlp',
    ]);
  });

  it('is off with none or OTEL_SDK_DISABLED', () => {
    expect(tracesExporters({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' })).toEqual([]);
    expect(tracesExporters({ OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' })).toEqual([]);
  });
});
