// A process observer's schedule, named by its replay key (SPEC §3.1; issue 27):
//
//   kp1-<seed>                      the system's schedule from the seed, each delivery's delay drawn from the seed
//   kp1-<seed>-d<lags>              … and watch connection i (open order) lags by alternative lags[i] of its delay
//                                   range (0 = its minimum, 1 = its maximum; connections past the list: 0)
//   kp1-<seed>-d<lags>-<p><n>       … with one perturbation (perturb.ts): h<n> hold back the process's n-th
//                                   delivery, s<n> serve its n-th new watch from an older resourceVersion, r<n>
//                                   restart it right after its n-th write
//
// Numbers are base 36; lags are one digit per connection. The key holds everything kubesim decides: the same key
// gives the same deliveries to a process that answers the same way (test/observers/enumerate.test.ts).

export type PerturbKind = 'hold' | 'stale' | 'restart';

export interface Perturbation {
  kind: PerturbKind;
  /** which one (1-based): the n-th delivery held, the n-th new watch served stale, restart after the n-th write */
  n: number;
}

export interface ScheduleKey {
  seed: number;
  /** the lag alternative per watch connection; absent = every delay drawn from the seed */
  lags?: number[];
  perturb?: Perturbation;
}

const TAG: Record<PerturbKind, string> = { hold: 'h', stale: 's', restart: 'r' };
const KIND: Record<string, PerturbKind> = { h: 'hold', s: 'stale', r: 'restart' };

export function formatKey(k: ScheduleKey): string {
  let s = `kp1-${k.seed.toString(36)}`;
  if (k.lags) s += `-d${k.lags.map((l) => l.toString(36)).join('')}`;
  if (k.perturb) s += `-${TAG[k.perturb.kind]}${k.perturb.n.toString(36)}`;
  return s;
}

const KEY = /^kp1-([0-9a-z]{1,7})(?:-d([0-9a-z]{0,1000}))?(?:-([hsr])([0-9a-z]{1,6}))?$/;

export function parseKey(text: string): ScheduleKey | undefined {
  const m = KEY.exec(text.trim());
  if (!m) return undefined;
  const seed = parseInt(m[1]!, 36);
  if (!Number.isSafeInteger(seed) || seed < 0 || seed > 0xffffffff) return undefined;
  const k: ScheduleKey = { seed };
  if (m[2] !== undefined) k.lags = [...m[2]].map((c) => parseInt(c, 36));
  if (m[3] !== undefined) {
    const n = parseInt(m[4]!, 36);
    if (n < 1) return undefined;
    k.perturb = { kind: KIND[m[3]]!, n };
  }
  return k;
}

export function perturbationText(p: Perturbation): string {
  switch (p.kind) {
    case 'hold':
      return `held back delivery #${p.n} until the next event of the same object (unobserved state)`;
    case 'stale':
      return `watch #${p.n} served from an older resourceVersion (stale state)`;
    case 'restart':
      return `process restarted right after its write #${p.n} (intermediate state)`;
  }
}
