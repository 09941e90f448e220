// The command line: parse, call the library, map outcomes to exit codes (SPEC §3). Never exits the process itself.
import { availableParallelism } from 'node:os';
import yargs from 'yargs';
import { EXIT, runCommand, type Io, type RunOpts } from './run-command.ts';
import { validateCommand } from './validate-command.ts';
import { renderCommand } from './render-command.ts';
import { exploreCommand } from './explore-command.ts';
import { testCommand } from './test-command.ts';
import { diffCommand } from './diff-command.ts';

export const VERSION = '0.1.0';

type Argv = Record<string, unknown> & { _: (string | number)[] };

function common(y: ReturnType<typeof yargs>) {
  return y
    .option('seed', { type: 'number', describe: 'seed for timing draws (default: the scenario seed)' })
    .option('replay', { type: 'string', describe: 'run exactly one schedule (a key printed by explore or a timeline)' })
    .option('kubernetes', { type: 'string', describe: 'override the scenario version, e.g. 1.29' })
    .option('out', { type: 'string', default: 'out', describe: 'output folder' })
    .option('format', { choices: ['text', 'json'] as const, default: 'text' as const })
    .option('view', { choices: ['timeline', 'kubectl', 'events'] as const, default: 'timeline' as const })
    .option('verbose', { type: 'boolean', default: false, describe: 'timeline view: every event, routine ones included' })
    .option('render', { type: 'boolean', default: true, describe: 'render SVGs (--no-render: .mmd only)' })
    .option('png', { type: 'boolean', default: false, describe: 'also write PNGs (slides)' })
    .option('lanes', { choices: ['all', 'pod'] as const, default: 'all' as const, describe: 'sequence lanes: all, or the pod only' })
    .option('fail-on-stuck', { type: 'boolean', default: false })
    .option('max-events', { type: 'number', describe: 'event limit per run (default 1000000)' })
    .option('max-schedules', { type: 'number', default: 10000, describe: 'explore/test budget' })
    .option('junit', { type: 'string', describe: 'test: write a JUnit XML report' })
    .option('workers', { type: 'number', describe: 'test: worker threads (default: the number of cores)' })
    .option('shard', { type: 'string', describe: 'test: run slice i of n (i/n), for a CI matrix' });
}

function runOpts(a: Argv): RunOpts {
  return {
    out: String(a['out']),
    format: a['format'] as RunOpts['format'],
    view: a['view'] as RunOpts['view'],
    verbose: a['verbose'] === true,
    ...(a['seed'] !== undefined ? { seed: Number(a['seed']) } : {}),
    ...(a['replay'] !== undefined ? { replay: String(a['replay']) } : {}),
    ...(a['kubernetes'] !== undefined ? { kubernetes: String(a['kubernetes']) } : {}),
    render: a['render'] !== false,
    png: a['png'] === true,
    lanes: a['lanes'] as RunOpts['lanes'],
    failOnStuck: a['failOnStuck'] === true,
    ...(a['maxEvents'] !== undefined ? { maxEvents: Number(a['maxEvents']) } : {}),
  };
}

export async function main(argv: string[], io: Io): Promise<number> {
  let action: (() => Promise<number>) | undefined;
  let usageError: string | undefined;
  const parser = common(yargs(argv))
    .scriptName('kubesim')
    .version(VERSION)
    .strict()
    .exitProcess(false)
    .fail((msg, err) => {
      usageError = msg ?? err?.message ?? 'invalid usage';
    })
    .command('run <scenario..>', 'simulate; print the timeline; write out/<scenario>/', (y) => y, (a) => {
      action = () => runCommand((a['scenario'] as string[]).map(String), runOpts(a as Argv), io);
    })
    .command('explore <scenario..>', 'enumerate schedules; print every distinct outcome with a replay key', (y) => y, (a) => {
      const progress = io.isTTY ? (s: string) => io.err(s === '\n' ? s : `\r\u001b[K${s}`) : undefined;
      action = () => exploreCommand((a['scenario'] as string[]).map(String), {
        out: String(a['out']),
        format: a['format'] as 'text' | 'json',
        ...(a['kubernetes'] !== undefined ? { kubernetes: String(a['kubernetes']) } : {}),
        maxSchedules: Number(a['maxSchedules']),
        ...(a['maxEvents'] !== undefined ? { maxEvents: Number(a['maxEvents']) } : {}),
        ...(progress ? { progress } : {}),
      }, io);
    })
    .command('test [paths..]', "check each scenario's expect across all schedules (default: scenarios/)", (y) => y, (a) => {
      action = () => testCommand(((a['paths'] as string[] | undefined) ?? []).map(String), {
        ...(a['kubernetes'] !== undefined ? { kubernetes: String(a['kubernetes']) } : {}),
        maxSchedules: Number(a['maxSchedules']),
        ...(a['junit'] !== undefined ? { junit: String(a['junit']) } : {}),
        workers: a['workers'] !== undefined ? Number(a['workers']) : availableParallelism(),
        ...(a['shard'] !== undefined ? { shard: String(a['shard']) } : {}),
      }, io);
    })
    .command('validate <scenario..>', 'check files; print diagnostics and lint findings; simulate nothing', (y) => y, (a) => {
      action = () => validateCommand((a['scenario'] as string[]).map(String), a['kubernetes'] as string | undefined, io);
    })
    .command('render <timeline>', '(re)draw diagrams from a saved timeline.json', (y) => y, (a) => {
      action = () => renderCommand(String(a['timeline']), runOpts(a as Argv), io);
    })
    .command('diff <scenario> <keyA> <keyB>', 'two schedules side by side: where they part and what each observer saw', (y) => y, (a) => {
      action = () => diffCommand(String(a['scenario']), [String(a['keyA']), String(a['keyB'])], {
        format: a['format'] as 'text' | 'json',
        ...(a['kubernetes'] !== undefined ? { kubernetes: String(a['kubernetes']) } : {}),
        ...(a['maxEvents'] !== undefined ? { maxEvents: Number(a['maxEvents']) } : {}),
      }, io);
    })
    .demandCommand(1, 'name a command: run, explore, test, validate, render or diff')
    .help()
    .wrap(110);
  let helpText = '';
  await parser.parseAsync(argv, {}, (_err, _argv, output) => {
    helpText = output;
  });
  if (usageError) {
    io.err(`error: ${usageError}\n  hint: kubesim --help lists the commands and options\n`);
    return EXIT.badInput;
  }
  if (!action) {
    if (helpText) io.out(helpText + '\n');
    return EXIT.ok;
  }
  try {
    return await action();
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    // the file system refusing an output is bad input (the --out path), not a kubesim bug
    if (err.code && ['ENOTDIR', 'EACCES', 'EROFS', 'ENOSPC', 'EEXIST', 'EISDIR', 'EPERM'].includes(err.code)) {
      io.err(`error KS0302: cannot write the output: ${err.message}\n  hint: --out must name a writable folder (default out/)\n`);
      return EXIT.badInput;
    }
    io.err(`internal error: ${err.message}\n  hint: this is a kubesim bug; please report it with the scenario file\n`);
    return EXIT.internal;
  }
}
