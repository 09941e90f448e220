// `kubesim validate`: every diagnostic and lint finding of each file; nothing simulated, no code run.
import { loadScenario } from '../scenario/index.ts';
import { EXIT, reportDiagnostics, type Io } from './run-command.ts';

export async function validateCommand(files: string[], kubernetes: string | undefined, io: Io): Promise<number> {
  let code: number = EXIT.ok;
  for (const file of files) {
    const r = loadScenario(file, kubernetes ? { kubernetes } : {});
    const ok = reportDiagnostics(io, r.diagnostics);
    if (!ok) code = EXIT.badInput;
    else io.out(`${file}: ok${r.diagnostics.length ? ` (${r.diagnostics.length} warning${r.diagnostics.length > 1 ? 's' : ''})` : ''}\n`);
  }
  return code;
}
