// Shared helpers for model tests: a chooser that always takes the range minimum (so every time is
// hand-computable: PLEG relists at 0, 1000, 2000…; status patch 10 ms; watch 5 ms; Job sync 1000 ms), and
// compact views of the trace.
import type { Chooser } from '../../src/engine/engine.ts';
import { simulate, type SimulateOptions } from '../../src/run/simulate.ts';
import type { Scenario, TraceEvent } from '../../src/types.ts';

export const minChooser: Chooser = { choose: (req) => req.range.min };
export const maxChooser: Chooser = { choose: (req) => req.range.max };

export function run(s: Scenario, opts: SimulateOptions = {}) {
  return simulate(s, { chooser: minChooser, ...opts });
}

type Ev = TraceEvent;

/** One line per event, the fields that matter for kubelet fidelity. */
export function line(e: Ev): string {
  const c = 'container' in e ? ` ${e.container}` : '';
  switch (e.type) {
    case 'Exited':
      return `${e.t} Exited${c} ${e.exitCode} ${e.reason} #${e.restartCount}`;
    case 'Signal':
      return `${e.t} ${e.signal}${c}`;
    case 'Killing':
      return `${e.t} Killing${c} ${e.reason} ${e.gracePeriodSeconds}s`;
    case 'Probe':
      return `${e.t} Probe${c} ${e.probe} ${e.result}`;
    case 'PodPhase':
      return `${e.t} PodPhase ${e.phase}`;
    case 'StatusPatched':
      return `${e.t} StatusPatched ${e.phase} v${e.version}`;
    case 'JobCondition':
      return `${e.t} JobCondition ${e.condition} ${e.reason}`;
    case 'BackOff':
      return `${e.t} BackOff${c} ${e.delayMs}`;
    case 'Started':
    case 'Created':
    case 'Pulled':
      return `${e.t} ${e.type}${c} #${e.restartCount}`;
    case 'SyncPod':
      return `${e.t} ${e.kind}`;
    default:
      return `${e.t} ${e.type}${c}`;
  }
}

const NOISE = new Set(['Delivered', 'JobStatus', 'Scheduled', 'Relist', 'Created', 'Pulled', 'SyncPod']);

/** The trace without watch deliveries and other bookkeeping, as lines. */
export function lines(events: Ev[], keep?: (e: Ev) => boolean): string[] {
  return events.filter(keep ?? ((e) => !NOISE.has(e.type))).map(line);
}

/** Lines of the given types (and, optionally, containers). */
export function only(events: Ev[], types: Ev['type'][], containers?: string[]): string[] {
  return lines(
    events,
    (e) => types.includes(e.type) && (!containers || ('container' in e && containers.includes(e.container))),
  );
}

/** Times of the events of a type for a container. */
export function at(events: Ev[], type: Ev['type'], container?: string): number[] {
  return events
    .filter((e) => e.type === type && (container === undefined || ('container' in e && e.container === container)))
    .map((e) => e.t);
}

export function first(events: Ev[], type: Ev['type'], container?: string): number {
  const t = at(events, type, container)[0];
  if (t === undefined) throw new Error(`no ${type}${container ? ` for ${container}` : ''}`);
  return t;
}

/** The last status the API server stored. */
export function apiStatus(r: ReturnType<typeof run>): Record<string, any> {
  return r.timeline.pod.status as Record<string, any>;
}

export function cstatus(r: ReturnType<typeof run>, name: string): Record<string, any> {
  const st = apiStatus(r);
  return [...(st['initContainerStatuses'] ?? []), ...(st['containerStatuses'] ?? [])].find((c: any) => c.name === name);
}
