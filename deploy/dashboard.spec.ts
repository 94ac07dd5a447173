import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { familyOf, knownMetricFamilies, selectedNames } from './prometheus/metric-families';

/**
 * The Grafana dashboard (helm/candidate-search/files/dashboard.json): its variables, its rows,
 * and panels that chart only metrics the services export, always filtered by the variables,
 * so that choosing a namespace, job or instance narrows every panel.
 */
const ROOT = path.resolve(__dirname, '..');

interface Target {
  expr: string;
  datasource?: { uid?: string };
}
interface Panel {
  id: number;
  type: string;
  title: string;
  gridPos: { x: number; y: number; w: number; h: number };
  datasource?: { uid?: string };
  targets?: Target[];
}
interface Variable {
  name: string;
  type: string;
  definition?: string;
}
const dashboard = JSON.parse(readFileSync(path.join(ROOT, 'helm/candidate-search/files/dashboard.json'), 'utf8')) as {
  uid: string;
  templating: { list: Variable[] };
  panels: Panel[];
};
const charts = dashboard.panels.filter((panel) => panel.type !== 'row');
const targets = charts.flatMap((panel) => (panel.targets ?? []).map((target) => ({ panel: panel.title, ...target })));
/** Every series selector `name{...}` of an expression, with its matchers. */
const selectors = (expr: string) =>
  [...expr.matchAll(/([a-zA-Z_:][a-zA-Z0-9_:]*)\{([^}]*)\}/g)].map((m) => ({ name: m[1], matchers: m[2] }));
const VARIABLE_MATCHERS = ['namespace=~"$namespace"', 'job=~"$job"', 'instance=~"$instance"'];

describe('the Grafana dashboard', () => {
  it('has the datasource, namespace, job and instance variables, each narrowing the one before', () => {
    const variables = Object.fromEntries(dashboard.templating.list.map((v) => [v.name, v]));
    expect(Object.keys(variables)).toEqual(['datasource', 'namespace', 'job', 'instance']);
    expect(variables.datasource.type).toBe('datasource');
    expect(variables.namespace.definition).toMatch(/^label_values\(.+, namespace\)$/);
    expect(variables.job.definition).toMatch(/^label_values\(.*namespace=~"\$namespace".*, job\)$/);
    expect(variables.instance.definition).toMatch(/^label_values\(.*job=~"\$job".*, instance\)$/);
  });

  it('has a row for the gateway, searches, ingestion, queues, gRPC and processes', () => {
    const rows = dashboard.panels.filter((panel) => panel.type === 'row').map((row) => row.title.split(/[: ]/)[0]);
    expect(rows).toEqual(['Gateway', 'Searches', 'Ingestion', 'Queues', 'gRPC', 'Processes']);
  });

  it('has unique panel ids and panels that do not overlap', () => {
    expect(new Set(dashboard.panels.map((p) => p.id)).size).toBe(dashboard.panels.length);
    const cells = new Set<string>();
    for (const { gridPos: g, title } of dashboard.panels) {
      expect(g.x + g.w).toBeLessThanOrEqual(24);
      for (let x = g.x; x < g.x + g.w; x++)
        for (let y = g.y; y < g.y + g.h; y++) {
          if (cells.has(`${x},${y}`)) throw new Error(`${title} overlaps another panel at ${x},${y}`);
          cells.add(`${x},${y}`);
        }
    }
  });

  it('queries the chosen datasource in every panel', () => {
    expect(charts.length).toBeGreaterThan(25);
    for (const panel of charts)
      expect({ panel: panel.title, uid: panel.datasource?.uid }).toEqual({ panel: panel.title, uid: '${datasource}' });
    for (const target of targets)
      expect({ panel: target.panel, uid: target.datasource?.uid }).toEqual({ panel: target.panel, uid: '${datasource}' });
  });

  it('charts only metrics the services export', async () => {
    const known = await knownMetricFamilies();
    const names = targets.flatMap((target) => selectedNames(target.expr));
    for (const family of [
      'cs_queue_oldest_job_age_seconds',
      'grpc_server_handled_total',
      'cs_db_pool_connections',
      'nodejs_heap_size_used_bytes',
    ]) {
      expect(names.map(familyOf)).toContain(family);
    }
    expect(
      targets.flatMap((target) =>
        selectedNames(target.expr)
          .filter((name) => !known.has(familyOf(name)))
          .map((name) => `${target.panel}: ${name}`),
      ),
    ).toEqual([]);
  });

  it('filters every series by the namespace, job and instance variables', () => {
    for (const target of targets) {
      expect({ panel: target.panel, selected: selectedNames(target.expr).length }).toEqual({
        panel: target.panel,
        selected: selectors(target.expr).length,
      });
      for (const { name, matchers } of selectors(target.expr)) {
        expect({ panel: target.panel, name, missing: VARIABLE_MATCHERS.filter((m) => !matchers.includes(m)) }).toEqual({
          panel: target.panel,
          name,
          missing: [],
        });
      }
    }
  });

  it('takes its uid from values (metrics.dashboard.uid)', () => {
    expect(dashboard.uid).toBe('candidate-search');
    const template = readFileSync(path.join(ROOT, 'helm/candidate-search/templates/dashboard.yaml'), 'utf8');
    expect(template).toContain('{{- with .Values.metrics.dashboard.uid }}');
    expect(template).toContain('set $dashboard "uid" .');
    expect(template).toContain('.Files.Get "files/dashboard.json" | fromJson');
  });
});
