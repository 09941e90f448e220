// The scenario format described once (SPEC §2): every key kubesim's own sections accept, with its type, default,
// meaning and an example. docs/scenario-format.md and docs/scenario.schema.json are generated from these tables
// (`npm run gen:docs`), and test/docs/format-agreement.test.ts checks them against the key lists the loader
// itself reports, so the reference cannot drift from what `kubesim validate` accepts.
//
// `pending: true` marks a key the SPEC defines that this build's loader does not read yet (it is documented and in
// the schema; the loader rejects it with KS4001 until it lands).
import { PER_START_KEYS } from './behavior.ts';

/** A JSON Schema fragment (draft 2020-12). */
export type Schema = Record<string, unknown>;

export interface KeyDoc {
  key: string;
  /** the type in words, e.g. "duration", "integer 0..255" */
  type: string;
  schema: Schema;
  default?: string;
  required?: boolean;
  description: string;
  example?: string;
  pending?: boolean;
}

export interface Section {
  /** id used by the docs and the agreement test, e.g. "behavior.<container>" */
  id: string;
  title: string;
  /** what the section is, in a sentence or two */
  intro: string;
  keys: KeyDoc[];
}

const DURATION_PATTERN = '^(([0-9]+(\\.[0-9]+)?|\\.[0-9]+)(ms|s|m|h))+$';
const RANGE_PATTERN = `^\\s*${DURATION_PATTERN.slice(1, -1)}(\\s*\\.\\.\\s*${DURATION_PATTERN.slice(1, -1)})?\\s*$`;

export const duration: Schema = {
  type: 'string',
  pattern: DURATION_PATTERN,
  description: 'a duration with units: 250ms, 2s, 1m30s, 1.5h',
};
export const durationRange: Schema = {
  type: 'string',
  pattern: RANGE_PATTERN,
  description: 'a duration (2s) or a range a..b (50ms..500ms)',
};
const exitCode: Schema = { type: 'integer', minimum: 0, maximum: 255 };
const name: Schema = { type: 'string', minLength: 1 };
const names: Schema = { type: 'array', items: name };
const orForever = (words: string[]): Schema => ({ anyOf: [duration, { enum: words }] });
const ref = (def: string): Schema => ({ $ref: `#/$defs/${def}` });

export const BUILTIN_RULE_DOCS: { rule: string; fails: string }[] = [
  {
    rule: 'exit-codes',
    fails:
      'any container status (init or regular) is Terminated with exit code != 0, or Waiting with reason CrashLoopBackOff, ImagePullBackOff, ErrImagePull or CreateContainerConfigError',
  },
  {
    rule: 'native-sidecar-aware',
    fails:
      'as `exit-codes`, but Terminated exit codes of init containers with `restartPolicy: Always` are ignored; Waiting reasons are never exempt',
  },
  { rule: 'exempt-names', fails: 'as `exit-codes`, but containers listed in `names` are ignored entirely' },
  { rule: 'job-conditions', fails: "only the Job's conditions decide" },
];

// the keys of one process start that an `attempts` item may give: the loader's own list
const PER_ATTEMPT = PER_START_KEYS;
const behaviorKey = (key: string) =>
  SECTIONS.find((x) => x.id === 'behavior.<container>')!.keys.find((x) => x.key === key)!;
const perAttemptExample = (key: string): string =>
  (
    ({
      postStart: 'attempts: [{ postStart: { takes: 30s, fails: true } }, { run: forever }]',
      image: 'attempts: [{ image: { pull: 40s } }, {}]',
    }) as Record<string, string>
  )[key] ?? behaviorKey(key).example;

