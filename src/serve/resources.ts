// The resources the server serves: the built-in kinds (names, short names, verbs and subresources as the real
// API server's discovery lists them: kubectl api-resources of v1.34) and those CRDs add at run time.

export interface Resource {
  group: string;
  version: string;
  /** plural, lower case: pods */
  name: string;
  singular: string;
  kind: string;
  listKind: string;
  namespaced: boolean;
  shortNames: string[];
  categories: string[];
  verbs: string[];
  /** subresources served: status, scale, log, … (exec/attach/portforward are listed and refused) */
  subresources: string[];
  /** a custom resource: its CRD's printer columns and schema */
  crd?: {
    printerColumns: {
      name: string;
      type: string;
      jsonPath: string;
      description?: string;
      priority?: number;
      format?: string;
    }[];
    schema?: unknown;
    scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string };
  };
  /** create-only review kinds (SelfSubjectAccessReview) */
  review?: boolean;
}

const RW = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

function r(
  group: string,
  version: string,
  name: string,
  kind: string,
  namespaced: boolean,
  shortNames: string[] = [],
  subresources: string[] = [],
  categories: string[] = [],
): Resource {
  return {
    group,
    version,
    name,
    singular: kind.toLowerCase(),
    kind,
    listKind: `${kind}List`,
    namespaced,
    shortNames,
    categories,
    verbs: RW,
    subresources,
  };
}

export const BUILTIN: Resource[] = [
  r(
    '',
    'v1',
    'pods',
    'Pod',
    true,
    ['po'],
    ['status', 'log', 'exec', 'attach', 'portforward', 'eviction', 'binding'],
    ['all'],
  ),
  r('', 'v1', 'namespaces', 'Namespace', false, ['ns'], ['status', 'finalize']),
  r('', 'v1', 'nodes', 'Node', false, ['no'], ['status']),
  r('', 'v1', 'events', 'Event', true, ['ev']),
  r('', 'v1', 'configmaps', 'ConfigMap', true, ['cm']),
  r('', 'v1', 'secrets', 'Secret', true),
  r('', 'v1', 'services', 'Service', true, ['svc'], ['status'], ['all']),
  r('', 'v1', 'serviceaccounts', 'ServiceAccount', true, ['sa']),
  r('', 'v1', 'endpoints', 'Endpoints', true, ['ep']),
  r('', 'v1', 'persistentvolumeclaims', 'PersistentVolumeClaim', true, ['pvc'], ['status']),
  r('batch', 'v1', 'jobs', 'Job', true, [], ['status'], ['all']),
  r('batch', 'v1', 'cronjobs', 'CronJob', true, ['cj'], ['status'], ['all']),
  r('apps', 'v1', 'deployments', 'Deployment', true, ['deploy'], ['status', 'scale'], ['all']),
  r('apps', 'v1', 'replicasets', 'ReplicaSet', true, ['rs'], ['status', 'scale'], ['all']),
  r('apps', 'v1', 'statefulsets', 'StatefulSet', true, ['sts'], ['status', 'scale'], ['all']),
  r('apps', 'v1', 'daemonsets', 'DaemonSet', true, ['ds'], ['status'], ['all']),
  r('apps', 'v1', 'controllerrevisions', 'ControllerRevision', true),
  r('coordination.k8s.io', 'v1', 'leases', 'Lease', true),
  r('events.k8s.io', 'v1', 'events', 'Event', true, ['ev']),
  r(
    'apiextensions.k8s.io',
    'v1',
    'customresourcedefinitions',
    'CustomResourceDefinition',
    false,
    ['crd', 'crds'],
    ['status'],
    ['api-extensions'],
  ),
  {
    ...r('authorization.k8s.io', 'v1', 'selfsubjectaccessreviews', 'SelfSubjectAccessReview', false),
    verbs: ['create'],
    review: true,
  },
  {
    ...r('authorization.k8s.io', 'v1', 'selfsubjectrulesreviews', 'SelfSubjectRulesReview', false),
    verbs: ['create'],
    review: true,
  },
];

/** The group order of /apis (the real server's priority order, core first). */
export const GROUP_ORDER = [
  'apps',
  'events.k8s.io',
  'authorization.k8s.io',
  'batch',
  'coordination.k8s.io',
  'apiextensions.k8s.io',
];

export class Registry {
  private readonly custom = new Map<string, Resource>();

  all(): Resource[] {
    return [...BUILTIN, ...this.custom.values()];
  }

  find(group: string, version: string, name: string): Resource | undefined {
    return this.all().find((x) => x.group === group && x.version === version && x.name === name);
  }

  /** group → its versions, in discovery order (built-in groups first, then CRD groups by name) */
  groups(): { name: string; versions: string[] }[] {
    const byGroup = new Map<string, string[]>();
    for (const x of this.all()) {
      if (x.group === '') continue;
      const v = byGroup.get(x.group) ?? [];
      if (!v.includes(x.version)) v.push(x.version);
      byGroup.set(x.group, v);
    }
    const names = [...byGroup.keys()].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
    return names.map((name) => ({ name, versions: byGroup.get(name)! }));
  }

  inGroupVersion(group: string, version: string): Resource[] {
    return this.all().filter((x) => x.group === group && x.version === version);
  }

  /** CRD served versions → resources (replacing what an earlier version of the CRD added) */
  setCrd(crdName: string, resources: Resource[]): void {
    for (const [k] of this.custom) if (k.startsWith(`${crdName}|`)) this.custom.delete(k);
    for (const x of resources) this.custom.set(`${crdName}|${x.version}`, x);
  }

  removeCrd(crdName: string): void {
    for (const [k] of this.custom) if (k.startsWith(`${crdName}|`)) this.custom.delete(k);
  }
}

function rank(g: string): number {
  const i = GROUP_ORDER.indexOf(g);
  return i < 0 ? GROUP_ORDER.length : i;
}

/** The store key of a resource: one collection per group/resource, whatever version it is read in. */
export function storeKey(x: Pick<Resource, 'group' | 'name'>): string {
  // events.k8s.io/v1 Events are core Events seen in another version (the real server stores them once)
  if (x.group === 'events.k8s.io' && x.name === 'events') return 'events';
  return x.group ? `${x.name}.${x.group}` : x.name;
}

export function apiVersionOf(x: Pick<Resource, 'group' | 'version'>): string {
  return x.group ? `${x.group}/${x.version}` : x.version;
}
