import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { CONFIG_KEYS } from '@cs/config';
import { CHART, CI_VALUES, type K8sObject, ROOT, helm, kustomize, lint, notes, objectsOf, template, validate } from './chart/helm';
import { knownMetricFamilies } from './prometheus/metric-families';

/**
 * The chart rendered by the real helm (scripts/helm.sh) for every values file in
 * helm/candidate-search/ci/: helm lint --strict, each object valid against Kubernetes' schemas,
 * the whole render accepted by kubectl kustomize, and what each render must hold.
 */
const SERVICES = ['dense', 'gateway', 'ingestion', 'reranker', 'search-orchestrator', 'sparse'];

/** Each program's Secret settings (apps/<name>/src/main.ts and what it wires); no pod gets another. */
const SECRET_SETTINGS: Record<string, string[]> = {
  gateway: ['ADMIN_TOKEN', 'DATABASE_URL', 'PRESIGN_SECRET', 'REDIS_URL', 'S3_ACCESS_KEY', 'S3_SECRET_KEY'],
  ingestion: ['DATABASE_URL', 'S3_ACCESS_KEY', 'S3_SECRET_KEY'],
  'search-orchestrator': ['DATABASE_URL'],
  dense: ['QDRANT_API_KEY', 'DENSE_API_KEY'],
  sparse: [],
  reranker: ['RERANKER_API_KEY'],
  migrate: ['DATABASE_URL'],
};
/** Referenced only when set (DENSE_API_KEY: only with a hosted dense model), so a pod may lack them. */
const OPTIONAL_SECRET_SETTINGS = ['QDRANT_API_KEY', 'RERANKER_API_KEY', 'DENSE_API_KEY'];
/** Where the dense pods see an ONNX model folder. */
const DENSE_MODEL_DIR = '/models/dense';
/** Where they see the next model's folder: an onnx model's id is its folder's name and digest, so both end in "dense". */
const DENSE_MODEL_NEXT_DIR = '/models/next/dense';
/** A hosted dense model that the schema accepts (ci/minimal-values.yaml plus these). */
const DENSE_HTTP = [
  'denseModel.kind=http',
  'denseModel.http.url=https://api.openai.com/v1',
  'denseModel.http.model=text-embedding-3-small',
  'denseModel.http.dimensions=1536',
];
/** The same hosted model as the next one (denseModelNext). */
const DENSE_NEXT_HTTP = DENSE_HTTP.map((set) => set.replace(/^denseModel\./, 'denseModelNext.'));
/** Set by the chart before the app reads it (the app does not read it yet); drop it from here when CONFIG_KEYS has it. */
const PENDING_SETTINGS = ['S3_PUBLIC_ENDPOINT'];
// OTEL_*: the OpenTelemetry SDK reads them (the README's traces section); ci/full-values.yaml sets one through extraEnv.

interface Container {
  name: string;
  image?: string;
  args?: string[];
  command?: string[];
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean } } }[];
  envFrom?: { secretRef?: unknown; configMapRef?: unknown }[];
  securityContext?: {
    allowPrivilegeEscalation?: boolean;
    readOnlyRootFilesystem?: boolean;
    runAsNonRoot?: boolean;
    privileged?: boolean;
    capabilities?: { drop?: string[]; add?: string[] };
  };
  resources?: { requests?: { memory?: string }; limits?: { memory?: string } };
  livenessProbe?: { httpGet?: { path: string; port: string } };
  readinessProbe?: { httpGet?: { path: string; port: string } };
  lifecycle?: { preStop?: { exec?: { command: string[] } } };
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean; subPath?: string }[];
}
interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  automountServiceAccountToken?: boolean;
  hostNetwork?: boolean;
  hostPID?: boolean;
  terminationGracePeriodSeconds?: number;
  securityContext?: { runAsNonRoot?: boolean; seccompProfile?: { type: string } };
  volumes?: {
    name: string;
    emptyDir?: { sizeLimit?: string };
    hostPath?: unknown;
    persistentVolumeClaim?: { claimName: string; readOnly?: boolean };
  }[];
}
const podSpecOf = (object: K8sObject): PodSpec =>
  object.kind === 'Pod' ? (object.spec as PodSpec) : (object.spec as { template: { spec: PodSpec } }).template.spec;
const templateAnnotations = (object: K8sObject) =>
  (object.spec as { template: { metadata: { annotations: Record<string, string> } } }).template.metadata.annotations;
const serviceOf = (object: K8sObject) => object.metadata.labels?.['app.kubernetes.io/name'] ?? '';
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
const templateAnnotationsOrNone = (object: K8sObject) =>
  object.kind === 'Deployment' ? templateAnnotations(object) : { 'checksum/secret': '0'.repeat(64) };