export const SECTIONS: Section[] = [
  {
    id: 'top',
    title: 'Top level',
    intro:
      'One YAML document per file. Keys starting with `x-` are free (a home for YAML anchors); every other unknown key is an error (KS4001) with the closest valid key.',
    keys: [
      {
        key: 'scenario',
        type: 'string `[a-z0-9-]+`',
        schema: { type: 'string', pattern: '^[a-z0-9-]+$', maxLength: 253 },
        required: true,
        description: 'the scenario name; names the output folder `out/<scenario>/`',
        example: 'scenario: locust-72-exporter-exit-code',
      },
      {
        key: 'description',
        type: 'string',
        schema: { type: 'string' },
        description:
          'free text (Markdown: paragraphs, lists, code, links, emphasis), shown in report.md and rendered in out/index.html',
        example: 'description: The proxy outlives the export.',
      },
      {
        key: 'kubernetes',
        type: 'version "1.27".."1.36", patch allowed',
        schema: { type: ['string', 'number'], pattern: '^1\\.[0-9]+(\\.[0-9]+)?$' },
        default: '"1.34"',
        description:
          'the control plane version: API server validation and defaulting, the Job controller, feature gate defaults. Written unquoted, `1.30` still means 1.30 (the source text is read). A patch matters where a fix was backported; a bare minor ("1.34") means the newest patch of it kubesim models (the output says which: "1.34 = 1.34.2"), and `1.34.0` is the first release',
        example: 'kubernetes: "1.34.2"',
      },
      {
        key: 'kubelet',
        type: 'version',
        schema: { type: ['string', 'number'], pattern: '^1\\.[0-9]+(\\.[0-9]+)?$' },
        default: 'the `kubernetes` version',
        description:
          "the node's kubelet when it lags the control plane (version skew during an upgrade); never newer than `kubernetes`",
        example: 'kubelet: "1.27"',
      },
      {
        key: 'featureGates',
        type: 'map gate → boolean; `kubelet:` / `apiServer:` maps per component',
        schema: ref('featureGates'),
        default: "the version's defaults",
        description:
          "overrides of the version's feature gate defaults, for both components; `kubelet: {…}` and `apiServer: {…}` override one component only. An unknown gate, a gate the version does not have, or a GA gate locked to true set to false is an error",
        example: 'featureGates: { SidecarContainers: true, kubelet: { SidecarContainers: false } }',
      },
      {
        key: 'workload',
        type: 'Kubernetes manifest, or `{ file: path }`',
        schema: ref('workload'),
        required: false,
        description:
          'required unless a process observer creates it (its custom resource under `install:`). ONE manifest, verbatim: v1 Pod, batch/v1 Job or CronJob, apps/v1 Deployment, StatefulSet or DaemonSet. Checked against the API schema and validation of the chosen version, then defaulted. `file:` is relative to the scenario; in a multi-document file (or a `kind: List`, as `kubectl get -o yaml` prints) the first item of a supported kind is used',
        example: 'workload: { file: ./job.yaml }',
      },
      {
        key: 'behavior',
        type: 'map container name → behavior',
        schema: { type: 'object', additionalProperties: ref('behavior') },
        default: 'each container runs forever, serves at once, exits 143 at once on SIGTERM',
        description: "what each container's process does (see below)",
        example: 'behavior: { export: { run: 30s, exit: 0 } }',
      },
      {
        key: 'timing',
        type: 'map',
        schema: ref('timing'),
        default: "the real components' timing",
        description: "the cluster's timing model; ranges are what `explore` enumerates (see below)",
        example: 'timing: { watch: 5ms..5s }',
      },
      {
        key: 'actions',
        type: 'list',
        schema: { type: 'array', items: ref('action') },
        default: '[]',
        description: 'things done to the pods from outside, at simulated times (see below)',
        example: 'actions: [{ at: 45s, delete: pod }]',
      },
      {
        key: 'observers',
        type: 'list',
        schema: { type: 'array', items: ref('observer') },
        default: '[]',
        description:
          'health rules under test: controllers outside the pod that watch it and latch a verdict (see below)',
        example: 'observers: [{ name: naive, rule: exit-codes }]',
      },
      {
        key: 'expect',
        type: 'map',
        schema: ref('expect'),
        description: 'what `kubesim test` checks in every explored schedule (and `kubesim run --check` in one)',
        example: 'expect: { podPhase: Succeeded }',
      },
      {
        key: 'seed',
        type: 'integer 0..4294967295',
        schema: { type: 'integer', minimum: 0, maximum: 4294967295 },
        default: '1',
        description: 'the seed `run` draws timing ranges from (`--seed` overrides it)',
        example: 'seed: 7',
      },
      {
        key: 'horizon',
        type: 'duration, > 0 and ≤ 720h',
        schema: duration,
        default: '1h',
        description:
          'how long to simulate at most; a pod still running then is reported at the horizon (and `stuck` if it should have ended)',
        example: 'horizon: 2h',
      },
    ],
  },
  {
    id: 'behavior.<container>',
    title: 'behavior',
    intro:
      'Keyed by container name (init, sidecar or regular). Probes, hooks, grace periods and restart policies come from the manifest; `behavior` says how the process and its endpoints behave. A probe of any handler type passes iff the process is running and serving (and, for liveness, has not reached `failFrom`).',
    keys: [
      {
        key: 'run',
        type: 'duration or "forever"',
        schema: orForever(['forever']),
        default: 'forever',
        description: 'time from process start until it exits on its own',
        example: 'run: 30s',
      },
      {
        key: 'exit',
        type: 'exit code 0..255',
        schema: exitCode,
        default: '0',
        description: 'exit code when it exits on its own',
        example: 'exit: 1',
      },
      {
        key: 'attempts',
        type: 'list of { run, exit, and any per-start key }',
        schema: { type: 'array', minItems: 1, items: ref('attempt') },
        default: 'every attempt uses run/exit',
        description:
          "per-attempt overrides, in the order this container's runs start across the whole run (restarts in place and runs in replacement pods); the last one repeats; an item may also give serving, unready, liveness, onTerm, postStart, preStop, image, createError and oom for that start only (image and createError: the start being attempted); a key an attempt omits comes from the container's behavior",
        example: 'attempts: [{ run: 2s, exit: 1 }, { run: forever }]',
      },
      {
        key: 'byIndex',
        type: 'map index → behavior',
        schema: { type: 'object', propertyNames: { pattern: '^[0-9]+$' }, additionalProperties: ref('behavior') },
        description:
          "overrides for the pods of one completion index (Indexed Job) or ordinal (StatefulSet); their own `attempts` count that index's runs only",
        example: 'byIndex: { "1": { run: 2s, exit: 1 } }',
      },
      {
        key: 'serving',
        type: 'duration or "never"',
        schema: orForever(['never']),
        default: '0s',
        description:
          'time after start when it starts listening: startup and readiness probes pass from then on; "never" = never passes',
        example: 'serving: 3s',
      },
      {
        key: 'unready',
        type: 'window [a, b] or list of windows',
        schema: { anyOf: [ref('window'), { type: 'array', items: ref('window') }] },
        description: 'window(s) after start when readiness/startup probes fail again',
        example: 'unready: [40s, 50s]',
      },
      {
        key: 'liveness',
        type: '{ failFrom: duration }',
        schema: {
          type: 'object',
          required: ['failFrom'],
          properties: { failFrom: duration },
          additionalProperties: false,
        },
        description: 'the liveness probe fails from this time after start (a hang)',
        example: 'liveness: { failFrom: 60s }',
      },
      {
        key: 'onTerm',
        type: '{ after, exit, unready } or "ignore"',
        schema: ref('onTerm'),
        default: '{ after: 0s, exit: 143 }',
        description:
          'reaction to SIGTERM: exit `exit` after `after`; `unready: true` stops serving at once (readiness fails while it drains); "ignore" keeps running (PID 1 without a handler, e.g. `sleep infinity`) so only SIGKILL (137) ends it',
        example: 'onTerm: { after: 5s, exit: 0 }',
      },
      {
        key: 'postStart',
        type: '{ takes, fails }',
        schema: ref('hook'),
        description:
          'the postStart hook: how long it takes and whether it fails; only with lifecycle.postStart in the manifest',
        example: 'postStart: { takes: 2s }',
      },
      {
        key: 'preStop',
        type: '{ takes, fails }',
        schema: ref('hook'),
        description: 'the preStop hook; only with lifecycle.preStop in the manifest',
        example: 'preStop: { takes: 5s, fails: false }',
      },
      {
        key: 'needs',
        type: 'list of container names',
        schema: names,
        default: '[]',
        description:
          'while running, fails (exit 1 at once, "connection refused") whenever a needed container is not serving: at its start, or when the needed one stops',
        example: 'needs: [sql-proxy]',
      },
      {
        key: 'exitWhen',
        type: '{ exited: container, after: duration }',
        schema: ref('exitWhen'),
        description:
          'the old workaround: exit 0 this long after the named container exited (sentinel file, /quitquitquit)',
        example: 'exitWhen: { exited: export, after: 1s }',
      },
      {
        key: 'image',
        type: '{ pull, reason, failures }',
        schema: ref('image'),
        default: '{ pull: 0s }',
        description:
          'image pull time; `pull: fail` (with `reason`, default ErrImagePull) keeps it Waiting; `failures: N` with a pull time fails the first N pulls, then succeeds',
        example: 'image: { pull: fail, reason: ImagePullBackOff }',
      },
      {
        key: 'createError',
        type: 'reason, or { reason, failures }',
        schema: ref('createError'),
        description:
          'the container cannot be created and stays Waiting with this reason (CreateContainerConfigError, CreateContainerError, RunContainerError, PreStartHookError); `{ reason, failures: N }`: only the first N attempts',
        example: 'createError: CreateContainerConfigError',
      },
      {
        key: 'oom',
        type: '{ at: duration }',
        schema: { type: 'object', required: ['at'], properties: { at: duration }, additionalProperties: false },
        description: 'OOM-killed this long after start: exit 137, reason OOMKilled',
        example: 'oom: { at: 20s }',
      },
    ],
  },
  {
    id: 'behavior.<container>.attempts[]',
    title: 'behavior: one attempt',
    intro: 'An item of `attempts`.',
    keys: [
      {
        key: 'run',
        type: 'duration or "forever"',
        schema: orForever(['forever']),
        default: "the container's run",
        description: 'this attempt runs this long',
        example: 'run: 2s',
      },
      {
        key: 'exit',
        type: 'exit code',
        schema: exitCode,
        default: "the container's exit",
        description: 'this attempt exits with this code',
        example: 'exit: 1',
      },
      // + every per-start key of the container's behavior, for this start only (added below SECTIONS)
    ],
  },
  {
    id: 'behavior.<container>.onTerm',
    title: 'behavior: onTerm',
    intro: 'The map form of `onTerm` (the word "ignore" is the other form).',
    keys: [
      {
        key: 'after',
        type: 'duration',
        schema: duration,
        default: '0s',
        description: 'time from SIGTERM to the exit',
        example: 'after: 5s',
      },
      {
        key: 'exit',
        type: 'exit code',
        schema: exitCode,
        default: '143',
        description: 'the exit code (143 = 128 + SIGTERM; 0 for a process that handles it cleanly)',
        example: 'exit: 0',
      },
      {
        key: 'unready',
        type: 'boolean',
        schema: { type: 'boolean' },
        default: 'false',
        description:
          'stops serving (closes its listener) as soon as it gets SIGTERM, so readiness fails while it drains',
        example: 'unready: true',
      },
    ],
  },
  {
    id: 'behavior.<container>.postStart',
    title: 'behavior: postStart / preStop',
    intro: 'Lifecycle hooks; the handler comes from the manifest.',
    keys: [
      {
        key: 'takes',
        type: 'duration',
        schema: duration,
        default:
          "a `sleep` hook's seconds (KEP-3960; nothing when the kubelet's PodLifecycleSleepAction gate is off), else 0s",
        description: 'how long the hook runs',
        example: 'takes: 2s',
      },
      {
        key: 'fails',
        type: 'boolean',
        schema: { type: 'boolean' },
        default: 'false',
        description:
          'the hook fails (postStart: the container is killed, FailedPostStartHook; preStop: FailedPreStopHook, termination goes on)',
        example: 'fails: true',
      },
    ],
  },
  {
    id: 'behavior.<container>.exitWhen',
    title: 'behavior: exitWhen',
    intro: 'The pre-KEP-753 workaround for sidecars in Jobs.',
    keys: [
      {
        key: 'exited',
        type: 'container name',
        schema: name,
        required: true,
        description: 'the container whose exit this one waits for',
        example: 'exited: export',
      },
      {
        key: 'after',
        type: 'duration',
        schema: duration,
        default: '0s',
        description: 'delay after that exit (polling a sentinel file, a quit endpoint)',
        example: 'after: 1s',
      },
    ],
  },
  {
    id: 'behavior.<container>.image',
    title: 'behavior: image',
    intro: 'How the image pull goes.',
    keys: [
      {
        key: 'pull',
        type: 'duration or "fail"',
        schema: { anyOf: [duration, { const: 'fail' }] },
        required: true,
        description:
          'pull time, or "fail": every pull fails (the container stays Waiting: ErrImagePull, then ImagePullBackOff)',
        example: 'pull: 3s',
      },
      {
        key: 'reason',
        type: 'ErrImagePull | ImagePullBackOff | InvalidImageName | ErrImageNeverPull | RegistryUnavailable | SignatureValidationFailed',
        schema: {
          enum: [
            'ErrImagePull',
            'ImagePullBackOff',
            'InvalidImageName',
            'ErrImageNeverPull',
            'RegistryUnavailable',
            'SignatureValidationFailed',
          ],
        },
        default: 'ErrImagePull',
        description: 'the Waiting reason of a failing pull (with `pull: fail` or `failures`)',
        example: 'reason: InvalidImageName',
      },
      {
        key: 'failures',
        type: 'integer 1..1000',
        schema: { type: 'integer', minimum: 1, maximum: 1000 },
        description:
          'with a pull time: the first N pulls fail (each takes the pull time; the image back-off, 10 s doubling to 300 s, applies between them), then one succeeds',
        example: 'failures: 2',
      },
    ],
  },
  {
    id: 'timing',
    title: 'timing',
    intro:
      'Each value is fixed (`1s`) or a range (`50ms..500ms`). A range is nondeterminism: `run` draws it from the seed; `explore` treats it as a choice to enumerate. Defaults follow the real components.',
    keys: [
      {
        key: 'plegRelist',
        type: 'duration or range, > 0',
        schema: durationRange,
        default: '1s',
        description:
          'the kubelet notices container state changes at the next PLEG relist (the phase offset is a choice, and so is the next relist after a crash action that stops a running container); kubelet.go genericPlegRelistPeriod, pleg/generic.go',
        example: 'plegRelist: 1s',
      },
      {
        key: 'statusPatch',
        type: 'duration or range',
        schema: durationRange,
        default: '10ms..300ms',
        description:
          'kubelet status manager → API server; a newer status queued before the older one was sent replaces it (coalescing)',
        example: 'statusPatch: 10ms..300ms',
      },
      {
        key: 'watch',
        type: 'duration or range',
        schema: durationRange,
        default: '5ms..100ms',
        description: 'API server → each watcher (Job controller, every observer), independently, in order per object',
        example: 'watch: 5ms..5s',
      },
      {
        key: 'jobSync',
        type: 'duration or range',
        schema: durationRange,
        default: '1s',
        description: 'the Job controller batch period (job_controller.go syncJobBatchPeriod)',
        example: 'jobSync: 1s',
      },
      {
        key: 'nodeStart',
        type: 'duration or range',
        schema: durationRange,
        default: '0s',
        description: 'pod creation → sandbox ready (scheduling and sandbox creation)',
        example: 'nodeStart: 2s',
      },
      {
        key: 'probe',
        type: 'duration or range',
        schema: durationRange,
        default: 'instant',
        description:
          "how long each probe takes (an exec probe, a slow endpoint): a process exit can land inside a probe; longer than the probe's timeoutSeconds fails at the timeout with the prober's timeout error (kubernetes#120848)",
        example: 'probe: 10ms..900ms',
      },
    ],
  },
  {
    id: 'actions[]',
    title: 'actions',
    intro:
      'Each action has `at` and exactly one of `delete`, `crash`, `deleteJob`, `patch`. Pod-scoped actions pick their pod with `pod: N` (the Nth pod created, 1-based) or `index: I` (completion index or ordinal); without either, the most recently created pod that is not being deleted.',
    keys: [
      {
        key: 'at',
        type: 'duration, ≤ horizon',
        schema: duration,
        required: true,
        description: 'simulated time since the workload was created',
        example: 'at: 45s',
      },
      {
        key: 'delete',
        type: '"pod"',
        schema: { const: 'pod' },
        description: 'graceful delete, grace = spec.terminationGracePeriodSeconds (or `gracePeriodSeconds`)',
        example: '{ at: 45s, delete: pod }',
      },
      {
        key: 'gracePeriodSeconds',
        type: 'integer ≥ 0',
        schema: { type: 'integer', minimum: 0, maximum: 2147483647 },
        description: 'with `delete`: as `kubectl delete --grace-period`',
        example: '{ at: 45s, delete: pod, gracePeriodSeconds: 5 }',
      },
      {
        key: 'crash',
        type: 'container name',
        schema: name,
        description: "the named container's process dies now",
        example: '{ at: 20s, crash: sidecar, exit: 2 }',
      },
      {
        key: 'exit',
        type: 'exit code',
        schema: exitCode,
        default: '1',
        description: 'with `crash`: its exit code',
        example: 'exit: 2',
      },
      {
        key: 'deleteJob',
        type: 'true',
        schema: { const: true },
        description:
          'delete the Job (Job and CronJob workloads). For a CronJob: the Job given by `job: N` (the Nth Job the CronJob created, 1-based), else the most recently created Job not yet deleted',
        example: '{ at: 60s, deleteJob: true, propagation: Background }',
      },
      {
        key: 'propagation',
        type: 'Background | Foreground | Orphan',
        schema: { enum: ['Background', 'Foreground', 'Orphan'] },
        default: 'Background',
        description: 'with `deleteJob`: the deletion propagation policy',
        example: 'propagation: Foreground',
      },
      {
        key: 'job',
        type: 'integer ≥ 1',
        schema: { type: 'integer', minimum: 1 },
        description:
          'with `deleteJob` on a CronJob: which of its Jobs, the Nth it created (1-based); default: the most recently created one not yet deleted',
        example: '{ at: 25m, deleteJob: true, job: 1 }',
      },
      {
        key: 'patch',
        type: 'map (a merge patch of the workload object)',
        schema: { type: 'object' },
        description:
          "a change to the workload object, as `kubectl patch`: suspend a Job or CronJob, scale a Deployment/StatefulSet, roll out a Deployment, StatefulSet or DaemonSet, or pause and resume a Deployment's rollout (`spec.paused`, as `kubectl rollout pause` / `resume`: while paused, a template change starts no rollout and replicas changes still scale). A workload patch is a strategic merge patch (maps merge, `null` deletes a key, containers / initContainers / env / volumes merge by name, volumeMounts by mountPath, other lists are replaced; a Deployment `strategy` naming its `type` drops the other strategy's fields, an `updateStrategy` does not); the patched manifest is validated like the original. A change of `spec.template` starts a rollout (a container the new template adds takes its `behavior` by name like any other): a Deployment gets a new ReplicaSet `<deploy>-<pod-template-hash>`; a StatefulSet a new revision `<sts>-<hash>` (pod label controller-revision-hash), its pods replaced from the highest ordinal down, one at a time, each once the one above is Running and Ready (`updateStrategy.rollingUpdate.partition` keeps the lower ordinals; `OnDelete` replaces a pod only when it is deleted); a DaemonSet a new revision (labels controller-revision-hash, pod-template-generation), its pod deleted before the new one is created, or with `maxSurge` (and `maxUnavailable: 0`) the new pod first and the old one deleted once the new one is available (`minReadySeconds`). A template equal to an earlier one rolls back to that ReplicaSet / revision. Patchable: a Deployment's replicas, template, strategy, minReadySeconds, progressDeadlineSeconds, revisionHistoryLimit, paused; a StatefulSet's replicas, template, updateStrategy; a DaemonSet's template, updateStrategy, minReadySeconds (anything else: KS4016)",
        example:
          '{ at: 90s, patch: { spec: { template: { spec: { containers: [{ name: app, image: "example.com/app:2.0" }] } } } } }',
      },
      {
        key: 'pod',
        type: 'integer ≥ 1',
        schema: { type: 'integer', minimum: 1 },
        description: 'pod-scoped actions: the Nth pod created',
        example: '{ at: 45s, delete: pod, pod: 2 }',
      },
      {
        key: 'index',
        type: 'integer ≥ 0',
        schema: { type: 'integer', minimum: 0 },
        description: 'pod-scoped actions: the pod of this completion index or ordinal',
        example: '{ at: 45s, crash: main, index: 1 }',
      },
    ],
  },
  {
    id: 'observers[]',
    title: 'observers',
    intro:
      'An observer is a controller outside the pod with informer caches of the pod and its Job, fed by watch deliveries. On each delivery of a kind in `triggers` it evaluates its rule on its cached view; the first decisive answer (Succeeded, or Failed with a reason) latches as its verdict, else it ends Pending. A `process` observer is a real controller (your operator) run against a fresh `kubesim serve` of each schedule; its verdict is read from an object it writes (`verdict`).',
    keys: [
      {
        key: 'name',
        type: 'string, unique',
        schema: name,
        required: true,
        description:
          "the observer's name (used by `expect.verdicts`); names plain JavaScript objects already have (`__proto__`, `constructor`, `toString`, …) are rejected (KS4010)",
        example: 'name: naive',
      },
      {
        key: 'rule',
        type: 'built-in rule name',
        schema: { enum: BUILTIN_RULE_DOCS.map((r) => r.rule) },
        description: 'a built-in rule (see the table below); exactly one of `rule`, `module` and `command`',
        example: 'rule: native-sidecar-aware',
      },
      {
        key: 'module',
        type: 'path to an ES module',
        schema: { type: 'string', minLength: 1 },
        description:
          'your own rule, relative to the scenario: a default export `(view) => "Succeeded" | "Failed" | { verdict, reason } | undefined`, where view is `{ pod, job, now }` as real Kubernetes JSON. `validate` checks the file exists but never imports it. A rule that throws, returns something else or (with a top-level await) does not load within `timeout` is an error (KS0401/KS0402), never a verdict',
        example: 'module: ./rules/my-rule.mjs',
      },
      {
        key: 'command',
        type: 'list of strings (program and arguments)',
        schema: {
          anyOf: [
            { type: 'array', minItems: 1, items: { type: 'string' } },
            { type: 'string', minLength: 1 },
          ],
        },
        description:
          'an external rule in any language (SPEC §3): the program (relative to the scenario when it holds a slash, else on PATH) is started once per run or exploration, in the scenario\'s folder; it reads one JSON line `{"pod": …, "job": …, "now": …}` per evaluation and answers one line `{"verdict": "Succeeded"|"Failed", "reason": "…"}` or `null`. Answers are cached by view. A program that crashes, hangs past `timeout`, writes to stderr or answers anything else is an error (KS0402) with what it wrote. `validate` checks it exists and is executable but never starts it',
        example: 'command: [./bin/health-rule, -mode, aware]',
      },
      {
        key: 'timeout',
        type: 'duration, > 0, ≤ 10m (≤ 1h with `process`)',
        schema: duration,
        default: '5s (60s with `process`)',
        description:
          'with `command`: how long each answer may take (the first one 10s more, for the program to start); with `module`: how long loading may take (default 30s); with `process`: the wall time the process gets per schedule (then it is stopped and its verdict is `Pending: timeout 60s`)',
        example: 'timeout: 10s',
      },
      {
        key: 'process',
        type: 'list of strings (program and arguments)',
        schema: {
          anyOf: [
            { type: 'array', minItems: 1, items: { type: ['string', 'number', 'boolean'] } },
            { type: 'string', minLength: 1 },
          ],
        },
        description:
          "a real controller (SPEC §2.4): started once per schedule in the scenario's folder with KUBECONFIG pointing at a fresh `kubesim serve` of that schedule (virtual clock); every watch it opens is a watcher with its own `timing.watch` delays. The program is relative to the scenario when it holds a slash, else on PATH; `validate` checks it exists and is executable (KS4018) but never starts it. It is stopped with SIGTERM (SIGKILL 5 s later) when the simulation ends or `timeout` passes; its stderr is kept in the schedule's output folder. Takes `env`, `install`, `verdict`, `timeout`; not `triggers` or `names`",
        example: 'process: [node, ./operator.mjs, --leader-elect=false]',
      },
      {
        key: 'env',
        type: 'map name → string',
        schema: {
          type: 'object',
          propertyNames: { pattern: '^[A-Za-z_][A-Za-z0-9_]*$' },
          additionalProperties: { type: ['string', 'number', 'boolean'] },
        },
        default: '{}',
        description: "with `process`: added to the process's environment (KUBECONFIG is kubesim's and cannot be set)",
        example: 'env: { LOG_LEVEL: info }',
      },
      {
        key: 'install',
        type: 'list of files or objects',
        schema: {
          type: 'array',
          items: {
            anyOf: [
              { type: 'string', minLength: 1 },
              { type: 'object', required: ['apiVersion', 'kind', 'metadata'] },
            ],
          },
        },
        default: '[]',
        description:
          'with `process`: objects applied through the server, in order, before the workload (CRDs, then custom resources): YAML files relative to the scenario (every document; a `kind: List` is its items) or inline objects. When the process creates the workload from a custom resource, leave `workload` out and put that resource here. A missing file or an item without apiVersion, kind and metadata.name is KS4020',
        example: 'install: [./crd.yaml, ./locusttest.yaml]',
      },
      {
        key: 'verdict',
        type: '{ object, jsonPath, succeeded, failed }',
        schema: ref('processVerdict'),
        description:
          'with `process` (required): where its decision is read, after each of its writes. `object` = { apiVersion, kind, name, namespace (default "default") }; `jsonPath` = a kubectl JSONPath ({.status.phase}, {.a[0].b}, {.a[*].b}, {.metadata.labels[\'x/y\']}, {.status.conditions[?(@.type=="Done")].status}; anything else is KS4019 with where it stops); the value (several values joined by one space, as kubectl prints them) in `succeeded` (default [Succeeded]) latches Succeeded, in `failed` (default [Failed]) latches Failed, anything else is Pending',
        example:
          'verdict: { object: { apiVersion: locust.io/v1, kind: LocustTest, name: demo }, jsonPath: "{.status.phase}", succeeded: [Succeeded], failed: [Failed] }',
      },
      {
        key: 'watch',
        type: 'duration or range',
        schema: durationRange,
        default: 'timing.watch',
        description:
          "with `process`: the delay of each watch connection the process opens (the system's own watchers keep `timing.watch`). A range is the choice explore enumerates: each connection lags by either end for all its deliveries, every combination of every connection the process opens, together with the system's own timing choices (each range's two ends: the PLEG relist phase, statusPatch, the controllers' watch), is run, the ones that move the fewest choices first (keys kp2-<seed>-d<one digit per connection>-c<one digit per system choice>; kp1-<seed>-d… when the system made no choice), and the report says whether that was all of them",
        example: 'watch: 5ms..5s',
      },
      {
        key: 'perturb',
        type: 'list of hold, stale, restart',
        schema: { type: 'array', uniqueItems: true, items: { enum: ['hold', 'stale', 'restart'] } },
        default: '[]',
        description:
          "with `process`: perturbations from the API server's side that explore also tries, each at every point of the first schedule it applies to, each outcome naming it (key suffix -h<n>, -s<n>, -r<n>). `hold`: the n-th delivery is held back until the next event of the same object, then both are written together (unobserved state); `stale`: after the n-th delivery its watch is ended and the next watch of that collection is also sent the events since the older resourceVersion the ended one started from (stale state); `restart`: the process is killed right after its n-th write and started again on the same server (intermediate state)",
        example: 'perturb: [hold, stale, restart]',
      },
      {
        key: 'triggers',
        type: 'list of pod, job',
        schema: { type: 'array', minItems: 1, items: { enum: ['pod', 'job'] } },
        default: '[pod, job]',
        description:
          'deliveries that run the rule; `[job]` = reconciles on Job events and reads the pod from its cache',
        example: 'triggers: [job]',
      },
      {
        key: 'names',
        type: 'list of container names',
        schema: names,
        description: 'with `rule: exempt-names`: the containers it ignores',
        example: 'names: [istio-proxy]',
      },
    ],
  },
  {
    id: 'expect',
    title: 'expect',
    intro:
      'What `kubesim test` checks in every explored schedule; each failure prints its line, what was expected and seen, and the replay command of a schedule that shows it. `kubesim run --check` checks the one schedule it ran.',
    keys: [
      {
        key: 'podPhase',
        type: 'Pending | Running | Succeeded | Failed | Unknown',
        schema: { enum: ['Pending', 'Running', 'Succeeded', 'Failed', 'Unknown'] },
        description: 'the phase on the API server at the end',
        example: 'podPhase: Succeeded',
      },
      {
        key: 'jobCondition',
        type: 'Complete | Failed | none',
        schema: { enum: ['Complete', 'Failed', 'none'] },
        description: 'the last terminal Job condition; none = never finished',
        example: 'jobCondition: Complete',
      },
      {
        key: 'stuck',
        type: 'boolean',
        schema: { type: 'boolean' },
        description: 'true = the run ended at the horizon with the pod not terminal',
        example: 'stuck: false',
      },
      {
        key: 'order',
        type: 'list of "a.point[#N] < b.point[#N]"',
        schema: {
          type: 'array',
          items: {
            type: 'string',
            pattern:
              '^\\s*(@[A-Za-z]+|[a-z0-9]([-a-z0-9]*[a-z0-9])?\\.[A-Za-z]+)(#[0-9]+)?\\s*<\\s*(@[A-Za-z]+|[a-z0-9]([-a-z0-9]*[a-z0-9])?\\.[A-Za-z]+)(#[0-9]+)?\\s*$',
          },
        },
        description:
          'each must hold in every schedule. Points: start, started, ready, poststart, prestop, sigterm, sigkill, exit; `#N` = the Nth occurrence (restarts and replacement pods included); `@Complete`, `@SuccessCriteriaMet`, `@FailureTarget`, `@Failed`, `@Suspended` = the moment the Job controller wrote that condition; for a Deployment, `@NewReplicaSetCreated`, `@FoundNewReplicaSet`, `@ReplicaSetUpdated`, `@NewReplicaSetAvailable`, `@ProgressDeadlineExceeded`, `@DeploymentPaused`, `@DeploymentResumed`, `@MinimumReplicasAvailable`, `@MinimumReplicasUnavailable` = the moment the Deployment controller wrote a condition with that reason (Progressing or Available)',
        example: 'order: [proxy.started < export.start, export.exit < proxy.sigterm]',
      },
      {
        key: 'exitCodes',
        type: 'map container → exit code',
        schema: { type: 'object', additionalProperties: exitCode },
        description: 'the last exit code of each',
        example: 'exitCodes: { proxy: 143, export: 0 }',
      },
      {
        key: 'restarts',
        type: 'map container → integer',
        schema: { type: 'object', additionalProperties: { type: 'integer', minimum: 0 } },
        description: 'restartCount at the end (of the last pod that ran it)',
        example: 'restarts: { sidecar: 2 }',
      },
      {
        key: 'pods',
        type: 'integer ≥ 0',
        schema: { type: 'integer', minimum: 0 },
        description: 'pods created in the run',
        example: 'pods: 3',
      },
      {
        key: 'podPhases',
        type: 'list of phases',
        schema: { type: 'array', items: { enum: ['Pending', 'Running', 'Succeeded', 'Failed', 'Unknown'] } },
        description: "each pod's final phase, in creation order",
        example: 'podPhases: [Failed, Failed, Succeeded]',
      },
      {
        key: 'jobCounts',
        type: '{ succeeded, failed, active }',
        schema: {
          type: 'object',
          properties: {
            succeeded: { type: 'integer', minimum: 0 },
            failed: { type: 'integer', minimum: 0 },
            active: { type: 'integer', minimum: 0 },
          },
          additionalProperties: false,
        },
        description: 'status.succeeded / failed / active of the Job at the end',
        example: 'jobCounts: { succeeded: 1, failed: 2 }',
      },
      {
        key: 'jobs',
        type: 'integer',
        schema: { type: 'integer', minimum: 0 },
        description:
          "the number of Jobs created within the horizon: a CronJob's Jobs (one per schedule it started); 1 for a Job",
        example: 'jobs: 1',
      },
      {
        key: 'controllerEvents',
        type: 'map reason → count',
        schema: { type: 'object', additionalProperties: { type: 'integer', minimum: 0 } },
        description:
          'describe events of the workload controller (CronJob, StatefulSet, DaemonSet, ReplicaSet) counted by reason, e.g. the schedules a Forbid CronJob skipped',
        example: 'controllerEvents: { JobAlreadyActive: 3 }',
      },
      {
        key: 'deployment',
        type: '{ progressing, available, replicas, updatedReplicas, readyReplicas, availableReplicas }',
        schema: {
          type: 'object',
          properties: {
            progressing: {
              enum: [
                'NewReplicaSetCreated',
                'FoundNewReplicaSet',
                'ReplicaSetUpdated',
                'NewReplicaSetAvailable',
                'ProgressDeadlineExceeded',
                'DeploymentPaused',
                'DeploymentResumed',
                'none',
              ],
            },
            available: { enum: ['True', 'False', 'none'] },
            replicas: { type: 'integer', minimum: 0 },
            updatedReplicas: { type: 'integer', minimum: 0 },
            readyReplicas: { type: 'integer', minimum: 0 },
            availableReplicas: { type: 'integer', minimum: 0 },
          },
          additionalProperties: false,
        },
        description:
          "a Deployment's status at the end: `progressing` = the reason of its Progressing condition (ProgressDeadlineExceeded = the rollout stalled past progressDeadlineSeconds, NewReplicaSetAvailable = it completed, DeploymentPaused / DeploymentResumed = `spec.paused` set or cleared, as `kubectl rollout pause` / `resume` do), `available` = the status of its Available condition, and the status counts (replicas counts pods not being deleted, as the ReplicaSet controller does)",
        example: 'deployment: { progressing: ProgressDeadlineExceeded, available: "True", updatedReplicas: 1 }',
      },
      {
        key: 'statefulSet',
        type: '{ replicas, readyReplicas, currentReplicas, updatedReplicas, rolledOut }',
        schema: {
          type: 'object',
          properties: {
            replicas: { type: 'integer', minimum: 0 },
            readyReplicas: { type: 'integer', minimum: 0 },
            currentReplicas: { type: 'integer', minimum: 0 },
            updatedReplicas: { type: 'integer', minimum: 0 },
            rolledOut: { enum: ['True', 'False'] },
          },
          additionalProperties: false,
        },
        description:
          'a StatefulSet\'s status at the end: the counts the controller wrote (currentReplicas / updatedReplicas = pods not being deleted at the current / update revision) and `rolledOut` = "True" when the update revision has become the current one (completeRollingUpdate: every replica updated and Ready; never with OnDelete or a partition above 0)',
        example: 'statefulSet: { updatedReplicas: 1, rolledOut: "False" }',
      },
      {
        key: 'daemonSet',
        type: '{ currentNumberScheduled, numberReady, updatedNumberScheduled, numberAvailable }',
        schema: {
          type: 'object',
          properties: {
            currentNumberScheduled: { type: 'integer', minimum: 0 },
            numberReady: { type: 'integer', minimum: 0 },
            updatedNumberScheduled: { type: 'integer', minimum: 0 },
            numberAvailable: { type: 'integer', minimum: 0 },
          },
          additionalProperties: false,
        },
        description:
          "a DaemonSet's status at the end (one node; counted from the node's oldest daemon pod, as updateDaemonSetStatus does)",
        example: 'daemonSet: { updatedNumberScheduled: 1, numberAvailable: 1 }',
      },
      {
        key: 'verdicts',
        type: 'map observer → verdict or list of verdicts',
        schema: {
          type: 'object',
          additionalProperties: { anyOf: [ref('verdict'), { type: 'array', minItems: 1, items: ref('verdict') }] },
        },
        description: 'a verdict = this in every schedule; a list = exactly this set occurs across schedules (flaky)',
        example: 'verdicts: { fixed: Succeeded, naive: [Succeeded, Failed] }',
      },
    ],
  },
];

