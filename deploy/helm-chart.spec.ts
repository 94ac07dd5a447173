import { existsSync, readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { CONFIG_KEYS } from '@cs/config';
import { ServiceMetrics } from '@cs/service-kit';

/**
 * No helm binary can run here, so these check what can be checked without rendering: that the
 * chart starts programs that exist, sets only settings the services read, and that every
 * template's actions open and close in pairs.
 */
const ROOT = path.resolve(__dirname, '..');
const CHART = path.join(ROOT, 'helm/candidate-search');
const TEMPLATES = path.join(CHART, 'templates');
const values = parse(readFileSync(path.join(CHART, 'values.yaml'), 'utf8')) as {
  env: Record<string, string>;
  services: Record<string, { main: string; httpPort?: number; grpcPort?: number; env: Record<string, string> }>;
};
const template = (name: string) => readFileSync(path.join(TEMPLATES, name), 'utf8');
/** dist/apps/x/src/main.js is built from apps/x/src/main.ts. */
const sourceOf = (main: string) => path.join(ROOT, main.replace(/^dist\//, '').replace(/\.js$/, '.ts'));

describe('the Helm chart', () => {
  it('has one Deployment per service of the cluster, each starting its own main', () => {
    expect(Object.keys(values.services).sort()).toEqual(['dense', 'gateway', 'ingestion', 'reranker', 'search-orchestrator', 'sparse']);
    for (const [name, service] of Object.entries(values.services)) {
      expect(service.main).toBe(`dist/apps/${name}/src/main.js`);
      expect(existsSync(sourceOf(service.main))).toBe(true);
    }
    const migrate = /args: \["([^"]+)"\]/.exec(template('migrate-job.yaml'))?.[1] ?? '';
    expect(existsSync(sourceOf(migrate))).toBe(true);
  });

  it('gives the gateway HTTP and the dense, sparse and reranker services gRPC', () => {
    const withHttp = Object.keys(values.services).filter((n) => values.services[n].httpPort);
    const withGrpc = Object.keys(values.services).filter((n) => values.services[n].grpcPort);
    expect(withHttp).toEqual(['gateway']);
    expect(withGrpc.sort()).toEqual(['dense', 'reranker', 'sparse']);
  });

  it('sets only settings the services read', () => {
    const set = new Set([
      ...Object.keys(values.env),
      ...Object.values(values.services).flatMap((s) => Object.keys(s.env)),
      ...[...template('configmap.yaml').matchAll(/^ {2}([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]),
      ...[...template('deployments.yaml').matchAll(/- name: ([A-Z][A-Z0-9_]+)$/gm)].map((m) => m[1]),
    ]);
    expect(set.size).toBeGreaterThan(15);
    expect([...set].filter((key) => !CONFIG_KEYS.includes(key))).toEqual([]);
  });

  it('closes every if, range, with and define it opens', () => {
    for (const file of readdirSync(TEMPLATES)) {
      const actions = [...template(file).matchAll(/\{\{-?\s*(if|range|with|define|else|end)\b/g)].map((m) => m[1]);
      let depth = 0;
      for (const action of actions) {
        if (action === 'end') depth--;
        else if (action !== 'else') depth++;
        if (depth < 0) throw new Error(`${file}: an end without an opening action`);
      }
      expect({ file, unclosed: depth }).toEqual({ file, unclosed: 0 });
      expect({ file, braces: (template(file).match(/\{\{/g) ?? []).length }).toEqual({
        file,
        braces: (template(file).match(/\}\}/g) ?? []).length,
      });
    }
  });

  it('alerts and charts only on metrics the services export', async () => {
    const exported = new Set((await new ServiceMetrics('chart').registry.getMetricsAsJSON()).map((m) => m.name));
    const alerts = readFileSync(path.join(CHART, 'files/alerts.yaml'), 'utf8');
    const dashboard = readFileSync(path.join(CHART, 'files/dashboard.json'), 'utf8');
    const rules = (parse(alerts) as { groups: { rules: { alert: string; expr: string }[] }[] }).groups.flatMap((g) => g.rules);
    const panels = (JSON.parse(dashboard) as { panels: { targets: { expr: string }[] }[] }).panels;
    expect(rules.length).toBeGreaterThan(3);
    expect(panels.length).toBeGreaterThan(5);
    const used = new Set(
      [...`${alerts}\n${dashboard}`.matchAll(/\b((?:cs|process|nodejs)_[a-z0-9_]+)/g)].map((m) => m[1].replace(/_(bucket|count|sum)$/, '')),
    );
    expect(used.size).toBeGreaterThan(5);
    expect([...used].filter((name) => !exported.has(name))).toEqual([]);
  });
});
