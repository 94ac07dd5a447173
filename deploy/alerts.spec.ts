import { existsSync, readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { familyOf, knownMetricFamilies, selectedNames } from './prometheus/metric-families';

/**
 * What promtool does not check: every alert can be acted on (a severity, a summary, a
 * description and a runbook in docs/runbooks that says how), every runbook belongs to an alert,
 * every alert has a unit test that makes it fire, and the rules read only metrics that exist.
 */
const ROOT = path.resolve(__dirname, '..');
const RUNBOOKS = path.join(ROOT, 'docs/runbooks');

interface Rule {
  alert?: string;
  record?: string;
  expr: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
interface RuleTest {
  name: string;
  alert_rule_test?: { alertname: string; exp_alerts: unknown[] }[];
}
const readYaml = (file: string): unknown => parse(readFileSync(path.join(ROOT, file), 'utf8'));
const rules = (readYaml('helm/candidate-search/files/alerts.yaml') as { groups: { rules: Rule[] }[] }).groups.flatMap((g) => g.rules);
const alerts = rules.filter((rule): rule is Rule & { alert: string } => rule.alert !== undefined);
const records = new Set(rules.flatMap((rule) => (rule.record ? [rule.record] : [])));
const tests = readYaml('deploy/prometheus/alerts.test.yaml') as { rule_files: string[]; tests: RuleTest[] };
const runbooks = readdirSync(RUNBOOKS).filter((file) => file.endsWith('.md') && file !== 'README.md');

describe('the alerting rules', () => {
  it('are many, with unique names', () => {
    expect(alerts.length).toBeGreaterThan(10);
    expect(new Set(alerts.map((a) => a.alert)).size).toBe(alerts.length);
  });

  it.each(alerts.map((a) => [a.alert, a] as const))('%s has a severity, a summary, a description and its runbook', (name, alert) => {
    expect(['critical', 'warning']).toContain(alert.labels?.severity);
    expect(alert.annotations?.summary?.length).toBeGreaterThan(20);
    expect(alert.annotations?.description?.length).toBeGreaterThan(20);
    // The chart replaces the token with metrics.prometheusRule.runbookBaseUrl.
    expect(alert.annotations?.runbook_url).toBe(`__RUNBOOK_BASE_URL__/${name}.md`);
    expect(existsSync(path.join(RUNBOOKS, `${name}.md`))).toBe(true);
  });

  it('have no runbook without an alert', () => {
    expect(runbooks.filter((file) => !alerts.some((a) => `${a.alert}.md` === file))).toEqual([]);
  });

  it.each(runbooks)('runbook %s says the symptom, the impact, how to diagnose (PromQL and logs) and mitigate', (file) => {
    const text = readFileSync(path.join(RUNBOOKS, file), 'utf8');
    expect(text.startsWith(`# ${file.replace(/\.md$/, '')}\n`)).toBe(true);
    for (const heading of ['## Symptom', '## Impact', '## Diagnosis', '## Mitigation']) expect(text).toContain(`\n${heading}\n`);
    expect(text).toContain('```promql');
    expect(text).toMatch(/```(?:sh|logql)\n[^`]*(?:jq|kubectl logs|\| json)/);
  });

  it('each fire in a promtool unit test', () => {
    expect(tests.rule_files).toEqual(['../../helm/candidate-search/files/alerts.yaml']);
    const fired = new Set(
      tests.tests.flatMap((t) => (t.alert_rule_test ?? []).filter((c) => c.exp_alerts.length > 0).map((c) => c.alertname)),
    );
    expect(alerts.map((a) => a.alert).filter((name) => !fired.has(name))).toEqual([]);
  });

  it('and the burn-rate alerts each stay quiet in one', () => {
    const quiet = new Set(
      tests.tests.flatMap((t) => (t.alert_rule_test ?? []).filter((c) => c.exp_alerts.length === 0).map((c) => c.alertname)),
    );
    const burnRate = alerts.map((a) => a.alert).filter((name) => name.includes('Budget'));
    expect(burnRate).toHaveLength(4);
    expect(burnRate.filter((name) => !quiet.has(name))).toEqual([]);
  });

  it('read only metrics the services export, or rules recorded here', async () => {
    const known = await knownMetricFamilies();
    const names = rules.flatMap((rule) => selectedNames(rule.expr));
    expect(names).toContain('cs_queue_oldest_job_age_seconds');
    expect(names.filter((name) => !known.has(familyOf(name)) && !records.has(name))).toEqual([]);
  });

  it('are rendered with the runbook base from values', () => {
    const template = readFileSync(path.join(ROOT, 'helm/candidate-search/templates/prometheusrule.yaml'), 'utf8');
    expect(template).toContain('replace "__RUNBOOK_BASE_URL__" (.Values.metrics.prometheusRule.runbookBaseUrl');
    const values = readYaml('helm/candidate-search/values.yaml') as { metrics: { prometheusRule: { runbookBaseUrl: string } } };
    expect(values.metrics.prometheusRule.runbookBaseUrl).toMatch(/^https:\/\/.+\/docs\/runbooks$/);
  });
});
