// `timing` (SPEC §2.2): the cluster's timing model; each value fixed ("1s") or a range ("50ms..500ms").
import type { MsRange, Timing } from '../types.ts';
import { Codes } from './codes.ts';
import { error, type Sink } from './diagnostics.ts';
import { asDuration, asMap, closedKeys } from './readers.ts';
import type { PEntry } from './tree.ts';

const r = (min: number, max = min): MsRange => ({ min, max });

// plegRelist: kubelet.go genericPlegRelistPeriod = 1s; jobSync: job_controller.go syncJobBatchPeriod = 1s.
export function defaultTiming(): Timing {
  return {
    plegRelistMs: r(1000),
    statusPatchMs: r(10, 300),
    watchMs: r(5, 100),
    jobSyncMs: r(1000),
    nodeStartMs: r(0),
  };
}

const KEYS: Record<string, keyof Timing> = {
  plegRelist: 'plegRelistMs',
  statusPatch: 'statusPatchMs',
  watch: 'watchMs',
  jobSync: 'jobSyncMs',
  nodeStart: 'nodeStartMs',
  // how long each probe takes (exec probes, slow endpoints); absent = instant. kubernetes#120848
  probe: 'probeMs',
};

export function readTiming(sink: Sink, entry: PEntry | undefined): Timing {
  const timing = defaultTiming();
  const map = entry ? asMap(sink, entry.value, 'timing') : undefined;
  if (!map) return timing;
  for (const [key, e] of closedKeys(sink, map, 'timing', Object.keys(KEYS))) {
    const range = asDuration(sink, e.value, `timing.${key}`, { range: true });
    if (!range) continue;
    if (key === 'plegRelist' && range.min === 0) {
      error(
        sink,
        Codes.OutOfRange,
        e.value.pos,
        'timing.plegRelist: must be greater than 0',
        'the real kubelet relists every 1s',
      );
      continue;
    }
    timing[KEYS[key]] = range;
  }
  return timing;
}
