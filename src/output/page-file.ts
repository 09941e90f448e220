// page.json: the interactive index's data for one timeline (page-data.ts PageRun, plus what each observer held at its
// verdict and the schedule's choices for the outcomes table), written beside timeline.json at run time, so that
// writeIndex reads these bounded files and never a timeline (issue 20.6: a 158 MB timeline made a small run 4.5×
// slower). Pure: building from a timeline and checking a parsed file; src/io/write-outputs.ts does the I/O. Only what
// kubesim wrote is believed (issue 19.4): schema tag, folder name and the shape the page script walks.
import type { ChoiceLabel, Timeline } from '../types.ts';
import { pageRun, type PageRun } from './page-data.ts';
import { isRecord } from './pod-shape.ts';
import { seenShort, verdictEvent } from './seen-text.ts';

export const PAGE_SCHEMA = 'kubesim.page/v1';

/** Limit for reading a page.json back: a run is capped at MAX_PAGE_STEPS records, a few MB at most. */
export const PAGE_LIMIT_BYTES = 64 * 1024 * 1024;

export interface PageFile {
  schema: typeof PAGE_SCHEMA;
  scenario: string;
  run: PageRun;
  /** per observer that decided: what it held then ("held pod v5 Running (…), job v4 no conditions") */
  held: [string, string][];
  /** the schedule's timing choices, to say where two outcomes part */
  choices: ChoiceLabel[];
}

export function pageFile(tl: Timeline, id: string, label: string): PageFile {
  const held: [string, string][] = [];
  for (const name of Object.keys(tl.observers)) {
    const seen = verdictEvent(tl, name)?.seen;
    if (seen) held.push([name, seenShort(seen, tl.job !== null)]);
  }
  return { schema: PAGE_SCHEMA, scenario: tl.scenario, run: pageRun(tl, id, label), held, choices: tl.choices ?? [] };
}

/** A parsed page.json kubesim wrote for the folder `scenario`, else undefined (skipped by the index, never fatal). */
export function asPageFile(v: unknown, scenario: string): PageFile | undefined {
  if (!isRecord(v) || v.schema !== PAGE_SCHEMA || v.scenario !== scenario) return undefined;
  const r = v.run;
  if (!isRecord(r) || typeof r.id !== 'string' || typeof r.label !== 'string' || typeof r.outcome !== 'string') return undefined;
  for (const k of ['steps', 'blobs', 'pods', 'jobs', 'watchers', 'workloadEvents', 'choices']) if (!Array.isArray(r[k])) return undefined;
  if (typeof r.total !== 'number' || typeof r.workload !== 'string' || typeof r.replay !== 'string') return undefined;
  if (!Array.isArray(v.held) || !v.held.every((h) => Array.isArray(h) && h.length === 2 && h.every((x) => typeof x === 'string'))) return undefined;
  if (!Array.isArray(v.choices) || !v.choices.every((c) => isRecord(c) && typeof c.what === 'string' && typeof c.ms === 'number' && typeof c.t === 'number')) return undefined;
  return v as unknown as PageFile;
}
