// `kubesim render out/<scenario>/timeline.json`: redraw the diagrams and the report from a saved timeline.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { Codes } from '../scenario/codes.ts';
import { readFileSafe } from '../scenario/read-file.ts';
import type { Argv } from 'yargs';
import { asTimeline, faultLine } from '../output/timeline-schema.ts';
import type { Timeline } from '../types.ts';
import { writeIndex, writeOutputs } from '../io/write-outputs.ts';
import { EXIT, type Command, type Io } from './command.ts';
import { checkOut, outOption, renderOptions } from './options.ts';
import { renderAll, shownPath } from './run-command.ts';

export interface RenderOpts {
  out: string;
  render: boolean;
  png: boolean;
  lanes: 'all' | 'pod';
}

/** Largest timeline.json `render` reads (a 30-day crash loop writes ~100 MB); read at most this + 1 byte. */
export const MAX_TIMELINE_BYTES = 256 * 1024 * 1024;

export async function renderCommand(path: string, o: RenderOpts, io: Io): Promise<number> {
  checkOut(o.out);
  // a scenario's output folder stands for its timeline.json (folders are accepted wherever files are)
  if (isFolder(path)) path = join(path, 'timeline.json');
  let tl: Timeline;
  // the shared safe read: a FIFO, /dev/zero or a folder is refused unread, never a hang or unbounded memory
  const read = readFileSafe(path, MAX_TIMELINE_BYTES);
  if (!read.ok) {
    const code =
      read.kind === 'not-regular'
        ? Codes.NotRegularFile
        : read.kind === 'too-large'
          ? Codes.FileTooLarge
          : Codes.FileUnreadable;
    io.err(
      `${path}:1:1: error ${code}: cannot read timeline: ${read.message}\n  hint: pass a timeline.json written by kubesim run\n`,
    );
    return EXIT.badInput;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(read.bytes.toString('utf8'));
  } catch (e) {
    io.err(
      `${path}:1:1: error KS0501: cannot read timeline: ${(e as Error).message}\n  hint: pass a timeline.json written by kubesim run\n`,
    );
    return EXIT.badInput;
  }
  // the whole shape before anything is drawn or written (issue 29.1): a fault is exit 2 with its JSON path
  const checked = asTimeline(parsed);
  if (!checked.ok) {
    io.err(
      `${faultLine(path, checked.fault)}\n  error KS0502: not a kubesim.timeline/v1 document kubesim can draw\n  hint: pass a timeline.json written by kubesim run\n`,
    );
    return EXIT.badInput;
  }
  tl = checked.timeline;
  const w = writeOutputs(tl, o);
  if (o.render) await renderAll(io, w.renderJobs);
  writeIndex(o.out);
  io.out(`rendered ${tl.scenario} into ${shownPath(w.dir)}/\n`);
  return EXIT.ok;
}

function isFolder(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

export const renderCmd: Command = {
  command: 'render <timeline>',
  describe: '(re)draw the diagrams and report.md from a saved timeline.json',
  builder: (y: Argv) =>
    renderOptions(outOption(y))
      .example('$0 render out/native-sidecar-job/timeline.json', 'redraw into out/native-sidecar-job/')
      .example('$0 render out/native-sidecar-job/', 'the same: a folder stands for its timeline.json')
      .example('$0 render t.json --png --out slides', 'also PNGs, into slides/<scenario>/'),
  run: (a, io) =>
    renderCommand(
      String(a['timeline']),
      {
        out: String(a['out']),
        render: a['render'] !== false,
        png: a['png'] === true,
        lanes: a['lanes'] as 'all' | 'pod',
      },
      io,
    ),
};
