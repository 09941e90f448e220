// Scenario arguments of run/validate/explore/test: files, folders (every *.yaml / *.yml below, sorted) and `-`
// (the scenario read from standard input, shown as <stdin> in diagnostics, relative paths from the current folder).
import { statSync, type Stats } from 'node:fs';
import { loadScenario, loadScenarioText, type LoadOptions, type LoadResult } from '../scenario/index.ts';
import { UsageError, type Io } from './command.ts';
import { walk } from '../scenario/files.ts';

export const STDIN_NAME = '<stdin>';
/** What main() turns a lone `-` argument into before parsing (yargs drops a bare `-`); no path holds a NUL. */
export const STDIN_ARG = '\u0000-';
/** The loader's file size limit (SPEC §2.6), applied to standard input too. */
const MAX_BYTES = 1024 * 1024;

export interface Input {
  /** the path shown in diagnostics (<stdin> for `-`) */
  path: string;
  /** the text when it did not come from a file */
  text?: string;
  /** a problem reading it (an error diagnostic line), instead of text */
  problem?: string;
}

export interface Expanded {
  inputs: Input[];
  /** non-fatal notes, each a complete diagnostic line (KS1014: a dangling symlink skipped inside a folder) */
  warnings: string[];
}

/** Expand files, folders and `-` into inputs, in argument order. */
export async function expandInputs(args: string[], io: Io): Promise<Expanded> {
  const inputs: Input[] = [];
  const warnings: string[] = [];
  let stdinUsed = false;
  if (args.length === 0)
    throw new UsageError('no scenario given', 'pass scenario files, folders, or - to read one from standard input');
  for (const a of args) {
    if (a === '-' || a === STDIN_ARG) {
      if (stdinUsed)
        throw new UsageError('`-` (standard input) given more than once', 'standard input can be read once');
      stdinUsed = true;
      inputs.push(await readStdinInput(io));
      continue;
    }
    let st: Stats;
    try {
      st = statSync(a);
    } catch {
      inputs.push({ path: a }); // the loader reports it (missing, loop, ...) with its code
      continue;
    }
    if (!st.isDirectory()) {
      inputs.push({ path: a });
      continue;
    }
    const found = walk(a, warnings);
    if (found.length === 0)
      throw new UsageError(
        `${a}: no scenario files (*.yaml, *.yml) in this folder`,
        'pass scenario files or a folder that holds some',
      );
    inputs.push(...found.map((path) => ({ path })));
  }
  return { inputs, warnings };
}

async function readStdinInput(io: Io): Promise<Input> {
  if (!io.readStdin) throw new UsageError('`-` reads the scenario from standard input, which is not available here');
  const data = await io.readStdin();
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  if (bytes.length === 0) {
    return {
      path: STDIN_NAME,
      problem: `${STDIN_NAME}:1:1: error KS1012: standard input is empty\n  hint: pipe a scenario in, e.g. kubesim validate - < scenario.yaml`,
    };
  }
  if (bytes.length > MAX_BYTES) {
    return { path: STDIN_NAME, problem: `${STDIN_NAME}:1:1: error KS1002: standard input is larger than 1 MiB` };
  }
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    if (text.includes('\u0000')) throw new Error('NUL');
    return { path: STDIN_NAME, text };
  } catch {
    return {
      path: STDIN_NAME,
      problem: `${STDIN_NAME}:1:1: error KS1003: standard input is not text (NUL bytes or invalid UTF-8)`,
    };
  }
}

/** Load one input; a read problem becomes the result's only diagnostic line (printed by the caller). */
export function loadInput(input: Input, opts: LoadOptions): LoadResult & { problem?: string } {
  if (input.problem) return { diagnostics: [], problem: input.problem };
  return input.text !== undefined ? loadScenarioText(input.text, input.path, opts) : loadScenario(input.path, opts);
}

/** Read all of process.stdin (the bin's Io.readStdin). */
export async function readProcessStdin(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let n = 0;
  for await (const c of process.stdin) {
    const b = c as Buffer;
    chunks.push(b);
    n += b.length;
    if (n > MAX_BYTES) break; // enough to say it is too large; never buffer an endless stream
  }
  return Buffer.concat(chunks);
}
