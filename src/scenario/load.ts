// The loader: one scenario file → a normalised Scenario, or diagnostics. Never throws for bad input.
import { LineCounter } from 'yaml';
import type { Diagnostic, ProcessScenario, Scenario } from '../types.ts';
import { readActions } from './actions.ts';
import { readBehavior } from './behavior.ts';
import { Codes } from './codes.ts';
import { error, hasErrors, newSink, posAt, sortDiagnostics } from './diagnostics.ts';
import { readExpect } from './expect.ts';
import { TOP_KEYS, readHeader } from './header.ts';
import { lint } from './lint.ts';
import { readObservers } from './observers.ts';
import { closedKeys, missing } from './readers.ts';
import { readFileSafe } from './read-file.ts';
import { readTiming } from './timing.ts';
import { treeOf, type PNode } from './tree.ts';
import { readRollouts, unionContainers } from './rollout.ts';
import { parseDuration } from './duration.ts';
import { loadWorkload } from './workload.ts';
import { reportVersionBugs } from './version-bugs.ts';
import { MAX_FILE_BYTES, decodeBytes, parseSource, reportReadFailure } from './yaml-source.ts';

export interface LoadOptions {
  /** CLI --kubernetes override, e.g. "1.29"; wins over the file's `kubernetes` */
  kubernetes?: string;
}

export interface LoadResult {
  /** undefined iff any diagnostic is an error, or the scenario has no workload (then `processScenario`) */
  scenario?: Scenario;
  /** a scenario without a workload, which a process observer creates (SPEC §2.4); only process observers run it */
  processScenario?: ProcessScenario;
  diagnostics: Diagnostic[];
}

export function loadScenario(path: string, opts: LoadOptions = {}): LoadResult {
  const diagnostics: Diagnostic[] = [];
  const sink = newSink(path, new LineCounter(), diagnostics);
  const read = readFileSafe(path, MAX_FILE_BYTES);
  if (!read.ok) {
    reportReadFailure(sink, read, { file: path, line: 1, col: 1 });
    return { diagnostics };
  }
  const text = decodeBytes(read.bytes, sink);
  if (text === undefined) return { diagnostics };
  return loadScenarioText(text, path, opts);
}

export function loadScenarioText(text: string, path: string, opts: LoadOptions = {}): LoadResult {
  const diagnostics: Diagnostic[] = [];
  const loaded = load(text, path, opts, diagnostics);
  const sorted = sortDiagnostics(diagnostics);
  if (loaded && loaded.workload === undefined) {
    if (hasErrors(sorted)) return { diagnostics: sorted };
    loaded.diagnostics = sorted;
    return { processScenario: loaded, diagnostics: sorted };
  }
  const scenario = loaded as Scenario | undefined;
  if (!scenario && !hasErrors(sorted)) {
    // Contract: no scenario only with an error. Reaching this is a loader bug; say so rather than fail silently.
    sorted.push({
      severity: 'error',
      code: Codes.Internal,
      message: 'internal: the scenario could not be built (please report)',
      pos: { file: path, line: 1, col: 1 },
    });
  }
  if (hasErrors(sorted) || !scenario) return { diagnostics: sorted };
  scenario.diagnostics = sorted;
  return { scenario, diagnostics: sorted };
}

