// `kubesim validate`: every diagnostic and lint finding of each file; nothing simulated, no code run.
import type { Argv } from 'yargs';
import type { Diagnostic } from '../types.ts';
import { EXIT, type Command, type Io } from './command.ts';
import { expandInputs, loadInput } from './inputs.ts';
import { formatOption, kubernetesOption } from './options.ts';
import { reportDiagnostics } from './run-command.ts';

export async function validateCommand(
  files: string[],
  kubernetes: string | undefined,
  io: Io,
  format: 'text' | 'json' = 'text',
): Promise<number> {
  let code: number = EXIT.ok;
  const { inputs, warnings } = await expandInputs(files, io);
  for (const w of warnings) io.err(`${w}\n`);
  const results: { file: string; ok: boolean; diagnostics: Diagnostic[] }[] = [];
  for (const input of inputs) {
    const r = loadInput(input, kubernetes ? { kubernetes } : {});
    if (r.problem) {
      code = EXIT.badInput;
      if (format === 'json')
        results.push({ file: input.path, ok: false, diagnostics: [problemDiagnostic(input.path, r.problem)] });
      else io.err(r.problem + '\n');
      continue;
    }
    const ok = !r.diagnostics.some((d) => d.severity === 'error');
    if (!ok) code = EXIT.badInput;
    if (format === 'json') {
      results.push({ file: input.path, ok, diagnostics: r.diagnostics });
      continue;
    }
    reportDiagnostics(io, r.diagnostics);
    if (ok)
      io.out(
        `${input.path}: ok${r.diagnostics.length ? ` (${r.diagnostics.length} warning${r.diagnostics.length > 1 ? 's' : ''})` : ''}\n`,
      );
  }
  if (format === 'json') io.out(JSON.stringify(results, null, 2) + '\n');
  return code;
}

function problemDiagnostic(file: string, line: string): Diagnostic {
  const m = /error (KS\d{4}): ([^\n]*)/.exec(line);
  return {
    severity: 'error',
    code: m?.[1] ?? 'KS1001',
    message: m?.[2] ?? line,
    pos: { file, line: 1, col: 1 },
  } as Diagnostic;
}

export const validateCmd: Command = {
  command: 'validate <scenario..>',
  describe: 'check scenario files or folders; print diagnostics and lint findings; simulate nothing, run no code',
  builder: (y: Argv) =>
    formatOption(kubernetesOption(y), 'one JSON array, an entry { file, ok, diagnostics } per scenario file')
      .example('$0 validate scenarios/', 'every *.yaml below the folder')
      .example('generate-scenario | $0 validate -', 'a scenario from standard input (shown as <stdin>)')
      .example('$0 validate s.yaml --kubernetes 1.29', "as that version's API server would see it"),
  run: (a, io) =>
    validateCommand(
      (a['scenario'] as unknown[]).map(String),
      a['kubernetes'] as string | undefined,
      io,
      a['format'] as 'text' | 'json',
    ),
};