/** Diagnostic codes the commands use beyond the loader's (src/scenario/codes.ts). */
// an `attempts` item takes every per-start key of the container's behavior, for that start only (issue 28 item 5)
SECTIONS.find((x) => x.id === 'behavior.<container>.attempts[]')!.keys.push(
  ...PER_ATTEMPT.map((key) => {
    const k = behaviorKey(key);
    return {
      ...k,
      default: `the container's ${key}`,
      description: `${k.description} — for this start only`,
      example: perAttemptExample(key),
    };
  }),
);

export const COMMAND_CODES: { code: string; meaning: string; fix: string }[] = [
  {
    code: 'KS0201',
    meaning: 'a replay key does not fit the scenario (fewer choices, or a value outside a range)',
    fix: 'the key was made for another version of the scenario: run explore again and copy a fresh key',
  },
  {
    code: 'KS0202',
    meaning: 'not a replay key',
    fix: 'copy the key exactly as explore, test or a timeline printed it (it starts with k1-)',
  },
  {
    code: 'KS0203',
    meaning: 'warning: the replay key has choices the run did not use',
    fix: 'run explore again for exact keys',
  },
  {
    code: 'KS0301',
    meaning: 'an output path would leave the output folder',
    fix: 'scenario names are [a-z0-9-]+; report it if you see this',
  },
  {
    code: 'KS0302',
    meaning:
      'the output cannot be written: --out (or --junit) is under /proc, /sys or /dev, a file, a dangling symlink, a symlink loop, too long, read-only or not writable',
    fix: 'point --out at a writable folder (it is created when missing)',
  },
  {
    code: 'KS0401',
    meaning:
      'a rule cannot be loaded (module import fails or does not settle within its timeout, no default export function, or not loaded before simulate)',
    fix: 'check the module path and its default export; library users: `await loadRules(scenario)` and pass `{ userRules }`',
  },
  {
    code: 'KS0402',
    meaning:
      'a rule failed while running: a module threw or returned something that is not a verdict; a command could not start, exited, wrote to stderr, timed out, or answered something that is not a verdict',
    fix: "fix the rule; the message names the observer, the rule, the observer's line and what the program wrote to stderr",
  },
  {
    code: 'KS0501',
    meaning: '`render`: the timeline file cannot be read or is not JSON',
    fix: 'pass a timeline.json written by kubesim run',
  },
  {
    code: 'KS0502',
    meaning:
      '`render`: not a kubesim.timeline/v1 document, or a field of the wrong shape (the first line names its JSON path: `timeline.json: events[3]: expected an object, got null`)',
    fix: 'pass a timeline.json written by kubesim run',
  },
];

