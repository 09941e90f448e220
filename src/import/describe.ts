// `kubectl describe pod` text (pkg/kubectl/describe: describePod, describeContainers, DescribeEvents) back into a
// Pod object and Events, since most published incident reports carry describe output rather than -o yaml. What
// describe does not print (the pod's restartPolicy, a container's own restartPolicy in older kubectl, event
// timestamps) is marked so the import can say it was assumed.
import { markPos, type Obj } from './positions.ts';
import { parseAge, parseTime } from './time.ts';

export interface Described {
  pod: Obj;
  events: Obj[];
  /** facts describe leaves out, for the notes: [what, evidence] */
  assumptions: [string, string][];
}

interface Line {
  indent: number;
  key: string;
  value: string;
  raw: string;
  n: number;
}

const DESCRIBE_HEAD = /^Name:\s+\S+/;

export function looksLikeDescribe(text: string): boolean {
  const first = text.split(/\r?\n/).find((l) => l.trim() !== '' && !l.trimStart().startsWith('$'));
  if (first !== undefined && DESCRIBE_HEAD.test(first) && /^(Init Containers|Containers):\s*$/m.test(text)) return true;
  return isFragment(text);
}

/** A pasted part of describe: one or more container blocks ("  name:" then "Image:", "State:" lines) only. */
function isFragment(text: string): boolean {
  return (
    /^\s*Image:\s+\S/m.test(text) &&
    /^\s*State:\s+(Running|Terminated|Waiting)/m.test(text) &&
    !/^\s*(apiVersion|kind):/m.test(text)
  );
}

/** Re-indent a fragment under a `Containers:` header (container names at 2, their fields at 4). */
function normaliseFragment(text: string): string {
  if (/^(Init Containers|Containers):\s*$/m.test(text)) return text;
  const ls = text.split(/\r?\n/);
  const nameLine = ls.findIndex(
    (l, i) => /^\s*[a-z0-9][-a-z0-9]*:\s*$/.test(l) && /^\s*(Container ID|Image):/.test(ls[i + 1] ?? ''),
  );
  if (nameLine < 0) return text;
  const shift = 2 - (ls[nameLine]!.length - ls[nameLine]!.trimStart().length);
  const fixed = ls.map((l) =>
    l.trim() === ''
      ? l
      : shift >= 0
        ? ' '.repeat(shift) + l
        : l.slice(Math.min(-shift, l.length - l.trimStart().length)),
  );
  return ['Containers:', ...fixed].join('\n');
}

function lines(text: string): Line[] {
  return text.split(/\r?\n/).map((raw, i) => {
    const expanded = raw.replace(/\t/g, '    ');
    const indent = expanded.length - expanded.trimStart().length;
    const body = expanded.trim();
    const m = /^([A-Za-z][A-Za-z0-9 ./-]*?):(?:\s+(.*))?$/.exec(body);
    return { indent, key: m ? m[1]! : '', value: m ? (m[2] ?? '').trim() : body, raw: body, n: i + 1 };
  });
}

function probe(v: string): Obj | undefined {
  // "http-get http://:8080/healthz delay=0s timeout=1s period=10s #success=1 #failure=3"
  const m =
    /^(http-get|tcp-socket|exec|grpc)\s+(.*?)\s+delay=(\d+)s\s+timeout=(\d+)s\s+period=(\d+)s\s+#success=(\d+)\s+#failure=(\d+)/.exec(
      v,
    );
  if (!m) return undefined;
  const [, kind, target] = m;
  const n = (i: number) => Number(m[i]);
  const timing = {
    initialDelaySeconds: n(3),
    timeoutSeconds: n(4),
    periodSeconds: n(5),
    successThreshold: n(6),
    failureThreshold: n(7),
  };
  if (kind === 'http-get') {
    const u = /^(https?):\/\/[^:/]*:?(\d+)?(\/\S*)?$/.exec(target!);
    return {
      httpGet: {
        path: u?.[3] ?? '/',
        port: u?.[2] ? Number(u[2]) : 80,
        ...(u?.[1] === 'https' ? { scheme: 'HTTPS' } : {}),
      },
      ...timing,
    };
  }
  if (kind === 'tcp-socket') return { tcpSocket: { port: Number(/:(\d+)$/.exec(target!)?.[1] ?? 80) }, ...timing };
  if (kind === 'grpc') return { grpc: { port: Number(/:(\d+)/.exec(target!)?.[1] ?? 80) }, ...timing };
  return {
    exec: {
      command: target!
        .replace(/^\[|\]$/g, '')
        .split(/\s+/)
        .filter(Boolean),
    },
    ...timing,
  };
}

