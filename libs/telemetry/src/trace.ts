import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, propagation, trace, type Attributes, type Span } from '@opentelemetry/api';

/** W3C trace context (`traceparent`, `tracestate`) as it travels with a job. */
export type TraceCarrier = Record<string, string>;

const tracer = () => trace.getTracer('candidate-search');

/** The active span's context, to store with a job published later (the outbox) or now; none when tracing is off. */
export function currentTraceCarrier(): TraceCarrier | undefined {
  const carrier: TraceCarrier = {};
  propagation.inject(context.active(), carrier);
  return Object.keys(carrier).length > 0 ? carrier : undefined;
}

/** Runs `fn` with `span`, which ends when `fn` settles, with its error recorded. */
async function endingWith<T>(span: Span, fn: (span: Span) => Promise<T>): Promise<T> {
  try {
    return await fn(span);
  } catch (error) {
    span.recordException(error as Error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
    throw error;
  } finally {
    span.end();
  }
}

/** Runs `fn` in a span: ended when `fn` settles, its error recorded. */
export async function inSpan<T>(name: string, attributes: Attributes, fn: (span: Span) => Promise<T>): Promise<T> {
  return tracer().startActiveSpan(name, { attributes }, (span) => endingWith(span, fn));
}

/**
 * Runs a consumer's handling of a job in a CONSUMER span whose parent is the publisher's span
 * (from the job's carrier), so an upload or a search is one trace across the queue.
 */
export async function inJobSpan<T>(
  kind: string,
  carrier: TraceCarrier | undefined,
  attributes: Attributes,
  fn: (span: Span) => Promise<T>,
): Promise<T> {
  const parent = carrier ? propagation.extract(ROOT_CONTEXT, carrier) : ROOT_CONTEXT;
  return context.with(parent, () =>
    tracer().startActiveSpan(
      `${kind} process`,
      { kind: SpanKind.CONSUMER, attributes: { 'messaging.operation.type': 'process', 'messaging.destination.name': kind, ...attributes } },
      (span) => endingWith(span, fn),
    ),
  );
}
