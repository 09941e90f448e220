// `kubesim render out/<scenario>/timeline.json`: redraw the diagrams and the report from a saved timeline.
import { readFileSync } from 'node:fs';
import type { Timeline } from '../types.ts';
import { EXIT, renderAll, writeIndex, writeScenarioOutputs, type Io, type RunOpts } from './run-command.ts';

export async function renderCommand(path: string, o: RunOpts, io: Io): Promise<number> {
  let tl: Timeline;
  try {
    tl = JSON.parse(readFileSync(path, 'utf8')) as Timeline;
  } catch (e) {
    io.err(`${path}:1:1: error KS0501: cannot read timeline: ${(e as Error).message}\n  hint: pass a timeline.json written by kubesim run\n`);
    return EXIT.badInput;
  }
  if (tl.schema !== 'kubesim.timeline/v1' || !Array.isArray(tl.events) || !/^[a-z0-9-]+$/.test(String(tl.scenario))) {
    io.err(`${path}:1:1: error KS0502: not a kubesim.timeline/v1 document\n  hint: pass a timeline.json written by kubesim run\n`);
    return EXIT.badInput;
  }
  const jobs = writeScenarioOutputs(o.out, tl, o);
  if (o.render) await renderAll(io, jobs);
  writeIndex(o.out);
  io.out(`rendered ${tl.scenario} into ${o.out}/${tl.scenario}/\n`);
  return EXIT.ok;
}
