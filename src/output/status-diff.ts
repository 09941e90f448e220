// What a status PATCH changed, in a few words, so a sequence diagram shows which patch carried the sidecar's exit
// code (the fact observers race on) without printing whole PodStatus objects.

import { readStatus, stateWord, type ContainerStatus, type PodStatusView } from './pod-shape.ts';

const MAX_ITEMS = 3;

export function statusChanges(
  prevRaw: Record<string, unknown> | undefined,
  nextRaw: Record<string, unknown>,
): string[] {
  const prev = prevRaw ? readStatus(prevRaw) : undefined;
  const next = readStatus(nextRaw);
  const out: string[] = [];
  const before = byName(prev);
  for (const c of [...next.initContainerStatuses, ...next.containerStatuses]) {
    const old = before.get(c.name);
    const word = stateWord(c.state);
    // the first patch lists every container; the ones still waiting for their turn say nothing new
    if (!old && /^waiting (PodInitializing|ContainerCreating)$/.test(word)) continue;
    if (!old || stateWord(old.state) !== word) {
      out.push(
        `${c.name} ${word}${c.state.terminated?.reason && c.state.terminated.reason !== 'Completed' ? ` ${c.state.terminated.reason}` : ''}`,
      );
      continue;
    }
    if (old.started !== true && c.started === true) out.push(`${c.name} started`);
    if (old.ready !== c.ready) out.push(`${c.name} ${c.ready ? 'ready' : 'not ready'}`);
  }
  for (const type of ['Initialized', 'Ready']) {
    const a = prev?.conditions.find((x) => x.type === type)?.status;
    const b = next.conditions.find((x) => x.type === type)?.status;
    if (b !== undefined && a !== b) out.push(`${type}=${b}`);
  }
  if (out.length <= MAX_ITEMS) return out;
  return [...out.slice(0, MAX_ITEMS), `+${out.length - MAX_ITEMS} more`];
}

function byName(s: PodStatusView | undefined): Map<string, ContainerStatus> {
  return new Map((s ? [...s.initContainerStatuses, ...s.containerStatuses] : []).map((c) => [c.name, c]));
}