/** A render of ci/minimal-values.yaml with --set values, checked against Kubernetes' schemas like the ci/ files. */
function renderedWith(sets: string[]): K8sObject[] {
  const run = template('minimal-values.yaml', sets);
  if (!run.ok) throw new Error(`helm template --set ${sets.join(',')} failed:\n${run.stderr}`);
  const objects = objectsOf(run.stdout);
  expect(validate(objects)).toEqual([]);
  return objects;
}
const deploymentOf = (objects: K8sObject[], service: string) => {
  const deployment = ofKind(objects, 'Deployment').find((d) => serviceOf(d) === service);
  if (!deployment) throw new Error(`no ${service} Deployment`);
  return podSpecOf(deployment);
};
/** The dense container's DENSE_* settings with a value (DENSE_API_KEY comes from the Secret). */
const denseSettings = (objects: K8sObject[]) =>
  Object.fromEntries(
    (deploymentOf(objects, 'dense').containers[0].env ?? [])
      .filter((e) => e.name.startsWith('DENSE_') && e.value !== undefined)
      .map((e) => [e.name, e.value]),
  );
/** Services other than dense whose containers or ConfigMap carry a DENSE_* setting but the gRPC address. */
const denseSettingsElsewhere = (objects: K8sObject[]) => [
  ...ofKind(objects, 'Deployment')
    .filter((d) => serviceOf(d) !== 'dense')
    .filter((d) => podSpecOf(d).containers.some((c) => (c.env ?? []).some((e) => e.name.startsWith('DENSE_'))))
    .map(serviceOf),
  ...ofKind(objects, 'ConfigMap').flatMap((c) =>
    Object.keys((c.data as Record<string, string> | undefined) ?? {}).filter(
      (key) => key.startsWith('DENSE_') && key !== 'DENSE_GRPC_ADDRESS',
    ),
  ),
];
type EgressRule = { to?: unknown[]; ports: { port: number | string; protocol?: string }[] };
const egressOf = (objects: K8sObject[], service: string) =>
  (ofKind(objects, 'NetworkPolicy').find((p) => serviceOf(p) === service)?.spec as { egress: EgressRule[] }).egress;

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
      expect([...set].filter((key) => !CONFIG_KEYS.includes(key) && !PENDING_SETTINGS.includes(key) && !key.startsWith('OTEL_'))).toEqual(
        [],
      );
    });

    it('runs every pod under the restricted Pod Security Standard, with memory requests and limits', () => {
      const { objects } = rendered(valuesFile);
      const pods = objects.filter((o) => ['Deployment', 'Job', 'Pod'].includes(o.kind));
      expect(pods.length).toBeGreaterThanOrEqual(7);
      for (const pod of pods) {
        const spec = podSpecOf(pod);
        const where = `${pod.kind} ${pod.metadata.name}`;
        expect({ where, automount: spec.automountServiceAccountToken }).toEqual({ where, automount: false });
        expect({ where, seccomp: spec.securityContext?.seccompProfile?.type, nonRoot: spec.securityContext?.runAsNonRoot }).toEqual({
          where,
          seccomp: 'RuntimeDefault',
          nonRoot: true,
        });
        expect({ where, hostNetwork: spec.hostNetwork ?? false, hostPID: spec.hostPID ?? false }).toEqual({
          where,
          hostNetwork: false,
          hostPID: false,
        });
        expect((spec.volumes ?? []).filter((v) => v.hostPath)).toEqual([]);
        for (const container of [...spec.containers, ...(spec.initContainers ?? [])]) {
          const context = container.securityContext;
          expect({ where, container: container.name, context }).toEqual({
            where,
            container: container.name,
            context: expect.objectContaining({
              allowPrivilegeEscalation: false,
              readOnlyRootFilesystem: true,
              runAsNonRoot: true,
            }) as unknown,
          });
          expect(context?.privileged ?? false).toBe(false);
          expect(context?.capabilities?.drop).toContain('ALL');
          expect(context?.capabilities?.add ?? []).toEqual([]);
          expect({ where, request: container.resources?.requests?.memory, limit: container.resources?.limits?.memory }).toEqual({
            where,
            request: expect.stringMatching(/^\d+[MG]i$/) as unknown,
            limit: expect.stringMatching(/^\d+[MG]i$/) as unknown,
          });
        }
      }
      for (const job of ofKind(objects, 'Job')) {
        expect(job.spec).toEqual(
          expect.objectContaining({
            activeDeadlineSeconds: expect.any(Number) as unknown,
            ttlSecondsAfterFinished: expect.any(Number) as unknown,
            backoffLimit: expect.any(Number) as unknown,
          }),
        );
      }
    });

    it('gives each pod only the Secret keys its program reads', () => {
      const { objects } = rendered(valuesFile);
      for (const pod of [...ofKind(objects, 'Deployment'), ...ofKind(objects, 'Job')]) {
        const program = pod.kind === 'Job' ? 'migrate' : serviceOf(pod);
        for (const container of podSpecOf(pod).containers) {
          expect((container.envFrom ?? []).filter((source) => source.secretRef)).toEqual([]);
          const fromSecret = (container.env ?? []).filter((e) => e.valueFrom?.secretKeyRef).map((e) => e.name);
          expect({ program, fromSecret: fromSecret.filter((name) => !SECRET_SETTINGS[program].includes(name)) }).toEqual({
            program,
            fromSecret: [],
          });
          const required = SECRET_SETTINGS[program].filter((name) => !OPTIONAL_SECRET_SETTINGS.includes(name));
          expect({ program, missing: required.filter((name) => !fromSecret.includes(name)) }).toEqual({ program, missing: [] });
        }
        expect(templateAnnotationsOrNone(pod)).toEqual(
          expect.objectContaining({ 'checksum/secret': expect.stringMatching(/^[0-9a-f]{64}$/) as unknown }),
        );
      }
      for (const secret of ofKind(objects, 'Secret')) expect(secret.metadata.annotations?.['helm.sh/hook']).toBeUndefined();
    });

    it('lets pods finish their work before SIGKILL, and probes the queue consumers: ready on /healthz, alive on /livez', () => {
      const { objects } = rendered(valuesFile);
      const config = ofKind(objects, 'ConfigMap').find((c) => !c.metadata.name.endsWith('-dashboard'))?.data as Record<string, string>;
      expect(config.METRICS_PORT).toMatch(/^\d+$/);
      for (const deployment of ofKind(objects, 'Deployment')) {
        const spec = podSpecOf(deployment);
        const [container] = spec.containers;
        const pause = Number(container.lifecycle?.preStop?.exec?.command[1]);
        // preStop, DRAIN_MS, SHUTDOWN_GRACE_MS and the 15 s bound of closing.
        expect(spec.terminationGracePeriodSeconds).toBeGreaterThan(
          pause + Number(config.DRAIN_MS) / 1000 + Number(config.SHUTDOWN_GRACE_MS) / 1000 + 15,
        );
        if (['ingestion', 'search-orchestrator'].includes(serviceOf(deployment))) {
          // A NATS outage makes them unready, not dead: only a process that gave up fails /livez.
          expect(container.readinessProbe?.httpGet).toEqual({ path: '/healthz', port: 'metrics' });
          expect(container.livenessProbe?.httpGet).toEqual({ path: '/livez', port: 'metrics' });
        }
      }
    });

    it('has a helm test pod that asks the gateway for /readyz and /openapi.json', () => {
      const [test] = ofKind(rendered(valuesFile).objects, 'Pod');
      expect(test.metadata.annotations?.['helm.sh/hook']).toBe('test');
      const script = (podSpecOf(test).containers[0].args ?? []).join('\n');
      expect(script).toContain("'/readyz'");
      expect(script).toContain("'/openapi.json'");
    });

    it('prints NOTES that say how to get the admin token, create a company and call the API', () => {
      const text = notes(valuesFile);
      expect(text).toMatch(/kubectl -n search get secret \S+ -o jsonpath='\{\.data\.[-\w.]+\}' \| base64 -d/);
      expect(text).toContain('/admin/v1/companies');
      expect(text).toContain('/v1/public/');
    });
  });

  describe('the fullest render (ci/full-values.yaml)', () => {
    const full = () => rendered('full-values.yaml').objects;

    it('has six Deployments, NetworkPolicies, monitoring objects, budgets, autoscalers and KEDA', () => {
      const kinds = new Map<string, number>();
      for (const object of full()) kinds.set(object.kind, (kinds.get(object.kind) ?? 0) + 1);
      expect(kinds.get('Deployment')).toBe(6);
      expect(kinds.get('NetworkPolicy')).toBe(6);
      for (const kind of [
        'ServiceMonitor',
        'PrometheusRule',
        'PodDisruptionBudget',
        'HorizontalPodAutoscaler',
        'ScaledObject',
        'Ingress',
        'ServiceAccount',
      ]) {
        expect({ kind, present: (kinds.get(kind) ?? 0) > 0 }).toEqual({ kind, present: true });
      }
      const scaled = ofKind(full(), 'ScaledObject').map((o) => (o.spec as { scaleTargetRef: { name: string } }).scaleTargetRef.name);
      expect(scaled.sort()).toEqual(['cs-full-ingestion', 'cs-full-search-orchestrator']);
    });

    it('lets gRPC in only from the services that call it', () => {
      const callers = (service: string) => {
        const policy = ofKind(full(), 'NetworkPolicy').find((p) => p.metadata.name === `cs-full-${service}`);
        const rules = (
          policy?.spec as { ingress: { from: { podSelector?: { matchLabels: Record<string, string> } }[]; ports: { port: string }[] }[] }
        ).ingress;
        const grpc = rules.find((rule) => rule.ports.some((port) => port.port === 'grpc'));
        return (grpc?.from ?? []).map((peer) => peer.podSelector?.matchLabels['app.kubernetes.io/name']).sort();
      };
      expect(callers('dense')).toEqual(['gateway', 'ingestion', 'search-orchestrator']);
      expect(callers('sparse')).toEqual(['gateway', 'ingestion', 'search-orchestrator']);
      expect(callers('reranker')).toEqual(['search-orchestrator']);
    });

    it('lets only the gateway out to public addresses on 80 and 443 (upload-from-url and webhooks), never to private ones', () => {
      type Egress = { to?: { ipBlock?: { cidr: string; except?: string[] } }[]; ports: { port: number }[] }[];
      const publicRules = (service: string) => {
        const policy = ofKind(full(), 'NetworkPolicy').find((p) => p.metadata.name === `cs-full-${service}`);
        return (policy?.spec as { egress: Egress }).egress.filter((rule) =>
          (rule.to ?? []).some((peer) => peer.ipBlock?.cidr === '0.0.0.0/0'),
        );
      };
      const [outbound] = publicRules('gateway');
      expect(outbound.ports.map((p) => p.port).sort((a, b) => a - b)).toEqual([80, 443]);
      expect(outbound.to?.[0].ipBlock?.except).toEqual(
        expect.arrayContaining(['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '169.254.0.0/16']),
      );
      for (const service of ['ingestion', 'search-orchestrator', 'dense', 'sparse'])
        expect({ service, rules: publicRules(service) }).toEqual({ service, rules: [] });
    });

    it('carries the upload limit, several hosts and TLS on the ingress, and the public S3 address to the gateway', () => {
      const [ingress] = ofKind(full(), 'Ingress');
      expect(ingress.metadata.annotations?.['nginx.ingress.kubernetes.io/proxy-body-size']).toBe('11m');
      const spec = ingress.spec as { rules: { host: string }[]; tls: unknown[] };
      expect(spec.rules.map((r) => r.host)).toEqual(['cv-search.example.com', 'cv-search.example.org']);
      expect(spec.tls).toHaveLength(1);
      const gateway = ofKind(full(), 'Deployment').find((d) => serviceOf(d) === 'gateway');
      expect(podSpecOf(gateway!).containers[0].env).toContainEqual({
        name: 'S3_PUBLIC_ENDPOINT',
        value: 'https://files.cv-search.example.com',
      });
    });
  });

  describe('the dense model (denseModel), set on the dense pods only', () => {
    it('is the builtin one by default: DENSE_MODEL=builtin, no model volume, no init container', () => {
      const { objects } = rendered('minimal-values.yaml');
      expect(denseSettings(objects)).toEqual({ DENSE_MODEL: 'builtin' });
      const dense = deploymentOf(objects, 'dense');
      expect(dense.initContainers).toBeUndefined();
      expect((dense.volumes ?? []).map((v) => v.name).sort()).toEqual(['data', 'tmp']);
      expect(denseSettingsElsewhere(objects)).toEqual([]);
    });

    it('mounts an existing claim read-only at /models/dense for onnx, at its subPath', () => {
      const objects = renderedWith([
        'denseModel.kind=onnx',
        'denseModel.onnx.existingClaim=dense-models',
        'denseModel.onnx.subPath=e5-base',
      ]);
      expect(denseSettings(objects)).toEqual({
        DENSE_MODEL: `onnx:${DENSE_MODEL_DIR}`,
        DENSE_ONNX_MAX_TOKENS: '256',
        DENSE_ONNX_THREADS: '1',
        DENSE_BATCH_SIZE: '32',
      });
      const dense = deploymentOf(objects, 'dense');
      expect(dense.initContainers).toBeUndefined();
      expect(dense.volumes).toContainEqual({ name: 'dense-model', persistentVolumeClaim: { claimName: 'dense-models', readOnly: true } });
      expect(dense.containers[0].volumeMounts).toContainEqual({
        name: 'dense-model',
        mountPath: DENSE_MODEL_DIR,
        readOnly: true,
        subPath: 'e5-base',
      });
      expect(denseSettingsElsewhere(objects)).toEqual([]);
      for (const service of SERVICES.filter((s) => s !== 'dense'))
        expect({ service, volumes: (deploymentOf(objects, service).volumes ?? []).map((v) => v.name) }).toEqual({
          service,
          volumes: ['data', 'tmp'],
        });
    });

    it("copies the model folder from the operator's image into an emptyDir for onnx (ci/dense-onnx-image-values.yaml)", () => {
      const { objects } = rendered('dense-onnx-image-values.yaml');
      expect(denseSettings(objects)).toEqual({
        DENSE_MODEL: `onnx:${DENSE_MODEL_DIR}`,
        DENSE_ONNX_MAX_TOKENS: '512',
        DENSE_ONNX_THREADS: '2',
        DENSE_BATCH_SIZE: '32',
        DENSE_QUERY_PREFIX: 'query: ',
        DENSE_PASSAGE_PREFIX: 'passage: ',
      });
      const dense = deploymentOf(objects, 'dense');
      const [copy] = dense.initContainers ?? [];
      expect(copy.image).toBe('registry.example.com/models/multilingual-e5-base:2024-06');
      expect(copy.command).toEqual(['cp', '-R', '/model/.', DENSE_MODEL_DIR]);
      expect(copy.volumeMounts).toEqual([{ name: 'dense-model', mountPath: DENSE_MODEL_DIR }]);
      expect(dense.volumes).toContainEqual({ name: 'dense-model', emptyDir: { sizeLimit: '2Gi' } });
      expect(dense.containers[0].volumeMounts).toContainEqual({ name: 'dense-model', mountPath: DENSE_MODEL_DIR, readOnly: true });
      expect(denseSettingsElsewhere(objects)).toEqual([]);
    });

    it("sets a hosted API's settings and its key from an existing Secret's own key name (ci/dense-http-values.yaml)", () => {
      const { objects } = rendered('dense-http-values.yaml');
      expect(denseSettings(objects)).toEqual({
        DENSE_MODEL: 'http:openai',
        DENSE_API_URL: 'https://api.openai.com/v1',
        DENSE_API_MODEL: 'text-embedding-3-small',
        DENSE_API_DIMENSIONS: '1536',
        DENSE_API_TIMEOUT_MS: '15000',
        DENSE_API_ATTEMPTS: '4',
        DENSE_BATCH_SIZE: '32',
      });
      const dense = deploymentOf(objects, 'dense');
      expect(dense.containers[0].env).toContainEqual({
        name: 'DENSE_API_KEY',
        valueFrom: { secretKeyRef: { name: 'search-credentials', key: 'openai-api-key', optional: true } },
      });
      expect((dense.volumes ?? []).map((v) => v.name).sort()).toEqual(['data', 'tmp']);
      expect(denseSettingsElsewhere(objects)).toEqual([]);
    });

    it("reads a hosted API's key from the chart's Secret, and a changed key rolls the dense pods alone", () => {
      const objects = renderedWith([...DENSE_HTTP, 'secret.values.DENSE_API_KEY=sk-one']);
      const [secret] = ofKind(objects, 'Secret');
      expect((secret.stringData as Record<string, string>).DENSE_API_KEY).toBe('sk-one');
      expect(deploymentOf(objects, 'dense').containers[0].env).toContainEqual({
        name: 'DENSE_API_KEY',
        valueFrom: { secretKeyRef: { name: secret.metadata.name, key: 'DENSE_API_KEY', optional: true } },
      });
      const checksums = (sets: string[]) =>
        new Map(
          ofKind(objectsOf(template('minimal-values.yaml', sets).stdout), 'Deployment').map((d) => [
            serviceOf(d),
            templateAnnotations(d)['checksum/secret'],
          ]),
        );
      const before = checksums([...DENSE_HTTP, 'secret.values.DENSE_API_KEY=sk-one']);
      const after = checksums([...DENSE_HTTP, 'secret.values.DENSE_API_KEY=sk-two']);
      expect(SERVICES.filter((s) => before.get(s) !== after.get(s))).toEqual(['dense']);
    });

    it('gives no pod the API key of a model that is not hosted', () => {
      const objects = renderedWith(['secret.values.DENSE_API_KEY=sk-unused']);
      expect(deploymentOf(objects, 'dense').containers[0].env?.map((e) => e.name)).not.toContain('DENSE_API_KEY');
    });

    it('lets the dense pods out to the embeddings API (networkPolicy.egress.denseApi) only with kind http', () => {
      const http = rendered('dense-http-values.yaml').objects;
      const denseApi = {
        to: [{ ipBlock: { cidr: '0.0.0.0/0', except: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'] } }],
        ports: [{ port: 443, protocol: 'TCP' }],
      };
      expect(egressOf(http, 'dense')).toContainEqual(denseApi);
      for (const service of SERVICES.filter((s) => s !== 'dense'))
        expect({ service, denseApi: egressOf(http, service).filter((rule) => JSON.stringify(rule) === JSON.stringify(denseApi)) }).toEqual({
          service,
          denseApi: [],
        });
      // Neither the builtin model (full-values.yaml) nor an ONNX one reaches out on 443.
      for (const valuesFile of ['full-values.yaml', 'dense-onnx-image-values.yaml']) {
        const ports = egressOf(rendered(valuesFile).objects, 'dense').flatMap((rule) => rule.ports.map((p) => p.port));
        expect({ valuesFile, ports }).toEqual({ valuesFile, ports: expect.not.arrayContaining([443]) as unknown });
      }
    });

    describe('refuses', () => {
      const refusal = (sets: string[]) => {
        const run = template('minimal-values.yaml', sets);
        expect(run.ok).toBe(false);
        return run.stderr;
      };

      it('an unknown kind', () => {
        expect(refusal(['denseModel.kind=sbert'])).toMatch(
          /denseModel\.kind: denseModel\.kind must be one of the following: "builtin", "onnx", "http"/,
        );
      });

      it('onnx without a model folder, or with two', () => {
        expect(refusal(['denseModel.kind=onnx'])).toMatch(/denseModel\.onnx: Must validate one and only one schema/);
        expect(
          refusal(['denseModel.kind=onnx', 'denseModel.onnx.existingClaim=dense-models', 'denseModel.onnx.image.repository=models/e5']),
        ).toMatch(/denseModel\.onnx: Must validate one and only one schema/);
      });

      it('http without its url, its dimensions, or (but with tei) its model', () => {
        const without = (key: string) => DENSE_HTTP.filter((set) => !set.startsWith(`denseModel.http.${key}=`));
        expect(refusal(without('url'))).toMatch(/denseModel\.http\.url: String length must be greater than or equal to 1/);
        expect(refusal(without('dimensions'))).toMatch(/denseModel\.http\.dimensions: Invalid type\. Expected: integer, given: null/);
        expect(refusal(without('model'))).toMatch(/denseModel\.http\.model: String length must be greater than or equal to 1/);
        expect(
          template('minimal-values.yaml', [...without('model'), 'denseModel.http.provider=tei', 'denseModel.http.url=http://tei:8080']).ok,
        ).toBe(true);
        expect(refusal([...DENSE_HTTP, 'denseModel.http.dimensions=0'])).toMatch(
          /denseModel\.http\.dimensions: Must be greater than or equal to 1/,
        );
      });

      it('the same checks without the schema (--skip-schema-validation), in words', () => {
        const run = (sets: string[]) =>
          helm([
            'template',
            'cs',
            CHART,
            '--skip-schema-validation',
            ...['-f', path.join(CHART, 'ci/minimal-values.yaml')],
            ...sets.flatMap((set) => ['--set', set]),
          ]);
        expect(run(['denseModel.kind=onnx']).stderr).toContain('denseModel.kind onnx: set one of denseModel.onnx.existingClaim');
        expect(run(['denseModel.kind=http']).stderr).toContain('denseModel.kind http: denseModel.http.url is required');
      });

      it('DENSE_* settings in env, which would reach the other pods', () => {
        expect(refusal(['env.DENSE_MODEL=builtin'])).toContain("env.DENSE_MODEL: the dense encoder's settings are denseModel's");
        expect(refusal(['services.dense.env.DENSE_ONNX_THREADS=4'])).toContain('services.dense.env.DENSE_ONNX_THREADS');
      });
    });
  });

  describe('a dense model change (denseModelNext): DENSE_MODEL_NEXT beside DENSE_MODEL on the dense pods', () => {
    const ONNX_FROM_CLAIM = ['denseModel.kind=onnx', 'denseModel.onnx.existingClaim=dense-models', 'denseModel.onnx.subPath=e5-base'];

    it('mounts the next onnx folder from its own claim read-only at /models/next/dense, beside the current one', () => {
      const objects = renderedWith([
        ...ONNX_FROM_CLAIM,
        'denseModelNext.kind=onnx',
        'denseModelNext.onnx.existingClaim=dense-models',
        'denseModelNext.onnx.subPath=e5-large',
      ]);
      expect(denseSettings(objects)).toEqual({
        DENSE_MODEL: `onnx:${DENSE_MODEL_DIR}`,
        DENSE_MODEL_NEXT: `onnx:${DENSE_MODEL_NEXT_DIR}`,
        DENSE_ONNX_MAX_TOKENS: '256',
        DENSE_ONNX_THREADS: '1',
        DENSE_BATCH_SIZE: '32',
      });
      const dense = deploymentOf(objects, 'dense');
      expect(dense.initContainers).toBeUndefined();
      expect(dense.volumes).toContainEqual({
        name: 'dense-model-next',
        persistentVolumeClaim: { claimName: 'dense-models', readOnly: true },
      });
      expect(dense.containers[0].volumeMounts).toEqual(
        expect.arrayContaining([
          { name: 'dense-model', mountPath: DENSE_MODEL_DIR, readOnly: true, subPath: 'e5-base' },
          { name: 'dense-model-next', mountPath: DENSE_MODEL_NEXT_DIR, readOnly: true, subPath: 'e5-large' },
        ]),
      );
      expect(denseSettingsElsewhere(objects)).toEqual([]);
      // Moved to denseModel after the reindex, the folder keeps its name, and the model its id.
      expect(path.basename(DENSE_MODEL_NEXT_DIR)).toBe(path.basename(DENSE_MODEL_DIR));
    });

    it('copies the next onnx folder from its image by a second init container into its own emptyDir (ci/dense-model-change-values.yaml)', () => {
      const { objects } = rendered('dense-model-change-values.yaml');
      expect(denseSettings(objects)).toEqual({
        DENSE_MODEL: `onnx:${DENSE_MODEL_DIR}`,
        DENSE_MODEL_NEXT: `onnx:${DENSE_MODEL_NEXT_DIR}`,
        DENSE_ONNX_MAX_TOKENS: '512',
        DENSE_ONNX_THREADS: '2',
        DENSE_BATCH_SIZE: '32',
        DENSE_QUERY_PREFIX: 'query: ',
        DENSE_PASSAGE_PREFIX: 'passage: ',
      });
      const dense = deploymentOf(objects, 'dense');
      // The current model comes from its claim: the only copy is the next one's.
      expect(
        dense.initContainers?.map((c) => ({ name: c.name, image: c.image, command: c.command, volumeMounts: c.volumeMounts })),
      ).toEqual([
        {
          name: 'dense-model-next',
          image: 'registry.example.com/models/multilingual-e5-large:2024-09',
          command: ['cp', '-R', '/model/.', DENSE_MODEL_NEXT_DIR],
          volumeMounts: [{ name: 'dense-model-next', mountPath: DENSE_MODEL_NEXT_DIR }],
        },
      ]);
      expect(dense.volumes).toEqual(
        expect.arrayContaining([
          { name: 'dense-model', persistentVolumeClaim: { claimName: 'dense-models', readOnly: true } },
          { name: 'dense-model-next', emptyDir: { sizeLimit: '3Gi' } },
        ]),
      );
      expect(dense.containers[0].volumeMounts).toContainEqual({
        name: 'dense-model-next',
        mountPath: DENSE_MODEL_NEXT_DIR,
        readOnly: true,
      });
      expect(denseSettingsElsewhere(objects)).toEqual([]);
    });

    it('copies both folders when both come from images', () => {
      const objects = renderedWith([
        'denseModel.kind=onnx',
        'denseModel.onnx.image.repository=models/e5-base',
        'denseModelNext.kind=onnx',
        'denseModelNext.onnx.image.repository=models/e5-large',
      ]);
      const dense = deploymentOf(objects, 'dense');
      expect(dense.initContainers?.map((c) => [c.name, c.image])).toEqual([
        ['dense-model', 'models/e5-base:latest'],
        ['dense-model-next', 'models/e5-large:latest'],
      ]);
    });

    it('sets only DENSE_MODEL_NEXT=builtin for a builtin next model: no volume, no init container', () => {
      const objects = renderedWith([...ONNX_FROM_CLAIM, 'denseModelNext.kind=builtin']);
      expect(denseSettings(objects)).toMatchObject({ DENSE_MODEL: `onnx:${DENSE_MODEL_DIR}`, DENSE_MODEL_NEXT: 'builtin' });
      const dense = deploymentOf(objects, 'dense');
      expect(dense.initContainers).toBeUndefined();
      expect((dense.volumes ?? []).map((v) => v.name).sort()).toEqual(['data', 'dense-model', 'tmp']);
    });

    it("gives a hosted next model the API's settings, its key, and the egress to it (networkPolicy.egress.denseApi)", () => {
      const objects = renderedWith([...DENSE_NEXT_HTTP, 'secret.values.DENSE_API_KEY=sk-next', 'networkPolicy.enabled=true']);
      expect(denseSettings(objects)).toEqual({
        DENSE_MODEL: 'builtin',
        DENSE_MODEL_NEXT: 'http:openai',
        DENSE_API_URL: 'https://api.openai.com/v1',
        DENSE_API_MODEL: 'text-embedding-3-small',
        DENSE_API_DIMENSIONS: '1536',
        DENSE_API_TIMEOUT_MS: '10000',
        DENSE_API_ATTEMPTS: '4',
        DENSE_BATCH_SIZE: '32',
      });
      expect(deploymentOf(objects, 'dense').containers[0].env?.map((e) => e.name)).toContain('DENSE_API_KEY');
      expect(egressOf(objects, 'dense')).toContainEqual({ ports: [{ port: 443, protocol: 'TCP' }] });
      // Without a hosted model on either side, no 443.
      const ports = egressOf(
        renderedWith([...ONNX_FROM_CLAIM, 'denseModelNext.kind=builtin', 'networkPolicy.enabled=true']),
        'dense',
      ).flatMap((rule) => rule.ports.map((p) => p.port));
      expect(ports).not.toContain(443);
    });

    describe('refuses', () => {
      const refusal = (sets: string[], skipSchema = false) => {
        const run = helm([
          'template',
          'cs',
          CHART,
          ...(skipSchema ? ['--skip-schema-validation'] : []),
          ...['-f', path.join(CHART, 'ci/minimal-values.yaml')],
          ...sets.flatMap((set) => ['--set', set]),
        ]);
        expect(run.ok).toBe(false);
        return run.stderr;
      };

      it('two hosted models, which would share one set of DENSE_API_* settings', () => {
        const both = [
          ...DENSE_HTTP,
          ...DENSE_NEXT_HTTP.filter((set) => !set.startsWith('denseModelNext.http.model=')),
          'denseModelNext.http.model=text-embedding-3-large',
        ];
        expect(refusal(both)).toMatch(/denseModelNext\.kind must be one of the following: "none", "builtin", "onnx"/);
        expect(refusal(both, true)).toContain(
          'denseModel and denseModelNext are both http: the dense service reads one set of DENSE_API_* settings',
        );
        // Even with the same settings (one model twice), and with another provider.
        expect(refusal([...DENSE_HTTP, ...DENSE_NEXT_HTTP], true)).toContain('are both http');
        expect(refusal([...DENSE_HTTP, ...DENSE_NEXT_HTTP, 'denseModelNext.http.provider=voyage'], true)).toContain('are both http');
      });

      it("denseModel's own model again", () => {
        expect(refusal(['denseModelNext.kind=builtin'])).toContain("denseModelNext names denseModel's own model (builtin)");
        expect(
          refusal([
            ...ONNX_FROM_CLAIM,
            'denseModelNext.kind=onnx',
            'denseModelNext.onnx.existingClaim=dense-models',
            'denseModelNext.onnx.subPath=e5-base',
          ]),
        ).toContain("denseModelNext names denseModel's own model (onnx)");
        const image = (at: string) => [`${at}.kind=onnx`, `${at}.onnx.image.repository=models/e5`, `${at}.onnx.image.tag=v1`];
        expect(refusal([...image('denseModel'), ...image('denseModelNext')])).toContain(
          "denseModelNext names denseModel's own model (onnx)",
        );
        // Another tag of the same image is another model.
        expect(
          template('minimal-values.yaml', [...image('denseModel'), ...image('denseModelNext'), 'denseModelNext.onnx.image.tag=v2']).ok,
        ).toBe(true);
      });

      it('a next model without its folder, or http without its url, in the schema and in words', () => {
        expect(refusal(['denseModelNext.kind=onnx'])).toMatch(/denseModelNext\.onnx: Must validate one and only one schema/);
        expect(refusal(['denseModelNext.kind=onnx'], true)).toContain(
          'denseModelNext.kind onnx: set one of denseModelNext.onnx.existingClaim',
        );
        expect(refusal(['denseModelNext.kind=http'])).toMatch(
          /denseModelNext\.http\.url: String length must be greater than or equal to 1/,
        );
        expect(refusal(['denseModelNext.kind=http'], true)).toContain('denseModelNext.kind http: denseModelNext.http.url is required');
        expect(refusal(['denseModelNext.kind=sbert'])).toMatch(
          /denseModelNext\.kind must be one of the following: "none", "builtin", "onnx", "http"/,
        );
      });
    });
  });

  describe('refuses to render', () => {
    it('a misspelled top-level value, naming it', () => {
      const run = template('minimal-values.yaml', ['replicaCount=3']);
      expect(run.ok).toBe(false);
      expect(run.stderr).toMatch(/\(root\): Additional property replicaCount is not allowed/);
    });

    it('a misspelled value further down', () => {
      const run = template('minimal-values.yaml', ['services.gateway.replica=3']);
      expect(run.ok).toBe(false);
      expect(run.stderr).toMatch(/services\.gateway: Additional property replica is not allowed/);
    });

    it('without ADMIN_TOKEN or PRESIGN_SECRET, unless existingSecret is given', () => {
      for (const key of ['ADMIN_TOKEN', 'PRESIGN_SECRET']) {
        const run = template('minimal-values.yaml', [`secret.values.${key}=`]);
        expect(run.ok).toBe(false);
        expect(run.stderr).toContain(`secret.values.${key}`);
      }
      expect(template('minimal-values.yaml', ['secret.values.ADMIN_TOKEN=', 'secret.existingSecret=mine']).ok).toBe(true);
    });
  });

  it('rolls only the pods whose Secret settings changed', () => {
    const checksums = (sets: string[]) => {
      const run = template('minimal-values.yaml', sets);
      return new Map(ofKind(objectsOf(run.stdout), 'Deployment').map((d) => [serviceOf(d), templateAnnotations(d)['checksum/secret']]));
    };
    const before = checksums([]);
    const after = checksums(['secret.values.RERANKER_API_KEY=another-key']);
    expect(SERVICES.filter((s) => before.get(s) !== after.get(s))).toEqual(['reranker']);
  });

  it('documents every value in values.yaml, and helm/README.md has the current values table', () => {
    const check = spawnSync(process.execPath, [path.join(ROOT, 'scripts/helm-values-table.js'), '--check'], { encoding: 'utf8' });
    expect({ status: check.status, stderr: check.stderr }).toEqual({ status: 0, stderr: '' });
    const documented = [...readFileSync(path.join(ROOT, 'helm/README.md'), 'utf8').matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]);
    const leaves = (value: unknown, prefix: string): string[] =>
      documented.includes(prefix) || value === null || typeof value !== 'object' || Array.isArray(value)
        ? [prefix]
        : Object.entries(value).flatMap(([key, inner]) => leaves(inner, prefix ? `${prefix}.${key}` : key));
    const values: unknown = parse(readFileSync(path.join(CHART, 'values.yaml'), 'utf8'));
    expect(leaves(values, '').filter((leaf) => !documented.includes(leaf))).toEqual([]);
  });

  it('alerts and charts only on metrics the services export', async () => {
    const exported = await knownMetricFamilies();
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
