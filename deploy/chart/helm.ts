import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { parseAllDocuments } from 'yaml';

export const ROOT = path.resolve(__dirname, '../..');
export const CHART = path.join(ROOT, 'helm/candidate-search');
/** chart-testing's convention: each file here is one install CI renders and lints. */
export const CI_VALUES = readdirSync(path.join(CHART, 'ci'))
  .filter((file) => file.endsWith('.yaml'))
  .sort();

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

/** helm 3.17.2 from the pinned npm package (scripts/helm.sh extracts it once). */
export const HELM = execFileSync('bash', [path.join(ROOT, 'scripts/helm.sh')], { encoding: 'utf8' }).trim();

export interface HelmRun {
  ok: boolean;
  stdout: string;
  stderr: string;
}

export function helm(args: string[]): HelmRun {
  const run = spawnSync(HELM, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { ok: run.status === 0, stdout: run.stdout, stderr: run.stderr };
}

const valuesArgs = (valuesFile: string | undefined, sets: string[]) => [
  ...(valuesFile ? ['-f', path.join(CHART, 'ci', valuesFile)] : []),
  ...sets.flatMap((set) => ['--set', set]),
];

export const lint = (valuesFile: string, sets: string[] = []) => helm(['lint', '--strict', CHART, ...valuesArgs(valuesFile, sets)]);

export const template = (valuesFile: string | undefined, sets: string[] = []) =>
  helm(['template', 'cs', CHART, '--namespace', 'search', ...valuesArgs(valuesFile, sets)]);

/** Every object of a render; duplicate keys in a map fail the parse, as they fail kubectl. */
export function objectsOf(manifest: string): K8sObject[] {
  return parseAllDocuments(manifest)
    .map((doc) => {
      if (doc.errors.length) throw new Error(doc.errors.map((e) => e.message).join('\n'));
      return doc.toJS() as K8sObject | null;
    })
    .filter((object): object is K8sObject => object !== null);
}

export interface Problem {
  kind: string;
  name: string;
  problem: string;
}

/** Each object against Kubernetes' schemas (kubernetes-models; validate-objects.mjs says why a child process). */
export function validate(objects: K8sObject[]): Problem[] {
  const out = execFileSync(process.execPath, [path.join(__dirname, 'validate-objects.mjs')], {
    cwd: ROOT,
    input: JSON.stringify(objects),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(out) as Problem[];
}

/** `kubectl kustomize` over the render as one resource; returns what kustomize writes. */
export function kustomize(manifest: string): HelmRun {
  const dir = mkdtempSync(path.join(tmpdir(), 'cs-chart-'));
  try {
    writeFileSync(path.join(dir, 'rendered.yaml'), manifest);
    writeFileSync(path.join(dir, 'kustomization.yaml'), 'resources:\n  - rendered.yaml\n');
    const run = spawnSync('kubectl', ['kustomize', dir], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    return { ok: run.status === 0, stdout: run.stdout, stderr: run.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * NOTES.txt as helm install prints it. helm template leaves NOTES out (and install needs a
 * cluster), so a copy of the chart renders it through tpl into a ConfigMap.
 */
export function notes(valuesFile: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'cs-notes-'));
  try {
    const chart = path.join(dir, 'candidate-search');
    cpSync(CHART, chart, { recursive: true });
    renameSync(path.join(chart, 'templates/NOTES.txt'), path.join(chart, 'notes.txt'));
    writeFileSync(
      path.join(chart, 'templates/notes.yaml'),
      '{ apiVersion: v1, kind: ConfigMap, metadata: { name: notes }, data: { notes: {{ tpl (.Files.Get "notes.txt") . | toJson }} } }\n',
    );
    const run = helm([
      'template',
      'cs',
      chart,
      '--namespace',
      'search',
      ...valuesArgs(valuesFile, []),
      '--show-only',
      'templates/notes.yaml',
    ]);
    if (!run.ok) throw new Error(run.stderr);
    return (objectsOf(run.stdout)[0].data as { notes: string }).notes;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