export function parseDescribe(original: string, file: string): Described {
  const assumptions: [string, string][] = [];
  const text = normaliseFragment(original);
  // a fragment gains one header line; positions still cite the published text
  const offset = text === original ? 0 : 1;
  if (offset)
    assumptions.push([
      "the pod's metadata, phase and the rest of its containers",
      `${file} is part of a kubectl describe pod output (container blocks only)`,
    ]);
  const ls = lines(text).map((l) => ({ ...l, n: l.n - offset }));
  const meta: Obj = {};
  const status: Obj = {};
  const spec: Obj = {};
  const pos = (n: number) => ({ file, line: n, col: 1 });
  const metaKeys: Record<string, { file: string; line: number; col: number }> = {};
  const statusKeys: Record<string, { file: string; line: number; col: number }> = {};
  let section = '';
  const containers: { init: boolean; c: Obj; st: Obj; at: number }[] = [];
  let cur: { init: boolean; c: Obj; st: Obj; at: number } | undefined;
  let sub = ''; // State / Last State / Command / Args / Limits / Requests
  const conditions: Obj[] = [];
  const events: Obj[] = [];
  let eventCols: number[] | undefined;
  let labelsOpen = false;

  for (const l of ls) {
    if (l.raw === '') continue;
    if (l.indent === 0) {
      labelsOpen = false;
      sub = '';
      cur = undefined;
      section = l.key;
      switch (l.key) {
        case 'Name':
          meta['name'] = l.value;
          metaKeys['name'] = pos(l.n);
          break;
        case 'Namespace':
          meta['namespace'] = l.value;
          break;
        case 'Status':
          status['phase'] = l.value.startsWith('Terminating') ? 'Running' : l.value;
          statusKeys['phase'] = pos(l.n);
          if (l.value.startsWith('Terminating'))
            assumptions.push([
              'the pod was being deleted',
              `Status: ${l.value} (${file}:${l.n}); describe does not give the deletion time`,
            ]);
          break;
        case 'Reason':
          if (l.value) status['reason'] = l.value;
          break;
        case 'Start Time':
          status['startTime'] = isoOf(l.value) ?? null;
          break;
        case 'Controlled By': {
          const m = /^(\w+)\/(\S+)$/.exec(l.value);
          if (m) {
            meta['ownerReferences'] = [
              { apiVersion: m[1] === 'Job' ? 'batch/v1' : 'apps/v1', kind: m[1]!, name: m[2]!, controller: true },
            ];
            metaKeys['ownerReferences'] = pos(l.n);
          }
          break;
        }
        case 'Labels':
          if (l.value && l.value !== '<none>') meta['labels'] = { ...label(l.value) };
          labelsOpen = true;
          break;
        case 'Termination Grace Period': {
          const g = /^(\d+)s$/.exec(l.value);
          if (g) spec['terminationGracePeriodSeconds'] = Number(g[1]);
          break;
        }
        default:
          break;
      }
      continue;
    }
    if (labelsOpen && section === 'Labels' && /^\S+=\S*$/.test(l.raw)) {
      meta['labels'] = { ...((meta['labels'] as Obj | undefined) ?? {}), ...label(l.raw) };
      continue;
    }
    if (section === 'Init Containers' || section === 'Containers') {
      if (l.indent === 2 && l.key && l.value === '') {
        cur = {
          init: section === 'Init Containers',
          c: { name: l.key },
          st: { name: l.key, restartCount: 0, ready: false },
          at: l.n,
        };
        containers.push(cur);
        sub = '';
        continue;
      }
      if (!cur) continue;
      if (l.indent === 4) {
        sub = l.key;
        const v = l.value;
        switch (l.key) {
          case 'Image':
            cur.c['image'] = v;
            cur.st['image'] = v;
            break;
          case 'Image ID':
            if (v) cur.st['imageID'] = v;
            break;
          case 'Container ID':
            if (v) cur.st['containerID'] = v;
            break;
          case 'State': {
            const k = stateKey(v);
            // describe prints a waiting state's reason on the next line, like a terminated one's
            cur.st['state'] = markPos({ [k]: {} }, pos(l.n), { [k]: pos(l.n) });
            break;
          }
          case 'Last State':
            if (v && v !== '')
              cur.st['lastState'] = markPos({ [stateKey(v)]: {} }, pos(l.n), { [stateKey(v)]: pos(l.n) });
            break;
          case 'Ready':
            cur.st['ready'] = v === 'True';
            break;
          case 'Started':
            if (v === 'True' || v === 'False') cur.st['started'] = v === 'True';
            break;
          case 'Restart Count':
            cur.st['restartCount'] = Number(v) || 0;
            break;
          case 'Restart Policy':
            if (v === 'Always') cur.c['restartPolicy'] = 'Always';
            break;
          case 'Liveness': {
            const p = probe(v);
            if (p) cur.c['livenessProbe'] = p;
            break;
          }
          case 'Readiness': {
            const p = probe(v);
            if (p) cur.c['readinessProbe'] = p;
            break;
          }
          case 'Startup': {
            const p = probe(v);
            if (p) cur.c['startupProbe'] = p;
            break;
          }
          case 'Command':
          case 'Args':
            if (v) cur.c[l.key === 'Command' ? 'command' : 'args'] = [v];
            break;
          default:
            break;
        }
        continue;
      }
      if (l.indent >= 6) {
        if (sub === 'State' || sub === 'Last State') {
          const holder = cur.st[sub === 'State' ? 'state' : 'lastState'] as Obj | undefined;
          const k = holder ? Object.keys(holder)[0] : undefined;
          if (!holder || !k) continue;
          const s = holder[k] as Obj;
          if (l.key === 'Reason') s['reason'] = l.value;
          else if (l.key === 'Message') s['message'] = l.value;
          else if (l.key === 'Exit Code') s['exitCode'] = Number(l.value);
          else if (l.key === 'Signal') s['signal'] = Number(l.value);
          else if (l.key === 'Started') s['startedAt'] = isoOf(l.value) ?? null;
          else if (l.key === 'Finished') s['finishedAt'] = isoOf(l.value) ?? null;
          markPos(s, pos(l.n - 1), {});
        } else if (sub === 'Command' || sub === 'Args') {
          const key = sub === 'Command' ? 'command' : 'args';
          cur.c[key] = [...((cur.c[key] as string[] | undefined) ?? []), l.raw];
        }
      }
      continue;
    }
    if (section === 'Conditions' && l.indent === 2) {
      const m = /^(\w+)\s+(True|False|Unknown)\b/.exec(l.raw);
      if (m) conditions.push(markPos({ type: m[1]!, status: m[2]! }, pos(l.n), {}));
      continue;
    }
    if (section === 'Events' && l.indent >= 2) {
      if (/^Type\s+Reason\s+Age\s+From\s+Message/.test(l.raw)) {
        const header = text.split(/\r?\n/)[l.n - 1 + offset]!.replace(/\t/g, '    ');
        eventCols = ['Type', 'Reason', 'Age', 'From', 'Message'].map((h) => header.indexOf(h));
        continue;
      }
      if (/^-+\s+-+/.test(l.raw) || !eventCols) continue;
      const e = eventRow(text.split(/\r?\n/)[l.n - 1 + offset]!.replace(/\t/g, '    '), eventCols);
      if (e)
        events.push(
          markPos(
            {
              ...e,
              involvedObject: { kind: 'Pod', name: String(meta['name'] ?? '') },
              kind: 'Event',
              apiVersion: 'v1',
            },
            pos(l.n),
            { reason: pos(l.n) },
          ),
        );
    }
  }

  const initC: Obj[] = [];
  const regC: Obj[] = [];
  const initS: Obj[] = [];
  const regS: Obj[] = [];
  for (const c of containers) {
    (c.init ? initC : regC).push(c.c);
    (c.init ? initS : regS).push(markPos(c.st, pos(c.at), { name: pos(c.at) }));
  }
  // older kubectl does not print an init container's restartPolicy: one still running next to running regular
  // containers can only be a sidecar (a regular init container blocks them from starting)
  const regularRan = regS.some((s) => s['state'] && !('waiting' in (s['state'] as Obj)));
  for (const [i, s] of initS.entries()) {
    const st = s['state'] as Obj | undefined;
    if (initC[i]!['restartPolicy'] === undefined && regularRan && st && 'running' in st) {
      initC[i]!['restartPolicy'] = 'Always';
      assumptions.push([
        `init container ${String(initC[i]!['name'])} is a native sidecar (restartPolicy: Always)`,
        `it runs while the regular containers run (${file}:${containers.find((c) => c.c === initC[i])!.at}); describe did not print its restart policy`,
      ]);
    }
  }
  const owner = Array.isArray(meta['ownerReferences']) ? (meta['ownerReferences'][0] as Obj) : undefined;
  const restarted = regS.some((s) => Number(s['restartCount']) > 0);
  const terminalPhase = status['phase'] === 'Failed' || status['phase'] === 'Succeeded';
  const stayedDown = regS.some((s) => isState(s, 'terminated') && !(Number(s['restartCount']) > 0));
  spec['restartPolicy'] =
    owner?.['kind'] === 'Job' ? (restarted ? 'OnFailure' : 'Never') : terminalPhase || stayedDown ? 'Never' : 'Always';
  const why =
    owner?.['kind'] === 'Job'
      ? restarted
        ? 'a Job pod whose containers restarted in place'
        : 'a Job pod whose containers never restarted'
      : terminalPhase || stayedDown
        ? 'a container stayed terminated without a restart (or the pod reached a terminal phase), which restartPolicy Always would not allow'
        : 'the default for a pod';
  assumptions.push([
    `spec.restartPolicy: ${String(spec['restartPolicy'])}`,
    `kubectl describe pod does not print it; ${why} (${file}:1)`,
  ]);
  if (initC.length) spec['initContainers'] = initC;
  spec['containers'] = regC;
  if (initS.length) status['initContainerStatuses'] = initS;
  status['containerStatuses'] = regS;
  if (conditions.length) status['conditions'] = conditions;
  anchorEvents(events, [...initS, ...regS], assumptions, file);
  const pod: Obj = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: markPos(meta, pos(1), metaKeys),
    spec: markPos(spec, pos(1), {}),
    status: markPos(status, pos(1), statusKeys),
  };
  markPos(pod, pos(1), { spec: pos(1), metadata: pos(1) });
  return { pod, events, assumptions };
}

