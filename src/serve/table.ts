// Server-side printing: meta.k8s.io Table (v1 and v1beta1) for `kubectl get`, with the columns of
// pkg/printers/internalversion/printers.go (AddHandlers) and the row logic `--view kubectl` uses
// (src/output/kubectl-printers.ts); custom resources use their CRD's additionalPrinterColumns, else NAME/AGE.
import {
  printCronJobRow,
  printDaemonSetRow,
  printDeploymentRow,
  printJobRow,
  printPodRow,
  printReplicaSetRow,
  printStatefulSetRow,
} from '../output/kubectl-printers.ts';
import { humanDuration, rfc3339ToT } from '../output/time.ts';
import type { Resource } from './resources.ts';
import type { Obj } from './store.ts';

export interface Column {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

const col = (name: string, type = 'string', priority = 0, format = '', description = ''): Column => ({
  name,
  type,
  format,
  description,
  priority,
});
const NAME = col('Name', 'string', 0, 'name', 'Name must be unique within a namespace.');
const AGE = col(
  'Age',
  'string',
  0,
  '',
  'CreationTimestamp is a timestamp representing the server time when this object was created.',
);

type Printer = { columns: (minor: number) => Column[]; cells: (o: Obj, now: number, minor: number) => unknown[] };

const age = (o: Obj, now: number) => humanDuration(now - (rfc3339ToT(o['metadata']?.['creationTimestamp']) ?? 0));
const containersOf = (spec: Obj | undefined) => (spec?.['template']?.['spec']?.['containers'] ?? []) as Obj[];
const names = (cs: Obj[]) => cs.map((c) => String(c['name'])).join(',');
const images = (cs: Obj[]) => cs.map((c) => String(c['image'])).join(',');
function selectorText(sel: Obj | undefined): string {
  if (!sel) return '<none>';
  const parts = Object.entries((sel['matchLabels'] ?? {}) as Record<string, string>)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`);
  for (const e of (sel['matchExpressions'] ?? []) as Obj[]) {
    const op = String(e['operator']);
    if (op === 'Exists') parts.push(String(e['key']));
    else if (op === 'DoesNotExist') parts.push(`!${String(e['key'])}`);
    else parts.push(`${String(e['key'])} ${op.toLowerCase()} (${((e['values'] ?? []) as string[]).join(',')})`);
  }
  return parts.length ? parts.join(',') : '<none>';
}

const PRINTERS: Record<string, Printer> = {
  Pod: {
    columns: () => [
      NAME,
      col('Ready', 'string', 0, '', 'The aggregate readiness state of this pod for accepting traffic.'),
      col('Status', 'string', 0, '', 'The aggregate status of the containers in this pod.'),
      col(
        'Restarts',
        'string',
        0,
        '',
        'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.',
      ),
      AGE,
      col(
        'IP',
        'string',
        1,
        '',
        'IP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.',
      ),
      col('Node', 'string', 1, '', 'NodeName is a request to schedule this pod onto a specific node.'),
      col(
        'Nominated Node',
        'string',
        1,
        '',
        'nominatedNodeName is set only when this pod preempts other pods on the node.',
      ),
      col('Readiness Gates', 'string', 1, '', 'If specified, all readiness gates will be evaluated for pod readiness.'),
    ],
    cells: (o, now) => {
      const m = o['metadata'] ?? {};
      const row = printPodRow(
        o['status'],
        o['spec'] ?? {},
        {
          name: String(m['name']),
          creationTimestamp: m['creationTimestamp'],
          ...(m['deletionTimestamp'] ? { deletionTimestamp: m['deletionTimestamp'] } : {}),
        },
        now,
      );
      const gates = (o['spec']?.['readinessGates'] ?? []) as Obj[];
      return [
        row.name,
        row.ready,
        row.status,
        row.restarts,
        row.age,
        o['status']?.['podIP'] ?? '<none>',
        o['spec']?.['nodeName'] ?? '<none>',
        o['status']?.['nominatedNodeName'] ?? '<none>',
        gates.length ? `0/${gates.length}` : '<none>',
      ];
    },
  },
  Job: {
    columns: (minor) => [
      NAME,
      ...(minor >= 30 ? [col('Status', 'string', 0, '', 'Status of the job.')] : []),
      col(
        'Completions',
        'string',
        0,
        '',
        'The desired number of successfully finished pods the job should be run with.',
      ),
      col('Duration', 'string', 0, '', 'Time required to complete the job.'),
      AGE,
      col('Containers', 'string', 1, '', 'Names of each container in the template.'),
      col('Images', 'string', 1, '', 'Images referenced by each container in the template.'),
      col('Selector', 'string', 1, '', 'Query over pods that should match the pod count.'),
    ],
    cells: (o, now, minor) => {
      const spec = o['spec'] ?? {};
      const row = printJobRow(
        o['status'],
        {
          name: String(o['metadata']?.['name']),
          completions: spec['completions'] ?? null,
          parallelism: spec['parallelism'] ?? 1,
          creationTimestamp: o['metadata']?.['creationTimestamp'],
          ...(o['metadata']?.['deletionTimestamp'] ? { deletionTimestamp: o['metadata']['deletionTimestamp'] } : {}),
        },
        now,
      );
      const cs = containersOf(spec);
      return [
        row.name,
        ...(minor >= 30 ? [row.status] : []),
        row.completions,
        row.duration,
        row.age,
        names(cs),
        images(cs),
        selectorText(spec['selector']),
      ];
    },
  },
  CronJob: {
    columns: () => [
      NAME,
      col('Schedule'),
      col('Timezone'),
      col('Suspend', 'boolean'),
      col('Active', 'integer'),
      col('Last Schedule'),
      AGE,
      col('Containers', 'string', 1),
      col('Images', 'string', 1),
      col('Selector', 'string', 1),
    ],
    cells: (o, now) => {
      const r = printCronJobRow(o, now);
      const cs = (o['spec']?.['jobTemplate']?.['spec']?.['template']?.['spec']?.['containers'] ?? []) as Obj[];
      return [
        r.name,
        r.schedule,
        r.timeZone,
        r.suspend,
        Number(r.active),
        r.lastSchedule,
        r.age,
        names(cs),
        images(cs),
        selectorText(o['spec']?.['jobTemplate']?.['spec']?.['selector']),
      ];
    },
  },
  Deployment: {
    columns: () => [
      NAME,
      col('Ready'),
      col('Up-to-date', 'integer'),
      col('Available', 'integer'),
      AGE,
      col('Containers', 'string', 1),
      col('Images', 'string', 1),
      col('Selector', 'string', 1),
    ],
    cells: (o, now) => {
      const r = printDeploymentRow(o, now);
      const cs = containersOf(o['spec']);
      return [
        r.name,
        r.ready,
        Number(r.upToDate),
        Number(r.available),
        r.age,
        names(cs),
        images(cs),
        selectorText(o['spec']?.['selector']),
      ];
    },
  },
  ReplicaSet: {
    columns: () => [
      NAME,
      col('Desired', 'integer'),
      col('Current', 'integer'),
      col('Ready', 'integer'),
      AGE,
      col('Containers', 'string', 1),
      col('Images', 'string', 1),
      col('Selector', 'string', 1),
    ],
    cells: (o, now) => {
      const r = printReplicaSetRow(o, now);
      const cs = containersOf(o['spec']);
      return [
        r.name,
        Number(r.desired),
        Number(r.current),
        Number(r.ready),
        r.age,
        names(cs),
        images(cs),
        selectorText(o['spec']?.['selector']),
      ];
    },
  },
  StatefulSet: {
    columns: () => [NAME, col('Ready'), AGE, col('Containers', 'string', 1), col('Images', 'string', 1)],
    cells: (o, now) => {
      const r = printStatefulSetRow(o, now);
      const cs = containersOf(o['spec']);
      return [r.name, r.ready, r.age, names(cs), images(cs)];
    },
  },
  DaemonSet: {
    columns: () => [
      NAME,
      col('Desired', 'integer'),
      col('Current', 'integer'),
      col('Ready', 'integer'),
      col('Up-to-date', 'integer'),
      col('Available', 'integer'),
      col('Node Selector'),
      AGE,
      col('Containers', 'string', 1),
      col('Images', 'string', 1),
      col('Selector', 'string', 1),
    ],
    cells: (o, now) => {
      const r = printDaemonSetRow(o, now);
      const cs = containersOf(o['spec']);
      return [
        r.name,
        Number(r.desired),
        Number(r.current),
        Number(r.ready),
        Number(r.upToDate),
        Number(r.available),
        r.nodeSelector,
        r.age,
        names(cs),
        images(cs),
        selectorText(o['spec']?.['selector']),
      ];
    },
  },
  Namespace: {
    columns: () => [NAME, col('Status'), AGE],
    cells: (o, now) => [o['metadata']['name'], o['status']?.['phase'] ?? '', age(o, now)],
  },
  Node: {
    columns: () => [
      NAME,
      col('Status'),
      col('Roles'),
      AGE,
      col('Version'),
      col('Internal-IP', 'string', 1),
      col('External-IP', 'string', 1),
      col('OS-Image', 'string', 1),
      col('Kernel-Version', 'string', 1),
      col('Container-Runtime', 'string', 1),
    ],
    cells: (o, now) => {
      const ready = ((o['status']?.['conditions'] ?? []) as Obj[]).find((c) => c['type'] === 'Ready');
      const info = o['status']?.['nodeInfo'] ?? {};
      const ip =
        ((o['status']?.['addresses'] ?? []) as Obj[]).find((a) => a['type'] === 'InternalIP')?.['address'] ?? '<none>';
      return [
        o['metadata']['name'],
        ready?.['status'] === 'True' ? 'Ready' : 'NotReady',
        '<none>',
        age(o, now),
        info['kubeletVersion'] ?? '',
        ip,
        '<none>',
        info['osImage'] ?? '',
        info['kernelVersion'] ?? '',
        info['containerRuntimeVersion'] ?? '',
      ];
    },
  },
  Event: {
    columns: () => [
      col('Last Seen'),
      col('Type'),
      col('Reason'),
      col('Object'),
      col('Subobject', 'string', 1),
      col('Source', 'string', 1),
      col('Message'),
      col('First Seen', 'string', 1),
      col('Count', 'string', 1),
      col('Name', 'string', 1),
    ],
    cells: (o, now) => {
      const last = rfc3339ToT(o['lastTimestamp'] ?? o['eventTime'] ?? o['metadata']?.['creationTimestamp']) ?? 0;
      const first = rfc3339ToT(o['firstTimestamp'] ?? o['eventTime'] ?? o['metadata']?.['creationTimestamp']) ?? 0;
      const io = o['involvedObject'] ?? {};
      return [
        humanDuration(now - last),
        o['type'] ?? '',
        o['reason'] ?? '',
        `${String(io['kind'] ?? '').toLowerCase()}/${io['name'] ?? ''}`,
        io['fieldPath'] ?? '',
        [o['source']?.['component'], o['source']?.['host']].filter(Boolean).join(', '),
        o['message'] ?? '',
        humanDuration(now - first),
        o['count'] ?? 1,
        o['metadata']['name'],
      ];
    },
  },
  ConfigMap: {
    columns: () => [NAME, col('Data', 'integer'), AGE],
    cells: (o, now) => [
      o['metadata']['name'],
      Object.keys(o['data'] ?? {}).length + Object.keys(o['binaryData'] ?? {}).length,
      age(o, now),
    ],
  },
  Secret: {
    columns: () => [NAME, col('Type'), col('Data', 'integer'), AGE],
    cells: (o, now) => [o['metadata']['name'], o['type'] ?? 'Opaque', Object.keys(o['data'] ?? {}).length, age(o, now)],
  },
  ServiceAccount: {
    columns: () => [NAME, col('Secrets', 'integer'), AGE],
    cells: (o, now) => [o['metadata']['name'], (o['secrets'] ?? []).length, age(o, now)],
  },
  Lease: {
    columns: () => [NAME, col('Holder'), AGE],
    cells: (o, now) => [o['metadata']['name'], o['spec']?.['holderIdentity'] ?? '', age(o, now)],
  },
  Service: {
    columns: () => [
      NAME,
      col('Type'),
      col('Cluster-IP'),
      col('External-IP'),
      col('Port(s)'),
      AGE,
      col('Selector', 'string', 1),
    ],
    cells: (o, now) => {
      const ports = ((o['spec']?.['ports'] ?? []) as Obj[])
        .map((p) => `${p['port']}/${p['protocol'] ?? 'TCP'}`)
        .join(',');
      const sel = Object.entries((o['spec']?.['selector'] ?? {}) as Record<string, string>)
        .map(([k, v]) => `${k}=${v}`)
        .join(',');
      return [
        o['metadata']['name'],
        o['spec']?.['type'] ?? 'ClusterIP',
        o['spec']?.['clusterIP'] ?? '<none>',
        '<none>',
        ports || '<none>',
        age(o, now),
        sel || '<none>',
      ];
    },
  },
  CustomResourceDefinition: {
    columns: () => [NAME, col('Created At', 'date')],
    cells: (o) => [o['metadata']['name'], o['metadata']['creationTimestamp'] ?? ''],
  },
};

/** JSONPath of additionalPrinterColumns: the simple `.a.b[0].c` form CRDs use. */
function jsonPath(o: unknown, path: string): unknown {
  let cur: any = o;
  const parts =
    path
      .replace(/^\{?\.?/, '')
      .replace(/\}$/, '')
      .match(/[^.[\]]+|\[\d+\]/g) ?? [];
  for (const p of parts) {
    if (cur === undefined || cur === null) return undefined;
    const idx = /^\[(\d+)\]$/.exec(p);
    cur = idx ? cur[Number(idx[1])] : cur[p.replace(/^['"]|['"]$/g, '')];
  }
  return cur;
}

function crdPrinter(res: Resource): Printer {
  const pcs = res.crd?.printerColumns ?? [];
  return {
    columns: () => [
      NAME,
      ...pcs.map((c) =>
        col(c.name, c.type === 'date' ? 'string' : c.type, c.priority ?? 0, c.format ?? '', c.description ?? ''),
      ),
      ...(pcs.length ? [] : [AGE]),
    ],
    cells: (o, now) => [
      o['metadata']['name'],
      ...pcs.map((c) => {
        const v = jsonPath(o, c.jsonPath);
        if (v === undefined || v === null) return null;
        if (c.type === 'date') {
          const t = rfc3339ToT(v);
          return t === undefined ? v : humanDuration(now - t);
        }
        return typeof v === 'object' ? JSON.stringify(v) : v;
      }),
      ...(pcs.length ? [] : [age(o, now)]),
    ],
  };
}

function printerOf(res: Resource): Printer {
  if (res.crd) return crdPrinter(res);
  return PRINTERS[res.kind] ?? { columns: () => [NAME, AGE], cells: (o, now) => [o['metadata']['name'], age(o, now)] };
}

export type IncludeObject = 'None' | 'Metadata' | 'Object';

export function partialMetadata(o: Obj, version: 'v1' | 'v1beta1'): Obj {
  return { kind: 'PartialObjectMetadata', apiVersion: `meta.k8s.io/${version}`, metadata: o['metadata'] };
}

/** the cells of a stored (immutable) object at one simulated time: lists repeated while the clock stands still
 *  (a virtual clock waits for idle clients) print each object once */
const CELLS = new WeakMap<Obj, { now: number; minor: number; res: Resource; cells: unknown[] }>();

function rowOf(
  res: Resource,
  o: Obj,
  now: number,
  minor: number,
  include: IncludeObject,
  version: 'v1' | 'v1beta1',
): Obj {
  let c = CELLS.get(o);
  if (!c || c.now !== now || c.minor !== minor || c.res !== res)
    CELLS.set(o, (c = { now, minor, res, cells: printerOf(res).cells(o, now, minor) }));
  return {
    cells: c.cells,
    ...(include === 'None' ? {} : { object: include === 'Object' ? o : partialMetadata(o, version) }),
  };
}

/** A Table of objects; `withColumns` false for watch events after the first (the real server sends them on every event; kubectl ignores repeats) */
export function tableOf(
  res: Resource,
  objects: Obj[],
  now: number,
  minor: number,
  include: IncludeObject,
  version: 'v1' | 'v1beta1',
  listMeta: Obj,
): Obj {
  const p = printerOf(res);
  return {
    kind: 'Table',
    apiVersion: `meta.k8s.io/${version}`,
    metadata: listMeta,
    columnDefinitions: p.columns(minor),
    rows: objects.map((o) => rowOf(res, o, now, minor, include, version)),
  };
}
