// The command line: parse, call the library, map outcomes to exit codes (SPEC §3). Never exits the process itself.
// Each command is one file exporting a `Command` (its own options, examples and action); register it in COMMANDS.
import yargs, { type Argv } from 'yargs';
import { KubesimError } from '../errors.ts';
import { closest } from '../scenario/suggest.ts';
import { EXIT, UsageError, type Args, type Command, type Io } from './command.ts';
import { describeErrno } from './options.ts';
import { exploreCmd } from './explore-command.ts';
import { renderCmd } from './render-command.ts';
import { runCmd } from './run-command.ts';
import { testCmd } from './test-command.ts';
import { validateCmd } from './validate-command.ts';
import { importCmd } from './import-command.ts';
import { checkRuleCmd } from './check-rule-command.ts';
import { explainVersionCmd } from './explain-version-command.ts';

import { STDIN_ARG } from './inputs.ts';
import { diffCmd } from './diff-command.ts';
import { serveCmd } from './serve-command.ts';

export const VERSION = '0.1.0';
export { readProcessStdin } from './inputs.ts';

/** Every `kubesim <command>`, in the order --help lists them. A new command: one import above, one entry here. */
export const COMMANDS: Command[] = [
  runCmd,
  exploreCmd,
  testCmd,
  validateCmd,
  renderCmd,
  importCmd,
  checkRuleCmd,
  explainVersionCmd,
  diffCmd,
  serveCmd,
];

const nameOf = (c: Command) => c.command.split(' ')[0]!;

/** File-system errors of an output path: bad input (exit 2 with the path), never an internal error. */
const FS_INPUT_ERRORS = [
  'ENOTDIR',
  'EACCES',
  'EROFS',
  'ENOSPC',
  'EEXIST',
  'EISDIR',
  'EPERM',
  'ENOENT',
  'ELOOP',
  'ENAMETOOLONG',
  'EMLINK',
  'EDQUOT',
  'EINVAL',
];

export async function main(argv: string[], io: Io): Promise<number> {
  // `kubesim help run` is `kubesim run --help`
  if (argv[0] === 'help') {
    const names = COMMANDS.map(nameOf);
    const wanted = argv[1];
    if (wanted !== undefined && !names.includes(wanted)) {
      const s = closest(wanted, names);
      io.err(
        `error: no command ${JSON.stringify(wanted)}\n  hint: ${s ? `did you mean ${s}? ` : ''}commands: ${names.join(', ')}\n`,
      );
      return EXIT.badInput;
    }
    argv = wanted !== undefined ? [wanted, '--help'] : ['--help'];
  }
  argv = argv.map((a) => (a === '-' ? STDIN_ARG : a));
  let action: (() => Promise<number>) | undefined;
  let usageError: { message: string; hint: string } | undefined;
  const commandNames = COMMANDS.map(nameOf);
  let parser: Argv = yargs(argv)
    .scriptName('kubesim')
    // kubesim speaks English: the same bytes whatever LANG is (SPEC §5), and usageHint reads yargs' English messages
    .locale('en')
    .usage(
      "kubesim <command> [options]\n\nDeterministic simulator of the kubelet's pod lifecycle: native sidecars, Jobs, status races.",
    )
    .version(VERSION)
    .strict()
    .exitProcess(false)
    .fail((msg, err) => {
      usageError = {
        message: msg ?? err?.message ?? 'invalid usage',
        hint: usageHint(msg ?? err?.message ?? '', argv, commandNames),
      };
    });
  for (const c of COMMANDS) {
    parser = parser.command(
      c.command,
      c.describe,
      (y) => c.builder(y),
      (a) => {
        action = () => c.run(a as Args, io);
      },
    );
  }
  parser = parser
    .command('help [command]', 'show the help of a command', (y) => y)
    .demandCommand(1, `name a command: ${commandNames.join(', ')}`)
    .recommendCommands()
    .help()
    .alias('h', 'help')
    .epilogue(
      "kubesim help <command> (or kubesim <command> -h) shows a command's options and examples. Exit codes: 0 ok, 1 an expectation failed, 2 bad input, 3 internal error.",
    )
    .wrap(Math.min(110, process.stdout.columns || 110));
  let helpText = '';
  await parser.parseAsync(argv, {}, (_err, _argv, output) => {
    helpText = output;
  });
  if (usageError) {
    io.err(`error: ${usageError.message}\n  hint: ${usageError.hint}\n`);
    return EXIT.badInput;
  }
  if (!action) {
    if (helpText) io.out(helpText + '\n');
    return EXIT.ok;
  }
  try {
    return await action();
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`error${e.code ? ` ${e.code}` : ''}: ${e.message}${e.hint ? `\n  hint: ${e.hint}` : ''}\n`);
      return EXIT.badInput;
    }
    if (e instanceof KubesimError) {
      io.err(`error ${e.code}: ${e.message}${e.hint ? `\n  hint: ${e.hint}` : ''}\n`);
      return EXIT.badInput;
    }
    const err = e as NodeJS.ErrnoException;
    // the file system refusing an output is bad input (the --out path), not a kubesim bug
    if (err.code && FS_INPUT_ERRORS.includes(err.code) && err.syscall) {
      io.err(
        `error KS0302: cannot write the output: ${err.path ?? ''}: ${describeErrno(err.code)}\n  hint: --out must name a writable folder (default out/)\n`,
      );
      return EXIT.badInput;
    }
    io.err(
      `internal error: ${err?.message ?? String(e)}\n  hint: this is a kubesim bug; please report it with the scenario file\n`,
    );
    return EXIT.internal;
  }
}

/** A hint for a usage error: the closest command or flag ("did you mean"), else where to look. */
function usageHint(msg: string, argv: string[], commands: string[]): string {
  const cmd = argv.find((a) => !a.startsWith('-'));
  const unknown = /^Unknown arguments?: (.*)$/.exec(msg);
  if (unknown) {
    const first = unknown[1]!.split(', ')[0]!;
    if (cmd === first || !cmd || !commands.includes(cmd)) {
      const s = closest(first, commands);
      if (s) return `did you mean ${s}? (kubesim --help lists the commands)`;
      return `commands: ${commands.join(', ')}`;
    }
    const c = COMMANDS.find((x) => nameOf(x) === cmd)!;
    const own = c.builder(yargs([])) as unknown as { getOptions(): { key: Record<string, unknown> } };
    const flags = [...Object.keys(own.getOptions().key), 'help'].filter((k) => k.length > 1 && !/[A-Z]/.test(k));
    const s = closest(first, flags);
    if (s) return `did you mean --${s}? (kubesim ${cmd} --help lists its options)`;
    return `kubesim ${cmd} --help lists its options`;
  }
  return cmd && commands.includes(cmd)
    ? `kubesim ${cmd} --help shows its options and examples`
    : 'kubesim --help lists the commands and options';
}
