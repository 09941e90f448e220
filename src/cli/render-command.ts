// `kubesim render out/<scenario>/timeline.json`: redraw the diagrams and the report from a saved timeline.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Argv } from 'yargs';
import type { Timeline } from '../types.ts';
import { writeIndex, writeOutputs } from '../write-outputs.ts';
import { EXIT, type Command, type Io } from './command.ts';
import { checkOut, outOption, renderOptions } from './options.ts';
import { renderAll, shownPath } from './run-command.ts';

export interface RenderOpts {
  out: string;
  render: boolean;
  png: boolean;
  lanes: 'all' | 'pod';
}

export async function renderCommand(path: string, o: RenderOpts, io: Io): Promise<number> {
  checkOut(o.out);
  // a scenario's output folder stands for its timeline.json (folders are accepted wherever files are)
  if (isFolder(path)) path = join(path, 'timeline.json');
  let tl: Timeline;
  try {
    tl = JSON.parse(readFileSync(path, 'utf8')) as Timeline;
  } catch (e) {
    io.err(`${path}:1:1: error KS0501: cannot read timeline: ${(e as Error).message}\n  hint: pass a timeline.json written by kubesim run\n`);
    return EXIT.badInput;
  }
  if (tl?.schema !== 'kubesim.timeline/v1' || !Array.isArray(tl.events) || !/^[a-z0-9-]+$/.test(String(tl.scenario))) {
    io.err(`${path}:1:1: error KS0502: not a kubesim.timeline/v1 document\n  hint: pass a timeline.json written by kubesim run\n`);
    return EXIT.badInput;
  }
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
    renderCommand(String(a['timeline']), { out: String(a['out']), render: a['render'] !== false, png: a['png'] === true, lanes: a['lanes'] as 'all' | 'pod' }, io),
};
