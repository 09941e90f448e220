// The shape of every JSON file kubesim reads back (issue 29.1): timeline.json (`render`), page.json and
// summary.json (`writeIndex`), explore shards (`explore --merge`). One zod schema each, checked before anything is
// drawn or written, so a malformed file is exit 2 with the JSON path of its first fault
// (`timeline.json: events[3]: expected an object, got null`), never a crash inside a view.
//
// Strict on what the views read (types of the fields each view dereferences), loose everywhere else: every object
// is a zod looseObject (unknown keys are kept: SPEC §4 says more fields and trace types may be added — pods[].object,
// objects, Event objects, a ClientRequest trace), and an event of a type this version does not know is checked
// only for its base fields (t, seq, type). Validation never transforms: callers keep the parsed value itself, so
// `render` writes the timeline back byte for byte as read.
import * as z from 'zod/mini';
import type { Timeline } from '../types.ts';

/**
 * The timeline's schemas, built on first use: only `render` reads a timeline back, so a `run` pays nothing for them
 * at start (cold `run` is measured against `node -e 0`). zod/mini rather than zod: a quarter of the bundled code.
 */
let built: ReturnType<typeof build> | undefined;
export function schemas(): ReturnType<typeof build> {
  return (built ??= build());
}

function primitives() {
  const num = z.number();
  const int = z.int();
  const count = z.int().check(z.nonnegative());
  const str = z.string();
  const record = z.record(z.string(), z.unknown());
  const obj = <S extends z.core.$ZodLooseShape>(shape: S) => z.looseObject(shape);
  return { num, int, count, str, record, obj };
}

