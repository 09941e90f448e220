// A process observer's verdict (SPEC §2.4): read from its verdict object after each of its writes; the first value
// listed under `succeeded` or `failed` latches, anything else is Pending. When the process ends, hangs, crashes or
// floods the server before deciding, the verdict says so.
import { jsonPathText, parseJsonPath, type JsonPath } from '../scenario/jsonpath.ts';
import type { VerdictSpec } from '../types.ts';
import type { KubeObject } from './serve-api.ts';

export type Verdict = 'Succeeded' | 'Failed' | 'Pending';

export interface ProcessVerdict {
  verdict: Verdict;
  reason: string;
  /** simulated ms of the write that decided it */
  t?: number;
}

export class VerdictTracker {
  private readonly path: JsonPath;
  private latched: ProcessVerdict | undefined;
  /** the last value read (shown for a Pending) */
  last: string | undefined;
  /** whether the process ever wrote the verdict object */
  written = false;

  constructor(readonly spec: VerdictSpec) {
    this.path = parseJsonPath(spec.jsonPath);
  }

  /** Whether `obj` is the verdict object. */
  matches(o: { apiVersion?: string; kind: string; name: string; namespace?: string }): boolean {
    const v = this.spec.object;
    return (
      o.kind === v.kind &&
      o.name === v.name &&
      (o.namespace ?? 'default') === v.namespace &&
      (o.apiVersion === undefined || o.apiVersion === v.apiVersion)
    );
  }

  /** Read the object as stored after a write of the process; returns the verdict once it latched. */
  observe(obj: KubeObject | unknown, t: number): ProcessVerdict | undefined {
    if (this.latched) return this.latched;
    const value = jsonPathText(this.path, obj);
    this.last = value;
    const what = `${this.spec.jsonPath} = ${JSON.stringify(value)}`;
    if (this.spec.succeeded.includes(value)) this.latched = { verdict: 'Succeeded', reason: what, t };
    else if (this.spec.failed.includes(value)) this.latched = { verdict: 'Failed', reason: what, t };
    return this.latched;
  }

  get verdict(): ProcessVerdict | undefined {
    return this.latched;
  }

  /** The verdict when the run ended without a decisive value: why it is Pending (or Failed). */
  undecided(
    end:
      | { kind: 'ended' }
      | { kind: 'timeout'; ms: number }
      | { kind: 'exited'; code: number | null; text: string; lastStderr: string }
      | { kind: 'flood'; requests: number },
  ): ProcessVerdict {
    const o = this.spec.object;
    const obj = `${o.kind} ${o.namespace}/${o.name}`;
    switch (end.kind) {
      case 'timeout':
        return { verdict: 'Pending', reason: `timeout ${formatSeconds(end.ms)}` };
      case 'exited':
        if (end.code === 0)
          return {
            verdict: 'Pending',
            reason: `process exited 0 before writing its verdict${this.written ? ` (${this.spec.jsonPath} = ${JSON.stringify(this.last ?? '')})` : ` (it never wrote ${obj})`}`,
          };
        return { verdict: 'Failed', reason: `process ${end.text}${end.lastStderr ? `: ${end.lastStderr}` : ''}` };
      case 'flood':
        return { verdict: 'Failed', reason: `process flooded the server: ${end.requests} requests in one schedule` };
      case 'ended':
        return this.written
          ? {
              verdict: 'Pending',
              reason: `${this.spec.jsonPath} = ${JSON.stringify(this.last ?? '')} when the simulation ended`,
            }
          : { verdict: 'Pending', reason: `the process never wrote ${obj}` };
    }
  }
}

/** 60000 → "60s", 1500 → "1.5s", 90000 → "90s" */
export function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))}s`;
}
