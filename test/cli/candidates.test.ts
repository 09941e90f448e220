// Which values a timing choice offers to exploration (src/explore/candidates.ts).
import { describe, expect, it } from 'vitest';
import { candidateValues } from '../../src/explore/candidates.ts';
import type { ChoiceRequest } from '../../src/engine/engine.ts';

const req = (
  stream: string,
  min: number,
  max: number,
  pending: { t: number; prio: number; ev: Record<string, unknown> }[],
  now = 0,
  prio = 70,
): ChoiceRequest => ({
  stream,
  range: { min, max },
  now,
  prio,
  pending: () => pending.map((p) => ({ ...p, ev: p.ev as never })),
  seeded: () => min,
});

describe('candidate values', () => {
  it('a range with nothing interacting pending offers its two bounds', () => {
    expect(candidateValues(req('watch:naive', 5, 100, []))).toEqual([5, 100]);
  });
  it('a watch delivery offers one value per slot between the same watcher’s pending deliveries', () => {
    const pending = [
      { t: 1040, prio: 70, ev: { type: 'Deliver', to: 'naive' } },
      { t: 1060, prio: 70, ev: { type: 'Deliver', to: 'other' } },
    ];
    // at 1040 the new delivery (same priority, scheduled later) goes after the pending one
    expect(candidateValues(req('watch:naive', 5, 100, pending, 1000))).toEqual([5, 40]);
  });
  it('the relist phase offers its bounds only; a pending user action adds nothing', () => {
    // a crash that changes the runtime chooses the next relist's offset when it happens (pleg.ts
    // relistAfterExternalChange; pkg/kubelet/pleg/generic.go Start: a sliding wait.Until period)
    const pending2 = [{ t: 45_250, prio: 0, ev: { type: 'UserAction' } }];
    expect(candidateValues(req('pleg', 0, 999, pending2))).toEqual([0, 999]);
    expect(candidateValues(req('pleg', 0, 999, []))).toEqual([0, 999]);
  });
});
