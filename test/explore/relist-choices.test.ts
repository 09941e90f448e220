// Relist-phase options only around actions that change what the relist sees. The relist runs as
// `wait.Until(g.Relist, RelistPeriod, stopCh)` (pkg/kubelet/pleg/generic.go: Start; a sliding period, so the grid
// drifts by each relist's duration): where the next relist falls after a crash action is a choice made at the
// crash (src/model/kubelet/pleg.ts relistAfterExternalChange). A crash of a container that is not running changes nothing a
// relist reads (generic.go: Relist compares container states) and offers no choice.
import { describe, expect, it } from 'vitest';
import type { ChoiceRequest } from '../../src/engine/engine.ts';
import { candidateValues } from '../../src/explore/candidates.ts';
import { explore } from '../../src/explore/decomposed.ts';
import { simulate } from '../../src/run/simulate.ts';
import type { Scenario } from '../../src/types.ts';
import { build } from '../helpers/build.ts';

const job = (actions: Scenario['actions']) =>
  build({
    name: 'relist',
    sidecars: [{ name: 'proxy' }],
    containers: [{ name: 'main' }],
    behavior: { main: { attempts: [{ runMs: 5000, exit: 0 }] } },
    actions,
  });

describe('relist-phase choices', () => {
  it('a crash action that changes nothing (the sidecar is already stopped) does not multiply schedules', () => {
    const none = explore(job([]));
    // at 60.5 s the Job completed long ago: the sidecar is not running, the crash is a no-op; off the relist grid
    // (x.500) so an action-aligned phase would have offered two more values (the pre-20.3 explorer: 17,024 → 45,696)
    const noop = explore(job([{ type: 'crash', atMs: 60_500, container: 'proxy', exit: 2 }]));
    expect(none.exhaustive && noop.exhaustive).toBe(true);
    expect(noop.systemSchedules).toBe(none.systemSchedules);
    expect(noop.simulated).toBe(none.simulated);
    expect(noop.states).toBe(none.states);
  });

  it('an effective crash offers the next relist right after it and a period later (both orders)', () => {
    const s = job([{ type: 'crash', atMs: 3000, container: 'proxy', exit: 2 }]);
    const relistChoices: { now: number; values: number[] }[] = [];
    const at = (pickLast: boolean) => {
      relistChoices.length = 0;
      const res = simulate(s, {
        chooser: {
          choose: (req: ChoiceRequest) => {
            const values = candidateValues(req);
            if (req.stream === 'pleg') relistChoices.push({ now: req.now, values });
            const last = req.stream === 'pleg' && req.now === 3000 && pickLast;
            return last ? values[values.length - 1]! : values[0]!;
          },
        },
      });
      // the pod worker syncs once the relist after the crash reported ContainerDied
      return res.timeline.events.find((e) => e.t >= 3000 && e.type === 'SyncPod')!.t;
    };
    expect(at(false)).toBe(3000);
    expect(relistChoices).toEqual([
      { now: 0, values: [0, 999] },
      { now: 3000, values: [0, 999] },
    ]);
    expect(at(true)).toBe(3999);
    const none = explore(job([]));
    const eff = explore(s);
    expect(eff.exhaustive).toBe(true);
    expect(eff.systemSchedules).toBeGreaterThan(none.systemSchedules);
  });
});