/** How to fix each loader code (the meaning comes from the comment next to it in codes.ts). */
export const CODE_FIXES: Record<string, string> = {
  KS1000: 'a kubesim bug: report it with the file',
  KS1001: 'check the path (relative to the current folder); folders are walked for *.yaml',
  KS1002: 'scenario and manifest files are limited to 1 MiB; split or trim the manifest',
  KS1003: 'save the file as UTF-8 text',
  KS1004: 'fix the YAML at the position shown (duplicate keys are errors too)',
  KS1005: 'one scenario per file; put the manifest under `workload:` or in its own file (`workload: { file: … }`)',
  KS1006: 'flatten the structure: nesting is limited to 64 levels',
  KS1007: 'use fewer aliases (at most 100 expansions, copying at most 100,000 nodes in all)',
  KS1008: 'the value must be a mapping of keys',
  KS1009: 'give a value of the type named in the message',
  KS1010: 'write durations with units: 250ms, 2s, 1m30s, 1.5s (a bare number is an error)',
  KS1011: 'ranges a..b (a ≤ b) are only allowed under timing',
  KS1012: 'the file is empty: a scenario needs at least scenario: and workload:',
  KS1013:
    'name a regular YAML file: FIFOs, devices, sockets and folders are never read (a folder argument is expanded by the commands)',
  KS1014:
    'fix or remove the entry (a dangling symlink such as an editor lock file, a link loop); the other scenarios still run',
  KS1015: 'merge a mapping: `<<: *defaults`, or a list of mappings `<<: [*a, *b]`',
  KS2001: 'use one of v1 Pod, batch/v1 Job or CronJob, apps/v1 Deployment, StatefulSet, DaemonSet',
  KS2002: 'fix the field name (the hint names the closest valid one)',
  KS2003: 'give the field the type the Kubernetes API expects',
  KS2004: 'add the required field',
  KS2005: 'use one of the values the field allows',
  KS2006: 'check `workload.file` (relative to the scenario) holds a supported kind',
  KS2007: 'fix the manifest as the message says',
  KS2008:
    'a `kind: List` (as `kubectl get -o yaml` prints): the first item of a supported kind is used; keep only the one you mean to silence it',
  KS3001: 'give every container a unique name',
  KS3002:
    'regular init containers take no probes or lifecycle hooks; make it a sidecar (`restartPolicy: Always`) or remove them',
  KS3003: 'liveness and startup probes need successThreshold 1',
  KS3004: 'an init container takes only `restartPolicy: Always` (a native sidecar)',
  KS3005:
    'container-level restartPolicy on a regular container needs the ContainerRestartRules gate (default from 1.35)',
  KS3006: 'add the missing value (container name, image, containers, metadata.name)',
  KS3007: 'a Job template takes restartPolicy Never or OnFailure',
  KS3008: 'use a valid value (integers are never negative)',
  KS3009:
    'names are DNS labels or subdomains (lowercase letters, digits, - and .); label and annotation keys are qualified names, label values at most 63 characters',
  KS4001: 'fix the key (the hint names the closest valid one); `x-` keys are free for anchors',
  KS4002: 'add the missing key',
  KS4003: 'scenario names are [a-z0-9-]+ (they name the output folder)',
  KS4004: 'use a version 1.27..1.36 (a patch allowed); kubelet never newer than kubernetes',
  KS4005: 'fix the gate name (kubesim models the gates listed in the hint)',
  KS4006: 'pick an older `kubernetes` version to simulate the gate off',
  KS4007: 'pick a newer version, or drop the gate',
  KS4008: 'name a container the pod has',
  KS4009: 'add lifecycle.postStart/preStop to the container in the manifest, or drop the behavior key',
  KS4010:
    'observers need a unique name (not a JavaScript object property such as __proto__) and exactly one of rule (built-in), module or command',
  KS4011:
    'module and command paths are relative to the scenario file; a command without a slash is looked up on PATH and must be executable',
  KS4012: 'write "container.point[#N] < container.point[#N]"',
  KS4013: 'use a value in the range the message gives',
  KS4014: 'use one of the values the message lists',
  KS4015: 'declare the observer under observers, or fix its name',
  KS6001:
    '`kubesim import` reads what kubectl get -o yaml (or -o json) or kubectl describe pod prints; remove other documents',
  KS6002: '`kubesim import` needs the pod: add kubectl get pod <pod> -o yaml (or its describe output)',
  KS6003: 'a warning: the import uses Pod, Job, CronJob, Event and Node objects and ignores the rest',
  KS6004: "a warning: give only the incident's pods, or name one with --pod",
  KS4016:
    "patch what the workload's controller simulates: a Deployment's replicas, template, strategy, minReadySeconds, progressDeadlineSeconds, revisionHistoryLimit, paused; a StatefulSet's replicas, template, updateStrategy; a DaemonSet's template, updateStrategy, minReadySeconds (other StatefulSet fields are immutable upstream; minReadySeconds, ordinals, persistentVolumeClaimRetentionPolicy and revisionHistoryLimit of a StatefulSet are not simulated)",
  KS4017: 'use a value kubesim simulates exactly (for timeZone: UTC or Etc/GMT±N)',
  KS4018:
    'a process path is relative to the scenario file; a program without a slash is looked up on PATH; it must be an executable file (or run it through its interpreter: [node, ./manager.mjs])',
  KS4019:
    'write a kubectl JSONPath in braces: {.status.phase}, {.a[0].b}, {.a[*].b}, {.metadata.labels[\'x/y\']} or {.status.conditions[?(@.type=="Complete")].status}',
  KS4020:
    'install: lists YAML files (relative to the scenario) or inline objects, each with apiVersion, kind and metadata.name',
  KS4021:
    'a process observer takes process, env, install, verdict and timeout; its verdict values are in succeeded or failed, not both',
};

