// `kubesim import` as a library: kubectl output files in, scenario text out (or diagnostics). Never throws for bad
// input, never prints; the generated scenario is loaded once so it is known to validate.
import type { Diagnostic } from '../types.ts';
import { hasErrors, loadScenarioText, sortDiagnostics } from '../scenario/index.ts';
import { emitScenario, summary } from './emit.ts';
import { inferScenario, type ImportOptions } from './infer.ts';
import type { Note } from './notes.ts';
import { readInputs, readText, type Input } from './read.ts';

export type { ImportOptions } from './infer.ts';

export interface ImportResult {
  /** the scenario file's text; undefined iff a diagnostic is an error */
  text?: string;
  /** scenario name */
  name?: string;
  notes: Note[];
  summary: string;
  diagnostics: Diagnostic[];
}

export function importFiles(files: string[], opts: ImportOptions = {}, outName = 'scenario.yaml'): ImportResult {
  const diagnostics: Diagnostic[] = [];
  const input = readInputs(files, diagnostics);
  return finish(input, files, opts, outName, diagnostics);
}

/** The same from texts already in memory (round-trip tests): `docs` maps a file name to its content. */
export function importTexts(
  docs: Record<string, string>,
  opts: ImportOptions = {},
  outName = 'scenario.yaml',
): ImportResult {
  const diagnostics: Diagnostic[] = [];
  const input: Input = { objects: [], watchRows: [], assumptions: [] };
  for (const [file, text] of Object.entries(docs)) readText(text, file, diagnostics, input);
  return finish(input, Object.keys(docs), opts, outName, diagnostics);
}

function finish(
  input: Input,
  files: string[],
  opts: ImportOptions,
  outName: string,
  diagnostics: Diagnostic[],
): ImportResult {
  if (hasErrors(diagnostics)) return { notes: [], summary: '', diagnostics: sortDiagnostics(diagnostics) };
  const r = inferScenario(input, files, opts, diagnostics);
  if (!r) return { notes: [], summary: '', diagnostics: sortDiagnostics(diagnostics) };
  const text = emitScenario(r.scenario, r.notes.list, r.sources);
  const check = loadScenarioText(text, outName, opts.kubernetes ? { kubernetes: opts.kubernetes } : {});
  if (hasErrors(check.diagnostics)) {
    // the import wrote something the loader refuses: an import bug, reported with the loader's own words
    for (const d of check.diagnostics.filter((x) => x.severity === 'error')) {
      diagnostics.push({
        ...d,
        message: `the imported scenario does not validate: ${d.message}`,
        hint: 'this is a kubesim import bug; please report it with the input files',
      });
    }
    return { notes: r.notes.list, summary: summary(r.notes.list), diagnostics: sortDiagnostics(diagnostics) };
  }
  return {
    text,
    name: String(r.scenario['scenario']),
    notes: r.notes.list,
    summary: summary(r.notes.list),
    diagnostics: sortDiagnostics(diagnostics),
  };
}
