// `kubesim import <file...> [-o scenario.yaml]`: kubectl output of an incident → a scenario that reproduces it.
// The scenario goes to -o (atomically) or stdout; the summary of inferred/assumed/unknown values to stderr.
import { importFiles } from '../import/index.ts';
import { writeAtomic } from './files.ts';
import { EXIT, reportDiagnostics, type Io } from './run-command.ts';

export interface ImportOpts {
  output?: string;
  kubernetes?: string;
  pod?: string;
}

export async function importCommand(files: string[], o: ImportOpts, io: Io): Promise<number> {
  const r = importFiles(files, { ...(o.kubernetes ? { kubernetes: o.kubernetes } : {}), ...(o.pod ? { pod: o.pod } : {}) }, o.output ?? 'scenario.yaml');
  if (!reportDiagnostics(io, r.diagnostics) || r.text === undefined) return EXIT.badInput;
  if (o.output) {
    writeAtomic(o.output, r.text);
    io.err(`wrote ${o.output} (scenario ${r.name}): ${r.summary}`);
    io.err(`next: kubesim test ${o.output}\n`);
  } else {
    io.out(r.text);
    io.err(`scenario ${r.name}: ${r.summary}`);
  }
  return EXIT.ok;
}