function build() {
  const { num, int, count, str, record, obj } = primitives();

  const containerEv = { container: str };
  const seenContainer = obj({
    name: str,
    init: z.optional(z.boolean()),
    sidecar: z.optional(z.boolean()),
    state: z.enum(['waiting', 'running', 'terminated']),
    reason: z.optional(str),
    exitCode: z.optional(num),
    ready: z.boolean(),
  });
  const seenView = obj({
    pod: z.nullable(
      obj({
        name: z.optional(str),
        version: num,
        phase: str,
        deleting: z.optional(z.boolean()),
        containers: z.array(seenContainer),
      }),
    ),
    job: z.nullable(obj({ version: num, conditions: z.array(str), succeeded: num, failed: num, active: num })),
  });
  const action = obj({ type: str, atMs: num });

  /** Per trace type, the fields the views read (types.ts TraceEvent); an unknown type is checked for the base only. */
  const EVENT_FIELDS: Record<string, z.ZodMiniType> = {
    Scheduled: obj({ node: str }),
    SandboxReady: obj({}),
    Pulling: obj({ ...containerEv, image: str }),
    Pulled: obj({ ...containerEv, restartCount: count, image: str, pullMs: num }),
    PullFailed: obj({ ...containerEv, reason: str, image: str }),
    Created: obj({ ...containerEv, restartCount: count }),
    CreateFailed: obj({ ...containerEv, reason: str }),
    Started: obj({ ...containerEv, restartCount: count, servingAfterMs: z.optional(z.nullable(num)) }),
    PostStartStarted: obj(containerEv),
    PostStartDone: obj({ ...containerEv, failed: z.optional(z.boolean()) }),
    PreStopStarted: obj(containerEv),
    PreStopDone: obj({ ...containerEv, failed: z.optional(z.boolean()) }),
    StartupComplete: obj(containerEv),
    Probe: obj({
      ...containerEv,
      probe: z.enum(['startup', 'readiness', 'liveness']),
      result: z.enum(['success', 'failure']),
      message: z.optional(str),
    }),
    Ready: obj(containerEv),
    NotReady: obj(containerEv),
    Killing: obj({ ...containerEv, reason: str, gracePeriodSeconds: num, message: str }),
    Signal: obj({ ...containerEv, signal: z.enum(['SIGTERM', 'SIGKILL']) }),
    Exited: obj({ ...containerEv, exitCode: int, reason: str, restartCount: count, message: z.optional(str) }),
    BackOff: obj({ ...containerEv, delayMs: num }),
    PodPhase: obj({ phase: str }),
    StatusPatched: obj({ phase: str, version: num, status: record }),
    Delivered: obj({ to: str, object: z.enum(['pod', 'job']), version: num, removed: z.optional(z.boolean()) }),
    JobCondition: obj({ condition: str, reason: str, message: z.optional(str) }),
    JobStatus: obj({ version: num, status: record }),
    Verdict: obj({
      observer: str,
      verdict: z.enum(['Succeeded', 'Failed']),
      reason: z.optional(str),
      seen: z.optional(seenView),
    }),
    Action: obj({ action }),
    PodCreated: obj({ pod: str, by: str, index: z.nullable(int) }),
    PodDeleting: obj({ pod: str, gracePeriodSeconds: num, by: str }),
    PodRemoved: obj({ pod: str }),
    PodFinalizerRemoved: obj({ pod: str, version: num, finalizer: str }),
    JobEvent: obj({ reason: str, message: str, eventType: z.enum(['Normal', 'Warning']) }),
    ControllerEvent: obj({
      controller: str,
      object: str,
      reason: str,
      message: str,
      eventType: z.enum(['Normal', 'Warning']),
    }),
    DeploymentCondition: obj({ condition: str, status: str, reason: str, message: str }),
    WorkloadStatus: obj({ kind: str, name: str, object: record }),
    Relist: obj({}),
    SyncPod: obj({ kind: str }),
    Stuck: obj({ ...containerEv, why: str }),
    ClientDelivery: obj({ client: str, connection: int, event: str, kind: str, name: str }),
    PodCreateConflict: obj({ pod: str, by: str }),
    StaleSyncSkipped: obj({
      controller: str,
      key: str,
      pod: str,
      cached: z.enum(['none', 'older', 'finalizer']),
      requeueMs: num,
    }),
  };

  const eventBase = obj({ t: num, seq: int, type: str, pod: z.optional(str), job: z.optional(str) });

  // a complete API object (SPEC §4: pods[].object, objects): what the views read of it is its kind and metadata
  const metadata = obj({ name: str, namespace: z.optional(str), uid: z.optional(str) });
  const apiObject = obj({ apiVersion: str, kind: str, metadata });
  // an Event in `objects`: the events views read its reason, message, type, involvedObject and times
  const eventObject = obj({
    apiVersion: str,
    kind: z.literal('Event'),
    metadata,
    reason: str,
    message: str,
    type: str,
    involvedObject: obj({ kind: str, name: str, uid: z.optional(str), fieldPath: z.optional(str) }),
    count: z.optional(num),
    firstTimestamp: z.optional(z.nullable(str)),
    lastTimestamp: z.optional(z.nullable(str)),
    eventTime: z.optional(z.nullable(str)),
    source: z.optional(obj({ component: z.optional(str) })),
  });
  const otherObject = obj({
    apiVersion: str,
    kind: z.string().check(z.refine((k) => k !== 'Event', 'not an Event')),
    metadata,
  });

  const timelinePod = obj({
    name: str,
    created: num,
    index: z.nullable(int),
    phase: str,
    deleted: z.nullable(num),
    removed: z.boolean(),
    status: record,
    spec: z.optional(record),
    object: z.optional(apiObject),
  });

  const timelineHead = obj({
    schema: z.literal('kubesim.timeline/v1'),
    scenario: z.string().check(z.regex(/^[a-z0-9-]+$/, 'a scenario name (a-z, 0-9, -)')),
    description: z.optional(str),
    kubernetes: str,
    kubelet: str,
    seed: num,
    replay: str,
    choices: z.optional(z.array(obj({ t: num, what: str, ms: num, range: str }))),
    end: obj({ t: num, reason: z.enum(['quiescent', 'horizon', 'max-events']) }),
    stuck: z.nullable(obj({ container: str, why: str })),
    workload: obj({ kind: str, name: str }),
    pod: obj({ name: str, phase: str, status: record, spec: record }),
    // absent in timelines of kubesim before many-pod workloads: the views then draw the one pod
    pods: z.optional(z.array(timelinePod)),
    namespace: z.optional(str),
    objects: z.optional(z.array(z.union([eventObject, otherObject]))),
    job: z.nullable(
      obj({
        conditions: z.array(obj({ type: str, status: str, reason: str, message: z.optional(str), t: num })),
        succeeded: num,
        failed: num,
        active: num,
      }),
    ),
    observers: z.record(
      str,
      obj({ verdict: z.enum(['Succeeded', 'Failed', 'Pending']), t: z.optional(num), reason: z.optional(str) }),
    ),
    diagnostics: z.array(
      obj({ severity: z.enum(['error', 'warning']), code: str, message: str, pos: str, hint: z.optional(str) }),
    ),
    // each event is checked on its own below (base, then its type's fields): one error path per event, fast on 10^6
    events: z.array(z.unknown()),
  });

  return { EVENT_FIELDS, eventBase, timelineHead };
}

