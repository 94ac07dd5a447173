// Validates Kubernetes objects against the schemas of the `kubernetes-models` packages: reads a
// JSON array of objects on stdin, prints a JSON array of problems ({ kind, name, problem }).
// A separate ES module because those packages are ES modules only, which Jest's CommonJS
// transform cannot require. Their schemas check types, enums and required fields, not unknown
// keys. KEDA's ScaledObject has no model there: a small JSON schema of ours checks its shape.
import Ajv from 'ajv';

/** Where each apiVersion's models are. */
const modelModules = {
  'monitoring.coreos.com/v1': '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1',
};
const modelModule = (apiVersion) => modelModules[apiVersion] ?? `kubernetes-models/${apiVersion}`;

/** The fields of KEDA's ScaledObject (keda.sh/v1alpha1) the chart writes, strictly. */
const scaledObjectSchema = {
  type: 'object',
  required: ['apiVersion', 'kind', 'metadata', 'spec'],
  properties: {
    apiVersion: { const: 'keda.sh/v1alpha1' },
    kind: { const: 'ScaledObject' },
    metadata: { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1 } } },
    spec: {
      type: 'object',
      additionalProperties: false,
      required: ['scaleTargetRef', 'triggers'],
      properties: {
        scaleTargetRef: {
          type: 'object',
          additionalProperties: false,
          required: ['name'],
          properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, name: { type: 'string', minLength: 1 } },
        },
        minReplicaCount: { type: 'integer', minimum: 0 },
        maxReplicaCount: { type: 'integer', minimum: 1 },
        pollingInterval: { type: 'integer', minimum: 1 },
        cooldownPeriod: { type: 'integer', minimum: 0 },
        triggers: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['type', 'metadata'],
            properties: {
              type: { const: 'nats-jetstream' },
              metadata: {
                type: 'object',
                additionalProperties: { type: 'string' },
                required: ['natsServerMonitoringEndpoint', 'account', 'stream', 'consumer', 'lagThreshold'],
              },
            },
          },
        },
      },
    },
  },
};
const validateScaledObject = new Ajv({ allErrors: true }).compile(scaledObjectSchema);

async function problemsOf(object) {
  const { apiVersion, kind } = object;
  if (apiVersion === 'keda.sh/v1alpha1' && kind === 'ScaledObject') {
    return validateScaledObject(object) ? [] : validateScaledObject.errors.map((e) => `${e.instancePath} ${e.message}`);
  }
  let models;
  try {
    models = await import(modelModule(apiVersion));
  } catch {
    return [`no model for apiVersion ${apiVersion}`];
  }
  const Model = models[kind];
  if (!Model) return [`no model for ${apiVersion} ${kind}`];
  try {
    new Model(object).validate();
    return [];
  } catch (error) {
    return [error.message];
  }
}

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const objects = JSON.parse(Buffer.concat(chunks).toString('utf8'));
const problems = [];
for (const object of objects) {
  for (const problem of await problemsOf(object)) problems.push({ kind: object.kind, name: object.metadata?.name, problem });
}
process.stdout.write(JSON.stringify(problems));
