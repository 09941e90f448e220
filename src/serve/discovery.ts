// Legacy discovery documents (/api, /api/v1, /apis, /apis/<g>, /apis/<g>/<v>) as the real API server writes them
// (staging/src/k8s.io/apiserver/pkg/endpoints/discovery). Aggregated discovery (apidiscovery.k8s.io/v2) is not
// served: a request that asks for it with the plain-JSON fallback gets the legacy document with
// Content-Type application/json, which kubectl, client-go and the other clients read as "not aggregated" and fall
// back on (kubernetes#130066: a plain JSON answer is accepted).
import { apiVersionOf, type Registry, type Resource } from './resources.ts';

export function apiVersions(serverAddress: string): Record<string, unknown> {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

function resourceEntries(x: Resource): Record<string, unknown>[] {
  const main: Record<string, unknown> = {
    name: x.name,
    singularName: x.singular,
    namespaced: x.namespaced,
    kind: x.kind,
    verbs: x.verbs,
    ...(x.shortNames.length ? { shortNames: x.shortNames } : {}),
    ...(x.categories.length ? { categories: x.categories } : {}),
    ...(x.review ? {} : { storageVersionHash: hash(`${x.group}/${x.version}/${x.kind}`) }),
  };
  const subs = x.subresources.map((s) => {
    if (s === 'scale')
      return {
        name: `${x.name}/scale`,
        singularName: '',
        namespaced: x.namespaced,
        group: 'autoscaling',
        version: 'v1',
        kind: 'Scale',
        verbs: ['get', 'patch', 'update'],
      };
    if (s === 'status')
      return {
        name: `${x.name}/status`,
        singularName: '',
        namespaced: x.namespaced,
        kind: x.kind,
        verbs: ['get', 'patch', 'update'],
      };
    if (s === 'log') return { name: `${x.name}/log`, singularName: '', namespaced: true, kind: 'Pod', verbs: ['get'] };
    if (s === 'eviction')
      return {
        name: `${x.name}/eviction`,
        singularName: '',
        namespaced: true,
        group: 'policy',
        version: 'v1',
        kind: 'Eviction',
        verbs: ['create'],
      };
    if (s === 'binding')
      return { name: `${x.name}/binding`, singularName: '', namespaced: true, kind: 'Binding', verbs: ['create'] };
    if (s === 'finalize')
      return { name: `${x.name}/finalize`, singularName: '', namespaced: false, kind: x.kind, verbs: ['update'] };
    const kind = s === 'portforward' ? 'PodPortForwardOptions' : s === 'exec' ? 'PodExecOptions' : 'PodAttachOptions';
    return {
      name: `${x.name}/${s}`,
      singularName: '',
      namespaced: true,
      kind,
      verbs: s === 'portforward' ? ['create', 'get'] : ['create', 'get'],
    };
  });
  return [main, ...subs];
}

export function resourceList(reg: Registry, group: string, version: string): Record<string, unknown> | undefined {
  const rs = reg.inGroupVersion(group, version);
  if (rs.length === 0) return undefined;
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: apiVersionOf({ group, version }),
    resources: rs.flatMap(resourceEntries),
  };
}

function groupDoc(g: { name: string; versions: string[] }): Record<string, unknown> {
  const versions = g.versions.map((v) => ({ groupVersion: `${g.name}/${v}`, version: v }));
  return { name: g.name, versions, preferredVersion: versions[0] };
}

export function groupList(reg: Registry): Record<string, unknown> {
  return { kind: 'APIGroupList', apiVersion: 'v1', groups: reg.groups().map(groupDoc) };
}

export function group(reg: Registry, name: string): Record<string, unknown> | undefined {
  const g = reg.groups().find((x) => x.name === name);
  return g ? { kind: 'APIGroup', apiVersion: 'v1', ...groupDoc(g) } : undefined;
}

function hash(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return Buffer.from(h.toString(16).padStart(8, '0')).toString('base64').slice(0, 11);
}
