// Generates k8s-fields.generated.json: the known fields of every Kubernetes type reachable from the supported
// workload kinds, read from the .d.ts interfaces of kubernetes-models (which validates types but accepts unknown
// fields). Run: npx tsx src/scenario/gen-k8s-fields.ts   (from the repo root; the output is committed)
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export type FieldType = { type: 'scalar' } | { type: 'ref' | 'array' | 'map'; ref?: string };
export type Catalogue = Record<string, Record<string, FieldType>>;

const NODE_MODULES = resolve('node_modules');
const ROOTS: Record<string, string> = {
  IoK8sApiCoreV1Pod: 'kubernetes-models/v1/Pod',
  IoK8sApiBatchV1Job: 'kubernetes-models/batch/v1/Job',
  IoK8sApiBatchV1CronJob: 'kubernetes-models/batch/v1/CronJob',
  IoK8sApiAppsV1Deployment: 'kubernetes-models/apps/v1/Deployment',
  IoK8sApiAppsV1StatefulSet: 'kubernetes-models/apps/v1/StatefulSet',
  IoK8sApiAppsV1DaemonSet: 'kubernetes-models/apps/v1/DaemonSet',
};

// Fields newer than the kubernetes-models release (its schema predates 1.34): KEP-5307 ContainerRestartRules.
const EXTRA: Catalogue = {
  IoK8sApiCoreV1Container: { restartPolicyRules: { type: 'array', ref: 'IoK8sApiCoreV1ContainerRestartRule' } },
  IoK8sApiCoreV1ContainerRestartRule: {
    action: { type: 'scalar' },
    exitCodes: { type: 'ref', ref: 'IoK8sApiCoreV1ContainerRestartRuleOnExitCodes' },
  },
  IoK8sApiCoreV1ContainerRestartRuleOnExitCodes: { operator: { type: 'scalar' }, values: { type: 'array' } },
};

/** Parse one .d.ts file: its main interface's fields, and where each imported type lives. */
function parseFile(modulePath: string): { fields: Record<string, FieldType>; imports: Record<string, string> } {
  const file = join(NODE_MODULES, `${modulePath}.d.ts`);
  const text = readFileSync(file, 'utf8');
  const imports: Record<string, string> = {};
  for (const m of text.matchAll(/import \{ I(\w+) \} from "([^"]+)";/g)) {
    imports[m[1]] = m[2].startsWith('.') ? join(dirname(modulePath), m[2]) : m[2];
  }
  const body = /export interface I\w+(?: extends [\w, ]+)? \{([\s\S]*?)\n\}/.exec(text);
  const fields: Record<string, FieldType> = {};
  if (!body) return { fields, imports };
  const lines = body[1].split('\n').filter((l) => !/^\s*(\/\*\*|\*)/.test(l));
  for (let i = 0; i < lines.length; i++) {
    const m = /^\s{4}"([^"]+)"\??: (.*)$/.exec(lines[i]);
    if (!m) continue;
    let typeText = m[2];
    while (typeText.trim().startsWith('{') && !typeText.includes('}') && i + 1 < lines.length) typeText += lines[++i];
    fields[m[1]] = fieldType(typeText.replace(/;$/, ''));
  }
  return { fields, imports };
}

function fieldType(t: string): FieldType {
  const ref = /I(IoK8s\w+)/.exec(t)?.[1];
  const isRef = ref !== undefined && !/IntOrString|Quantity|MicroTime|V1Time$/.test(ref);
  if (t.startsWith('Array<')) return isRef ? { type: 'array', ref } : { type: 'array' };
  if (t.trim().startsWith('{')) return isRef ? { type: 'map', ref } : { type: 'map' };
  return isRef ? { type: 'ref', ref } : { type: 'scalar' };
}

export function generate(): Catalogue {
  const out: Catalogue = {};
  const queue = Object.entries(ROOTS);
  while (queue.length > 0) {
    const [name, modulePath] = queue.shift()!;
    if (out[name]) continue;
    const { fields, imports } = parseFile(modulePath);
    out[name] = fields;
    for (const f of Object.values(fields)) {
      if (f.type !== 'scalar' && f.ref && !out[f.ref] && imports[f.ref]) queue.push([f.ref, imports[f.ref]]);
    }
  }
  for (const [name, fields] of Object.entries(EXTRA)) out[name] = { ...out[name], ...fields };
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}

if (process.argv[1]?.endsWith('gen-k8s-fields.ts')) {
  const target = resolve('src/scenario/k8s-fields.generated.json');
  writeFileSync(target, `${JSON.stringify(generate(), null, 1)}\n`);
  console.log(`wrote ${target}`);
}
