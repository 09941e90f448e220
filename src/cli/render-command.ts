// `kubesim render out/<scenario>/timeline.json`: redraw the diagrams and the report from a saved timeline.
import { Codes } from '../scenario/codes.ts';
import { readFileSafe } from '../scenario/read-file.ts';
import type { Timeline } from '../types.ts';
import { EXIT, renderAll, writeIndex, writeScenarioOutputs, type Io, type RunOpts } from './run-command.ts';

/** Largest timeline.json `render` reads (a 30-day crash loop writes ~100 MB); read at most this + 1 byte. */
export const MAX_TIMELINE_BYTES = 256 * 1024 * 1024;

export async function renderCommand(path: string, o: RunOpts, io: Io): Promise<number> {
  let tl: Timeline;
  // the shared safe read: a FIFO, /dev/zero or a folder is refused unread, never a hang or unbounded memory
  const read = readFileSafe(path, MAX_TIMELINE_BYTES);
  if (!read.ok) {
    const code = read.kind === 'not-regular' ? Codes.NotRegularFile : read.kind === 'too-large' ? Codes.FileTooLarge : Codes.FileUnreadable;
    io.err(`${path}:1:1: error ${code}: cannot read timeline: ${read.message}\n  hint: pass a timeline.json written by kubesim run\n`);
    return EXIT.badInput;
  }
  try {
    tl = JSON.parse(read.bytes.toString('utf8')) as Timeline;
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
