import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { CONFIG_KEYS } from '@cs/config';
import { ServiceMetrics } from '@cs/service-kit';
import { CHART, CI_VALUES, type K8sObject, ROOT, kustomize, lint, objectsOf, template, validate } from './chart/helm';

/**
 * The chart rendered by the real helm (scripts/helm.sh) for every values file in
 * helm/candidate-search/ci/: helm lint --strict, each object valid against Kubernetes' schemas,
 * the whole render accepted by kubectl kustomize, and what each render must hold.
 */
const SERVICES = ['dense', 'gateway', 'ingestion', 'reranker', 'search-orchestrator', 'sparse'];

interface Container {
  name: string;
  args?: string[];
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string }; configMapKeyRef?: unknown } }[];
}
interface PodSpec {
  containers: Container[];
}
const podSpecOf = (object: K8sObject) => (object.spec as { template: { spec: PodSpec } }).template.spec;
/** dist/apps/x/src/main.js is built from apps/x/src/main.ts. */
const sourceOf = (main: string) => path.join(ROOT, main.replace(/^dist\//, '').replace(/\.js$/, '.ts'));

const renders = new Map<string, { manifest: string; objects: K8sObject[] }>();
function rendered(valuesFile: string) {
  let render = renders.get(valuesFile);
  if (!render) {
    const run = template(valuesFile);
    if (!run.ok) throw new Error(`helm template -f ci/${valuesFile} failed:\n${run.stderr}`);
    render = { manifest: run.stdout, objects: objectsOf(run.stdout) };
    renders.set(valuesFile, render);
  }
  return render;
}
const ofKind = (objects: K8sObject[], kind: string) => objects.filter((o) => o.kind === kind);

describe('the Helm chart', () => {
  it('has a minimal and a full values file in ci/', () => {
    expect(CI_VALUES).toEqual(expect.arrayContaining(['minimal-values.yaml', 'full-values.yaml']));
  });

  describe.each(CI_VALUES)('rendered with ci/%s', (valuesFile) => {
    it('passes helm lint --strict', () => {
      const run = lint(valuesFile);
      expect({ ok: run.ok, stderr: run.stderr }).toEqual({ ok: true, stderr: '' });
      expect(run.stdout).toContain('1 chart(s) linted, 0 chart(s) failed');
      expect(run.stdout).not.toMatch(/\[(WARNING|ERROR)\]/);
    });

    it('renders objects that Kubernetes schemas accept', () => {
      const { objects } = rendered(valuesFile);
      expect(objects.length).toBeGreaterThan(10);
      expect(validate(objects)).toEqual([]);
    });

    it('is accepted whole by kubectl kustomize', () => {
      const { manifest, objects } = rendered(valuesFile);
      const run = kustomize(manifest);
      expect({ ok: run.ok, stderr: run.stderr }).toEqual({ ok: true, stderr: '' });
      expect(objectsOf(run.stdout)).toHaveLength(objects.length);
    });

    it('has one Deployment per service, each starting its own main', () => {
      const { objects } = rendered(valuesFile);
      const deployments = ofKind(objects, 'Deployment');
      expect(deployments.map((d) => d.metadata.labels?.['app.kubernetes.io/name']).sort()).toEqual(SERVICES);
      for (const deployment of deployments) {
        const [main] = podSpecOf(deployment).containers[0].args ?? [];
        expect(main).toBe(`dist/apps/${deployment.metadata.labels?.['app.kubernetes.io/name']}/src/main.js`);
        expect(existsSync(sourceOf(main))).toBe(true);
      }
      for (const job of ofKind(objects, 'Job')) expect(existsSync(sourceOf(podSpecOf(job).containers[0].args?.[0] ?? ''))).toBe(true);
    });

    it('sets only settings the services read', () => {
      const { objects } = rendered(valuesFile);
      const set = new Set([
        ...ofKind(objects, 'ConfigMap')
          .filter((c) => !c.metadata.name.endsWith('-dashboard'))
          .flatMap((c) => Object.keys((c.data as Record<string, string> | undefined) ?? {})),
        ...[...ofKind(objects, 'Deployment'), ...ofKind(objects, 'Job')].flatMap((o) =>
          podSpecOf(o).containers.flatMap((c) => (c.env ?? []).map((e) => e.name)),
        ),
        ...ofKind(objects, 'Secret').flatMap((s) => Object.keys((s.stringData as Record<string, string> | undefined) ?? {})),
      ]);
      expect(set.size).toBeGreaterThan(15);
      expect([...set].filter((key) => !CONFIG_KEYS.includes(key))).toEqual([]);
    });
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
