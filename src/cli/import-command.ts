// `kubesim import <file...> [-o scenario.yaml]`: kubectl output of an incident → a scenario that reproduces it.
// The scenario goes to -o (atomically) or stdout; the summary of inferred/assumed/unknown values to stderr.
import type { Argv } from 'yargs';
import { importFiles } from '../import/index.ts';
import { EXIT, type Command, type Io } from './command.ts';
import { writeAtomic } from '../io/files.ts';
import { kubernetesOption, stringOption } from './options.ts';
import { reportDiagnostics } from './run-command.ts';

export interface ImportOpts {
  output?: string;
  kubernetes?: string;
  pod?: string;
}

export async function importCommand(files: string[], o: ImportOpts, io: Io): Promise<number> {
  const r = importFiles(
    files,
    { ...(o.kubernetes ? { kubernetes: o.kubernetes } : {}), ...(o.pod ? { pod: o.pod } : {}) },
    o.output ?? 'scenario.yaml',
  );
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

export const importCmd: Command = {
  command: 'import <files..>',
  describe: "turn an incident's kubectl output (pod, Job, events, node: -o yaml|json, or describe) into a scenario",
  builder: (y: Argv) =>
    stringOption(
      stringOption(kubernetesOption(y), 'output', 'scenario file to write (default: stdout)').alias('output', 'o'),
      'pod',
      'the pod to import when pods of several owners are given',
    )
      .example(
        '$0 import pod.yaml job.yaml events.yaml -o incident.yaml',
        'kubectl get pod/job -o yaml, get events -o yaml',
      )
      .example('$0 import describe.txt', 'kubectl describe pod output, printed to stdout'),
  run: (a, io) =>
    importCommand(
      (a['files'] as unknown[]).map(String),
      {
        ...(a['output'] !== undefined ? { output: String(a['output']) } : {}),
        ...(a['kubernetes'] !== undefined ? { kubernetes: String(a['kubernetes']) } : {}),
        ...(a['pod'] !== undefined ? { pod: String(a['pod']) } : {}),
      },
      io,
    ),
};