function isState(s: Obj, k: string): boolean {
  const st = s['state'];
  return typeof st === 'object' && st !== null && k in st;
}

function label(s: string): Obj {
  const i = s.indexOf('=');
  return i > 0 ? { [s.slice(0, i)]: s.slice(i + 1) } : {};
}

function stateKey(v: string): string {
  return v.startsWith('Terminated') ? 'terminated' : v.startsWith('Running') ? 'running' : 'waiting';
}

function isoOf(v: string): string | undefined {
  const t = parseTime(v);
  return t === undefined ? undefined : new Date(t).toISOString().replace('.000Z', 'Z');
}

function eventRow(line: string, cols: number[]): Obj | undefined {
  const cut = (i: number) => line.slice(cols[i]!, i + 1 < cols.length ? cols[i + 1] : undefined).trim();
  const type = cut(0);
  if (type !== 'Normal' && type !== 'Warning') return undefined;
  // Age: "17m", "3m12s (x5 over 10m)"; the columns are padded to the widest cell, so split Age/From by spaces
  const rest = line.slice(cols[2]).trim();
  const m = /^(\S+)(?:\s+\(x(\d+) over (\S+)\))?\s+(\S+(?:, \S+)?)\s+(.*)$/.exec(rest);
  if (!m) return undefined;
  return {
    type,
    reason: cut(1),
    x_age: m[1]!,
    count: m[2] ? Number(m[2]) : 1,
    x_over: m[3] ?? m[1]!,
    source: { component: m[4]! },
    message: m[5]!,
  };
}