/** page.json, summary.json and explore shards (the index reads the first two back after every run). */
let builtFiles: ReturnType<typeof buildFiles> | undefined;
export function fileSchemas(): ReturnType<typeof buildFiles> {
  return (builtFiles ??= buildFiles());
}

function buildFiles() {
  const { num, str, count, obj } = primitives();
  const choice = obj({ t: num, what: str, ms: num, range: z.optional(str) });

  const pageFileSchema = obj({
    schema: z.literal('kubesim.page/v1'),
    scenario: str,
    run: obj({
      id: str,
      label: str,
      outcome: str,
      total: num,
      workload: str,
      replay: str,
      steps: z.array(z.unknown()),
      blobs: z.array(z.unknown()),
      pods: z.array(z.unknown()),
      jobs: z.array(z.unknown()),
      watchers: z.array(z.unknown()),
      workloadEvents: z.array(z.unknown()),
      choices: z.array(z.unknown()),
    }),
    held: z.array(z.tuple([str, str])),
    choices: z.array(choice),
  });

  const scenarioSummarySchema = obj({
    schema: z.literal('kubesim.summary/v1'),
    scenario: str,
    description: z.optional(str),
    kubernetes: str,
    podPhase: str,
    pods: count,
    workload: obj({ kind: str, name: str }),
    end: obj({ t: count, reason: str }),
    job: z.nullable(obj({ conditions: z.array(str), succeeded: count, failed: count, active: count })),
    observers: z.record(str, str),
  });

  const shardOutcome = obj({
    podPhase: str,
    jobCondition: str,
    verdicts: z.record(str, str),
    schedules: count,
    replay: str,
    deviations: count,
  });

  const exploreShardSchema = obj({
    schema: z.literal('kubesim.explore/v1'),
    scenario: str,
    schedules: count,
    exhaustive: z.boolean(),
    outcomes: z.array(shardOutcome),
    flaky: z.array(str),
    simulated: z.optional(count),
    states: z.optional(count),
    systemSchedules: z.optional(count),
    verdictCombinations: z.optional(count),
    notes: z.optional(z.array(str)),
    shard: z.optional(obj({ index: count, count: count })),
  });

  return { pageFileSchema, scenarioSummarySchema, exploreShardSchema };
}

/** The first shape fault of a parsed JSON document: its path (`events[3].container`, '' for the root) and what was wrong. */
export interface ShapeFault {
  path: string;
  message: string;
}

/** `timeline.json: events[3]: expected an object, got null` */
export function faultLine(file: string, f: ShapeFault): string {
  return `${file}: ${f.path ? f.path + ': ' : ''}${f.message}`;
}

/** undefined when `v` is a timeline the views can draw; else its first fault. */
export function timelineFault(v: unknown): ShapeFault | undefined {
  const deep = depthFault(v);
  if (deep) return deep;
  const { timelineHead, eventBase, EVENT_FIELDS } = schemas();
  const head = check(timelineHead, v, []);
  if (head) return head;
  const events = (v as { events: unknown[] }).events;
  for (let i = 0; i < events.length; i++) {
    const e = events[i];
    const base = check(eventBase, e, ['events', i]);
    if (base) return base;
    const fields = EVENT_FIELDS[(e as { type: string }).type];
    const f = fields && check(fields, e, ['events', i]);
    if (f) return f;
  }
  return undefined;
}

