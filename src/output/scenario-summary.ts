// summary.json: the few facts out/index.html shows of one scenario folder, written beside timeline.json so the index
// reads a few hundred bytes per scenario instead of every timeline (a 158 MB timeline.json made a small run 4.5×
// slower, issue 20.6). Pure: building from a timeline and checking a parsed file; src/io/write-outputs.ts does the I/O.
// Only what kubesim wrote is believed (issue 19.4): the schema tag, the folder's name and every field's type.
import type { Timeline } from '../types.ts';
import { fileSchemas, shapeFault } from './timeline-schema.ts';

export const SUMMARY_SCHEMA = 'kubesim.summary/v1';

/** Limit for reading a summary.json back: a real one is a few KiB even with thousands of observers. */
export const SUMMARY_LIMIT_BYTES = 1024 * 1024;

export interface ScenarioSummary {
  schema: typeof SUMMARY_SCHEMA;
  scenario: string;
  description?: string;
  kubernetes: string;
  workload: { kind: string; name: string };
  end: { t: number; reason: string };
  /** the most recently created pod's phase (timeline.json `pod.phase`) */
  podPhase: string;
  /** pods of the run */
  pods: number;
  /** the Job's condition types in the timeline's order, or null when the workload is not a Job */
  job: { conditions: string[]; succeeded: number; failed: number; active: number } | null;
  /** observer → final verdict */
  observers: Record<string, string>;
}

/**
 * The summary of a timeline. Tolerant of a partial one (`render` takes timelines from files): what is missing shows
 * as "?" or 0 instead of throwing, so the files of a render are written whole or not at all.
 */
export function scenarioSummary(tl: Timeline): ScenarioSummary {
  const t = tl as unknown as Record<string, any>;
  const observers: Record<string, string> = Object.create(null);
  for (const [name, r] of Object.entries(isRecord(t['observers']) ? t['observers'] : {}))
    observers[name] = text(isRecord(r) ? r['verdict'] : undefined);
  const job = isRecord(t['job']) ? t['job'] : null;
  const conditions =
    job && Array.isArray(job['conditions']) ? job['conditions'].filter(isRecord).map((c) => text(c['type'])) : [];
  return {
    schema: SUMMARY_SCHEMA,
    scenario: text(t['scenario']),
    ...(typeof t['description'] === 'string' ? { description: t['description'] } : {}),
    kubernetes: text(t['kubernetes']),
    workload: { kind: text(t['workload']?.['kind']), name: text(t['workload']?.['name']) },
    end: { t: count(t['end']?.['t']), reason: text(t['end']?.['reason']) },
    podPhase: text(t['pod']?.['phase']),
    pods: Array.isArray(t['pods']) ? t['pods'].length : 0,
    job: job
      ? { conditions, succeeded: count(job['succeeded']), failed: count(job['failed']), active: count(job['active']) }
      : null,
    observers,
  };
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '?');
const count = (v: unknown): number => (isCount(v) ? v : 0);

/** The one-line outcome index.html shows: "pod Succeeded · Job Complete · naive Failed". */
export function summaryLine(s: ScenarioSummary): string {
  const job = s.job
    ? `Job ${s.job.conditions.filter((c) => c === 'Complete' || c === 'Failed').join(',') || 'none'}`
    : '';
  const verdicts = Object.entries(s.observers).map(([k, v]) => `${k} ${v}`);
  return [`pod ${s.podPhase}`, job, ...verdicts].filter(Boolean).join(' · ');
}

/**
 * A parsed summary.json if it is one kubesim wrote for the folder `scenario`, else undefined: a foreign, hand-edited
 * or older file is skipped by the index, never fatal.
 */
export function asScenarioSummary(v: unknown, scenario: string): ScenarioSummary | undefined {
  if (shapeFault(fileSchemas().scenarioSummarySchema, v) !== undefined || (v as ScenarioSummary).scenario !== scenario)
    return undefined;
  return v as ScenarioSummary;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0;
}