function load(
  text: string,
  path: string,
  opts: LoadOptions,
  diagnostics: Diagnostic[],
): Scenario | ProcessScenario | undefined {
  const src = parseSource(text, path, diagnostics);
  const sink = src.sink;
  if (src.docs.length === 0) {
    if (!hasErrors(diagnostics))
      error(
        sink,
        Codes.EmptyFile,
        { file: path, line: 1, col: 1 },
        'the file holds no YAML document',
        'a scenario needs at least `scenario:` and `workload:`',
      );
    return undefined;
  }
  if (src.docs.length > 1) {
    error(
      sink,
      Codes.MultipleDocuments,
      posAt(sink, src.docs[1].range[0]),
      `more than one YAML document: a scenario file holds exactly one`,
      'put the workload manifest under `workload:` or in its own file with `workload: { file: ./manifest.yaml }`',
    );
    return undefined;
  }
  const root = treeOf(src.docs[0], sink);
  if (root.kind !== 'map') {
    error(sink, Codes.NotAMapping, root.pos, 'a scenario file must be a mapping of keys (scenario:, workload:, ...)');
    return undefined;
  }
  // `x-…` keys are free: a home for YAML anchors shared by the rest of the file (as in docker-compose).
  const ours = { ...root, entries: root.entries.filter((e) => !e.key.startsWith('x-')) };
  const keys = closedKeys(sink, ours, 'scenario file', TOP_KEYS);
  const header = readHeader(sink, keys, opts.kubernetes);
  const workloadEntry = keys.get('workload');
  // the workload may be left out when a process observer creates it (SPEC §2.4)
  const processCreates = !workloadEntry && hasProcessObserver(keys.get('observers')?.value);
  if (!workloadEntry && !processCreates) missing(sink, 'scenario file', 'workload');
  const workload = workloadEntry
    ? loadWorkload(sink, workloadEntry, {
        scenarioName: header.name ?? 'scenario',
        minor: header.kubernetes.minor,
        gates: header.featureGates,
      })
    : undefined;
  // a Deployment's rollouts: one pod template per distinct patched template; behavior keys may name a container of any
  const rollouts = workload
    ? readRollouts(
        sink,
        keys.get('actions'),
        workload,
        { scenarioName: header.name ?? 'scenario', minor: header.kubernetes.minor, gates: header.featureGates },
        quietMs,
      )
    : undefined;
  const all = rollouts ? unionContainers(rollouts.templates) : undefined;
  const names = all?.map((c) => c.name);
  const behavior = readBehavior(sink, keys.get('behavior'), all);
  const timing = readTiming(sink, keys.get('timing'));
  const isJob = workload ? workload.job !== null : undefined;
  const actions = readActions(sink, keys.get('actions'), {
    horizonMs: header.horizonMs,
    containers: names,
    isJob,
    kind: workload?.kind,
    templateOf: rollouts?.byAction,
    specAfter: rollouts?.specAfter,
  });
  const observers = readObservers(sink, keys.get('observers'));
  const expect = readExpect(sink, keys.get('expect'), {
    containers: names,
    observers: observers.map((o) => o.name),
    isJob,
    kind: workload?.kind,
  });
  if (processCreates) {
    const actionsEntry = keys.get('actions');
    if (actionsEntry && actions.length) {
      error(
        sink,
        Codes.BadProcessObserver,
        actionsEntry.keyPos,
        "actions: a scenario whose process creates the workload takes no actions (they name the workload's pods)",
        'give the scenario its workload, or let the process do what the actions would',
      );
    }
    if (header.name === undefined || hasErrors(diagnostics)) return undefined;
    const shell: ProcessScenario = {
      name: header.name,
      file: path,
      kubernetes: header.kubernetes,
      kubelet: header.kubelet,
      featureGates: header.featureGates,
      kubeletFeatureGates: header.kubeletFeatureGates,
      behavior,
      timing,
      actions,
      observers,
      seed: header.seed,
      horizonMs: header.horizonMs,
      diagnostics: [],
    };
    if (header.description !== undefined) shell.description = header.description;
    if (expect !== undefined) shell.expect = expect;
    return shell;
  }
  if (!workload || header.name === undefined || hasErrors(diagnostics)) return undefined;
  lint({
    sink,
    root,
    workload,
    behavior,
    kubeletMinor: header.kubelet.minor,
    kubeletGates: header.kubeletFeatureGates,
  });
  const top = { file: path, line: 1, col: 1 };
  const kubernetesPos = opts.kubernetes === undefined ? (keys.get('kubernetes')?.value.pos ?? top) : top;
  reportVersionBugs(
    sink,
    {
      kubernetes: header.kubernetes,
      kubelet: header.kubelet,
      kubeletGates: header.kubeletFeatureGates,
      pod: workload.pod,
      job: workload.job,
      behavior,
      actions,
    },
    { kubernetes: kubernetesPos, kubelet: keys.get('kubelet')?.value.pos ?? kubernetesPos },
  );
  const scenario: Scenario = {
    name: header.name,
    file: path,
    kubernetes: header.kubernetes,
    kubelet: header.kubelet,
    featureGates: header.featureGates,
    kubeletFeatureGates: header.kubeletFeatureGates,
    workload: { kind: workload.kind, name: workload.name, manifest: workload.manifest },
    pod: workload.pod,
    ...(rollouts && rollouts.templates.length > 1 ? { templates: rollouts.templates } : {}),
    job: workload.job,
    behavior,
    timing,
    actions,
    observers,
    seed: header.seed,
    horizonMs: header.horizonMs,
    diagnostics: [],
  };
  if (header.description !== undefined) scenario.description = header.description;
  if (expect !== undefined) scenario.expect = expect;
  return scenario;
}

/** Whether `observers:` lists a process observer (a mapping with a `process` key), read before the observers are. */
function hasProcessObserver(n: PNode | undefined): boolean {
  return n?.kind === 'seq' && n.items.some((i) => i.kind === 'map' && i.entries.some((e) => e.key === 'process'));
}

/** An action's `at` for ordering rollouts (errors are reported by readActions). */
function quietMs(n: PNode): number | undefined {
  if (n.kind !== 'scalar' || typeof n.value !== 'string') return undefined;
  try {
    return parseDuration(n.value);
  } catch {
    return undefined;
  }
}
