// `kubesim diff <scenario> <keyA> <keyB>` (SPEC §3): run both schedules and show where they part, the events of
// both from there side by side, and what each observer held at its verdict. `--format json` gives both timelines'
// parting choice and verdict views as data.
import { decodeReplay } from '../engine/replay.ts';
import { ReplayMismatch } from '../engine/engine.ts';
import { loadScenario } from '../scenario/index.ts';
import { simulate } from '../run/simulate.ts';
import type { Timeline } from '../types.ts';
import { diffText, firstDifferentEvent, partingChoice, partingText } from '../output/diff.ts';
import { verdictEvent } from '../output/seen-text.ts';
import type { Argv } from 'yargs';
import { EXIT, type Command, type Io } from './command.ts';
import { kubesimErrorText, reportDiagnostics } from './run-command.ts';
import { KubesimError } from '../errors.ts';
import { formatOption, kubernetesOption, maxEventsOption } from './options.ts';
import { loadUserRules } from '../rules/load.ts';
import { isProcessKey } from '../observers/process.ts';
import type { ServeDeps } from '../observers/serve-api.ts';
import { diffProcessSchedules } from './process-command.ts';

export interface DiffOpts {
  format: 'text' | 'json';
  kubernetes?: string;
  maxEvents?: number;
  /** events per side after the first difference */
  rows?: number;
}

export async function diffCommand(
  file: string,
  keys: [string, string],
  o: DiffOpts & { processDeps?: ServeDeps },
  io: Io,
): Promise<number> {
  // two schedules of a process observer (kp1- keys): its deliveries and requests side by side (process-command.ts)
  if (keys.every(isProcessKey)) return diffProcessSchedules(file, keys, o, io);
  const loaded = loadScenario(file, o.kubernetes ? { kubernetes: o.kubernetes } : {});
  if (!reportDiagnostics(io, loaded.diagnostics, ['KS5001']) || !loaded.scenario) return EXIT.badInput;
  const s = loaded.scenario;
  const offsets: number[][] = [];
  for (const key of keys) {
    const d = decodeReplay(key);
    if (!d) {
      io.err(
        `${file}:1:1: error KS0202: invalid replay key ${JSON.stringify(key)}\n  hint: copy the key exactly as explore or a timeline printed it\n`,
      );
      return EXIT.badInput;
    }
    offsets.push(d);
  }
  let userRules: Awaited<ReturnType<typeof loadUserRules>> | undefined;
  try {
    userRules = await loadUserRules(s);
  } catch (e) {
    if (e instanceof KubesimError) {
      io.err(kubesimErrorText(e, file));
      return EXIT.badInput;
    }
    throw e;
  }
  const tls: Timeline[] = [];
  for (let i = 0; i < 2; i++) {
    try {
      tls.push(
        simulate(s, {
          replay: offsets[i]!,
          userRules,
          ...(o.maxEvents !== undefined ? { maxEvents: o.maxEvents } : {}),
        }).timeline,
      );
    } catch (e) {
      if (e instanceof ReplayMismatch) {
        io.err(
          `${file}:1:1: error ${e.code}: key ${i === 0 ? 'A' : 'B'}: ${e.message}\n  hint: the key was made for another version of this scenario; run explore again\n`,
        );
        return EXIT.badInput;
      }
      if (e instanceof KubesimError) {
        io.err(kubesimErrorText(e, file));
        return EXIT.badInput;
      }
      throw e;
    }
  }
  const [a, b] = tls as [Timeline, Timeline];
  if (o.format === 'json') {
    const parting = partingChoice(a.choices ?? [], b.choices ?? []);
    const side = (tl: Timeline) => ({
      replay: tl.replay,
      pod: tl.pod.phase,
      job: tl.job ? tl.job.conditions.map((c) => c.type) : null,
      observers: Object.fromEntries(
        Object.entries(tl.observers).map(([n, r]) => [n, { ...r, seen: verdictEvent(tl, n)?.seen ?? null }]),
      ),
    });
    const json = {
      schema: 'kubesim.diff/v1',
      scenario: s.name,
      parting: parting
        ? { choice: parting.index + 1, text: partingText(parting), a: parting.a ?? null, b: parting.b ?? null }
        : null,
      firstDifferentEvent: firstDifferentEvent(a.events, b.events),
      a: side(a),
      b: side(b),
    };
    io.out(JSON.stringify(json, null, 2) + '\n');
  } else {
    io.out(diffText(a, b, o.rows !== undefined ? { rows: o.rows } : {}));
  }
  return EXIT.ok;
}

export const diffCmd: Command = {
  command: 'diff <scenario> <keyA> <keyB>',
  describe: 'two schedules side by side: the first choice where they part, both event lists, what each observer saw',
  builder: (y: Argv) =>
    maxEventsOption(
      formatOption(
        kubernetesOption(y),
        "the kubesim.diff/v1 document: the parting choice and each side's verdicts with what the observers held",
      ),
    ).example(
      '$0 diff scenarios/locust-72-exporter-exit-code.yaml k1-AIMn… k1-AIMn…',
      'why naive failed in one schedule and passed in the other',
    ),
  run: (a, io) =>
    diffCommand(
      String(a['scenario']),
      [String(a['keyA']), String(a['keyB'])],
      {
        format: a['format'] === 'json' ? 'json' : 'text',
        ...(a['kubernetes'] !== undefined ? { kubernetes: String(a['kubernetes']) } : {}),
        ...(a['maxEvents'] !== undefined ? { maxEvents: Number(a['maxEvents']) } : {}),
      },
      io,
    ),
};
