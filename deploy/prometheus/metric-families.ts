import { Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The metric families the services export, written out rather than read from the registry:
 * the alerts and the dashboard are written against these names, and a renamed metric must fail
 * their specs until they follow it. Histograms are named without `_bucket`, `_count`, `_sum`.
 */
export const SERVICE_METRIC_FAMILIES = [
  'cs_http_request_duration_seconds',
  'cs_search_duration_seconds',
  'cs_search_stage_duration_seconds',
  'cs_ingestion_duration_seconds',
  'cs_reranker_fallbacks_total',
  'cs_queue_pending_jobs',
  'cs_queue_oldest_job_age_seconds',
  'cs_queue_redeliveries_total',
  'cs_queue_dead_letters_total',
  'cs_stuck_documents_total',
  'cs_stuck_documents',
  'cs_rate_limit_rejections_total',
  'cs_http_kept_answers_total',
  'cs_db_pool_connections',
  'cs_held_requests',
  'grpc_server_handled_total',
  'grpc_server_handling_seconds',
  'grpc_client_handled_total',
] as const;

/** Node's process metrics (prom-client's defaults) and Prometheus' own `up`. */
export async function knownMetricFamilies(): Promise<Set<string>> {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const defaults = (await registry.getMetricsAsJSON()).map((metric) => metric.name);
  return new Set<string>([...SERVICE_METRIC_FAMILIES, ...defaults, 'up']);
}

/** The family a series name belongs to: a histogram's parts name their histogram. */
export const familyOf = (series: string) => series.replace(/_(bucket|count|sum)$/, '');

const PROMQL_KEYWORDS = new Set(['and', 'or', 'unless', 'bool', 'offset', 'inf', 'nan']);

/**
 * The series names a PromQL expression selects: what is left once strings, label matchers,
 * ranges, grouping clauses and function calls are taken out. Enough for the expressions of our
 * rules and panels, not a PromQL parser.
 */
export function selectedNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\b(?:group_left|group_right)\b/g, ' ');
  return [...bare.matchAll(/(?<![\w.$])([a-zA-Z_:][a-zA-Z0-9_:]*)\b(?!\s*\()/g)]
    .map((match) => match[1])
    .filter((name) => !PROMQL_KEYWORDS.has(name.toLowerCase()));
}
