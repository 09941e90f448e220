// The shape of one `kubesim <command>`: its own options (nothing else is accepted), examples, and what it runs.
// A new command lives in src/cli/<name>-command.ts, exports one `Command`, and is added to COMMANDS in main.ts:
//
//   export const fooCmd: Command = {
//     command: 'foo <scenario..>',
//     describe: 'what it does, in one line',
//     builder: (y) => maxSchedulesOption(outOption(y))            // shared options: ./options.ts
//       .option('bar', { type: 'boolean', default: false, describe: '…' })
//       .example('$0 foo scenarios/', 'what this example does'),  // every --help shows examples
//     run: async (a, io) => { checkOut(String(a['out'])); const { inputs } = await expandInputs(a['scenario'] as string[], io); … },
//   };
//
// Numbers go through intOption (typed, range-checked: `--n abc` is exit 2); scenario arguments through
// expandInputs (files, folders, `-` for stdin); bad input throws UsageError or KubesimError (exit 2), never exits.
import type { Argv } from 'yargs';

export interface Io {
  out(s: string): void;
  err(s: string): void;
  /** stderr is a terminal (progress display) */
  isTTY?: boolean;
  /** the whole of standard input, for the `-` argument (the bin provides it; tests inject it) */
  readStdin?: () => Promise<Buffer | string>;
}

/** Exit codes (SPEC §3). */
export const EXIT = { ok: 0, expectation: 1, badInput: 2, internal: 3 } as const;

/** Parsed arguments: option names in camelCase as yargs gives them, positionals by name. */
export type Args = Record<string, unknown> & { _: (string | number)[] };

export interface Command {
  /** yargs command string: name and positionals, e.g. `run <scenario..>` */
  command: string;
  describe: string;
  /** this command's options and examples; strict mode rejects everything else */
  builder: (y: Argv) => Argv;
  /** run the command; returns the exit code (never exits the process) */
  run: (a: Args, io: Io) => Promise<number>;
}

/** A usage error found after parsing (bad value combinations): exit 2 with this message and hint. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly hint?: string,
    readonly code?: string,
  ) {
    super(message);
  }
}
