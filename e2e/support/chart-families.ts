import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { ROOT } from './local-ports';

/** The families the chart's alerts and dashboard query (a histogram's parts name their histogram). */
export function chartMetricFamilies(): string[] {
  const files = path.join(ROOT, 'helm/candidate-search/files');
  const text = `${readFileSync(path.join(files, 'alerts.yaml'), 'utf8')}\n${readFileSync(path.join(files, 'dashboard.json'), 'utf8')}`;
  return [...new Set([...text.matchAll(/\b((?:cs|process|nodejs)_[a-z0-9_]+)/g)].map((m) => m[1].replace(/_(bucket|count|sum)$/, '')))];
}

/** The families a Prometheus exposition declares (its `# TYPE` lines). */
export const declaredFamilies = (exposition: string): string[] => [...exposition.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]);