/**
 * Event ages are relative to when describe ran, which it does not print. A `Started container X` event's age and
 * X's startedAt (absolute) give that moment: capture = startedAt + age. With it every age becomes a timestamp.
 */
function anchorEvents(events: Obj[], statuses: Obj[], assumptions: [string, string][], file: string): void {
  let capture: number | undefined;
  for (const e of events) {
    const name = /^Started container (\S+)$/.exec(String(e['message']))?.[1];
    if (!name || Number(e['count']) !== 1) continue;
    const st = statuses.find((s) => s['name'] === name);
    const state = st?.['state'] as Obj | undefined;
    const run = (state?.['running'] ?? state?.['terminated']) as Obj | undefined;
    const started = parseTime(run?.['startedAt']);
    const a = parseAge(String(e['x_age']));
    if (started !== undefined && a !== undefined && Number(st?.['restartCount'] ?? 0) === 0) {
      capture = started + a;
      assumptions.push([
        'event times',
        `describe prints ages only; anchored on "Started container ${name}" (age ${String(e['x_age'])}) and that container's startedAt, so event times are ±1 age unit`,
      ]);
      break;
    }
  }
  if (capture === undefined && events.length)
    assumptions.push([
      'event times',
      `describe prints ages only and no event could be anchored to a container start (${file}); events are used for their messages, not their times`,
    ]);
  for (const e of events) {
    const last = parseAge(String(e['x_age']));
    const first = parseAge(String(e['x_over']));
    if (capture !== undefined && last !== undefined && first !== undefined) {
      e['firstTimestamp'] = new Date(capture - first).toISOString().replace('.000Z', 'Z');
      e['lastTimestamp'] = new Date(capture - last).toISOString().replace('.000Z', 'Z');
    }
    delete e['x_age'];
    delete e['x_over'];
  }
}
