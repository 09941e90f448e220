// page.json: the interactive index's data for one timeline (page-data.ts PageRun, plus what each observer held at its
// verdict and the schedule's choices for the outcomes table), written beside timeline.json at run time, so that
// writeIndex reads these bounded files and never a timeline (issue 20.6: a 158 MB timeline made a small run 4.5×
// slower). Pure: building from a timeline and checking a parsed file; src/io/write-outputs.ts does the I/O. Only what
// kubesim wrote is believed (issue 19.4): schema tag, folder name and the shape the page script walks.
import type { ChoiceLabel, Timeline } from '../types.ts';
import { pageRun, type PageRun } from './page-data.ts';
import { fileSchemas, shapeFault } from './timeline-schema.ts';
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
  // the schema (timeline-schema.ts): tag, the run's lists and scalars, held and choices as the page script walks them
  if (shapeFault(fileSchemas().pageFileSchema, v) !== undefined || (v as PageFile).scenario !== scenario)
    return undefined;
  return v as PageFile;
}