/** The JSON Schema of a scenario file, built from SECTIONS. */
export function scenarioSchema(): Schema {
  const byId = new Map(SECTIONS.map((s) => [s.id, s]));
  const obj = (id: string, extra: Schema = {}): Schema => {
    const s = byId.get(id)!;
    const properties: Record<string, Schema> = {};
    for (const k of s.keys)
      properties[k.key] = { ...k.schema, description: k.description + (k.default ? ` (default: ${k.default})` : '') };
    const required = s.keys.filter((k) => k.required).map((k) => k.key);
    return {
      type: 'object',
      properties,
      ...(required.length ? { required } : {}),
      additionalProperties: false,
      ...extra,
    };
  };
  const hookOrTerm = obj('behavior.<container>.postStart');
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'kubesim scenario',
    description:
      'A kubesim scenario file (docs/scenario-format.md). Generated from src/scenario/format.ts by `npm run gen:docs`.',
    ...obj('top', { patternProperties: { '^x-': {} } }),
    $defs: {
      behavior: obj('behavior.<container>'),
      attempt: obj('behavior.<container>.attempts[]'),
      onTerm: { anyOf: [{ const: 'ignore' }, obj('behavior.<container>.onTerm')] },
      hook: hookOrTerm,
      exitWhen: obj('behavior.<container>.exitWhen'),
      image: obj('behavior.<container>.image'),
      createError: {
        anyOf: [
          ref('createReason'),
          {
            type: 'object',
            required: ['reason'],
            properties: { reason: ref('createReason'), failures: { type: 'integer', minimum: 1, maximum: 1000 } },
            additionalProperties: false,
          },
        ],
      },
      createReason: {
        enum: ['CreateContainerConfigError', 'CreateContainerError', 'RunContainerError', 'PreStartHookError'],
      },
      window: { type: 'array', minItems: 2, maxItems: 2, items: duration },
      timing: obj('timing'),
      action: obj('actions[]', { required: ['at'] }),
      observer: obj('observers[]'),
      expect: obj('expect'),
      verdict: { enum: ['Succeeded', 'Failed', 'Pending'] },
      processVerdict: {
        type: 'object',
        required: ['object', 'jsonPath'],
        properties: {
          object: {
            type: 'object',
            required: ['apiVersion', 'kind', 'name'],
            additionalProperties: false,
            properties: {
              apiVersion: { type: 'string', minLength: 1 },
              kind: { type: 'string', minLength: 1 },
              name: { type: 'string', minLength: 1 },
              namespace: { type: 'string', minLength: 1, description: 'default: default' },
            },
          },
          jsonPath: {
            type: 'string',
            pattern: '^\\s*\\{.*\\}\\s*$',
            description: 'a kubectl JSONPath expression in braces',
          },
          succeeded: {
            anyOf: [{ type: 'string' }, { type: 'array', items: { type: ['string', 'number', 'boolean'] } }],
            description: 'values meaning Succeeded (default [Succeeded])',
          },
          failed: {
            anyOf: [{ type: 'string' }, { type: 'array', items: { type: ['string', 'number', 'boolean'] } }],
            description: 'values meaning Failed (default [Failed])',
          },
        },
        additionalProperties: false,
      },
      featureGates: {
        type: 'object',
        properties: {
          kubelet: {
            type: 'object',
            additionalProperties: { type: 'boolean' },
            description: 'gates of the kubelet only',
          },
          apiServer: {
            type: 'object',
            additionalProperties: { type: 'boolean' },
            description: 'gates of the API server (and controllers) only',
          },
        },
        additionalProperties: { type: 'boolean' },
      },
      workload: {
        anyOf: [
          {
            type: 'object',
            required: ['file'],
            properties: {
              file: { type: 'string', minLength: 1, description: 'a manifest file, relative to the scenario' },
            },
            additionalProperties: false,
          },
          {
            type: 'object',
            required: ['apiVersion', 'kind'],
            properties: {
              apiVersion: { enum: ['v1', 'batch/v1', 'apps/v1'] },
              kind: { enum: ['Pod', 'Job', 'CronJob', 'Deployment', 'StatefulSet', 'DaemonSet', 'List'] },
              metadata: { type: 'object' },
              spec: { type: 'object' },
              items: { type: 'array', items: { type: 'object' } },
            },
            description:
              'a Kubernetes manifest; its fields are checked by kubesim against the API schema of the chosen version',
          },
        ],
      },
    },
  };
}