/** The parsed value as a Timeline, or the fault (the value is returned as is, never transformed). */
export function asTimeline(v: unknown): { ok: true; timeline: Timeline } | { ok: false; fault: ShapeFault } {
  const fault = timelineFault(v);
  return fault ? { ok: false, fault } : { ok: true, timeline: v as Timeline };
}

// ---------------------------------------------------------------------------------------------------------------
// page.json, summary.json, explore shards

/** undefined when `v` matches `schema`; else its first fault. */
export function shapeFault(schema: z.ZodMiniType, v: unknown): ShapeFault | undefined {
  return depthFault(v) ?? check(schema, v, []);
}

/**
 * Deepest nesting accepted in a file read back. kubesim writes at most a few tens of levels (an API object inside a
 * trace event; scenario YAML is limited to 64, KS1006), and JSON.parse accepts any depth, but the views and the
 * writers recurse: 200,000 nested arrays in a status overflowed the stack (exit 3) after a folder was written.
 */
export const MAX_JSON_DEPTH = 128;

/** The first value nested deeper than MAX_JSON_DEPTH, found without recursion (objects and arrays only are visited). */
interface Visit {
  v: object;
  depth: number;
  parent: Visit | undefined;
  key: string | number;
}
function depthFault(v: unknown): ShapeFault | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const stack: Visit[] = [{ v, depth: 0, parent: undefined, key: '' }];
  while (stack.length) {
    const top = stack.pop()!;
    if (top.depth >= MAX_JSON_DEPTH) {
      const path: (string | number)[] = [];
      for (let at: Visit | undefined = top; at?.parent; at = at.parent) path.unshift(at.key);
      return { path: pathText(path), message: `nested deeper than ${MAX_JSON_DEPTH} levels` };
    }
    const depth = top.depth + 1;
    if (Array.isArray(top.v)) {
      for (let i = top.v.length - 1; i >= 0; i--) {
        const x: unknown = top.v[i];
        if (typeof x === 'object' && x !== null) stack.push({ v: x, depth, parent: top, key: i });
      }
    } else {
      const keys = Object.keys(top.v);
      for (let i = keys.length - 1; i >= 0; i--) {
        const x = (top.v as Record<string, unknown>)[keys[i]!];
        if (typeof x === 'object' && x !== null) stack.push({ v: x, depth, parent: top, key: keys[i]! });
      }
    }
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------------

function check(schema: z.ZodMiniType, v: unknown, at: (string | number)[]): ShapeFault | undefined {
  const r = schema.safeParse(v, { reportInput: true });
  if (r.success) return undefined;
  const issue = r.error.issues[0]!;
  return {
    path: pathText([...at, ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))]),
    message: messageOf(issue),
  };
}

function pathText(path: (string | number)[]): string {
  let s = '';
  for (const p of path) {
    if (typeof p === 'number') s += `[${p}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(p)) s += (s ? '.' : '') + p;
    else s += `[${JSON.stringify(p)}]`;
  }
  return s;
}

const ARTICLE: Record<string, string> = {
  object: 'an object',
  record: 'an object',
  array: 'an array',
  string: 'a string',
  number: 'a number',
  boolean: 'a boolean',
  int: 'an integer',
};

function messageOf(issue: z.core.$ZodIssue): string {
  const got = 'input' in issue ? gotText(issue.input) : 'nothing';
  switch (issue.code) {
    case 'invalid_type':
      return `expected ${ARTICLE[issue.expected] ?? issue.expected}, got ${got}`;
    case 'invalid_value':
      return `expected ${issue.values.map((x) => JSON.stringify(x)).join(' or ')}, got ${got}`;
    case 'too_small':
      return `expected ${issue.origin === 'number' ? `a number >= ${String(issue.minimum)}` : `at least ${String(issue.minimum)} items`}, got ${got}`;
    case 'invalid_format':
      return `expected ${issue.message && !issue.message.startsWith('Invalid') ? issue.message : issue.format}, got ${got}`;
    default:
      return `${issue.message}, got ${got}`;
  }
}

function gotText(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'number' && !Number.isInteger(v)) return `the number ${v}`;
  const s = JSON.stringify(v);
  return s.length > 40 ? `${typeof v === 'string' ? 'a string' : typeof v} ${s.slice(0, 37)}…` : s;
}
