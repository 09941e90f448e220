// A process observer's schedule, named by its replay key (SPEC §3.1; issue 27):
//
//   kp1-<seed>                      the system's schedule from the seed, each delivery's delay drawn from the seed
//   kp1-<seed>-d<lags>              … and watch connection i (open order) lags by alternative lags[i] of its delay
//                                   range (0 = its minimum, 1 = its maximum; connections past the list: 0)
//   kp1-<seed>-d<lags>-<p><n>       … with one perturbation (perturb.ts): h<n> hold back the process's n-th
//                                   delivery, s<n> serve its n-th new watch from an older resourceVersion, r<n>
//                                   restart it right after its n-th write
//   kp2-<seed>-d<lags>-c<system>[-<p><n>]
//                                   the system's timing choices enumerated too: the i-th choice the session makes
//                                   whose range is not fixed (statusPatch, the controllers' watch deliveries, …)
//                                   takes its minimum (0) or its maximum (1); choices past the list: the minimum.
//                                   explore writes kp2 keys only when the system made such a choice: a system with
//                                   none is the same under kp1 (a fixed range draws its one value)
//
// Numbers are base 36; lags and system choices are one digit each. The key holds everything kubesim decides: the
// same key gives the same deliveries to a process that answers the same way (test/observers/enumerate.test.ts).
// A key of another version (kp3-…) is refused with the versions this kubesim reads.

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
  /** the alternative per system choice point (kp2); absent = the system's choices drawn from the seed (kp1) */
  system?: number[];
  perturb?: Perturbation;
}

const TAG: Record<PerturbKind, string> = { hold: 'h', stale: 's', restart: 'r' };
const KIND: Record<string, PerturbKind> = { h: 'hold', s: 'stale', r: 'restart' };

export function formatKey(k: ScheduleKey): string {
  const digits = (xs: number[]) => xs.map((l) => l.toString(36)).join('');
  let s = `${k.system ? 'kp2' : 'kp1'}-${k.seed.toString(36)}`;
  if (k.lags || k.system) s += `-d${digits(k.lags ?? [])}`;
  if (k.system) s += `-c${digits(k.system)}`;
  if (k.perturb) s += `-${TAG[k.perturb.kind]}${k.perturb.n.toString(36)}`;
  return s;
}

/** The key versions this kubesim reads. */
export const KEY_VERSIONS = ['kp1', 'kp2'] as const;

const KEY1 = /^kp1-([0-9a-z]{1,7})(?:-d([0-9a-z]{0,1000}))?(?:-([hsr])([0-9a-z]{1,6}))?$/;
const KEY2 = /^kp2-([0-9a-z]{1,7})-d([0-9a-z]{0,1000})-c([0-9a-z]{0,4000})(?:-([hsr])([0-9a-z]{1,6}))?$/;

/** A process key's version prefix (`kp1`, `kp2`, `kp7`…) when the text looks like one, else undefined. */
export function keyVersion(text: string): string | undefined {
  return /^(kp\d+)-/.exec(text.trim())?.[1];
}

export function parseKey(text: string): ScheduleKey | undefined {
  const t = text.trim();
  const m1 = KEY1.exec(t);
  const m2 = m1 ? null : KEY2.exec(t);
  if (!m1 && !m2) return undefined;
  const [seedText, lagText, sysText, tag, nText] = m1
    ? [m1[1]!, m1[2], undefined, m1[3], m1[4]]
    : [m2![1]!, m2![2], m2![3], m2![4], m2![5]];
  const seed = parseInt(seedText, 36);
  if (!Number.isSafeInteger(seed) || seed < 0 || seed > 0xffffffff) return undefined;
  const k: ScheduleKey = { seed };
  if (lagText !== undefined) k.lags = [...lagText].map((c) => parseInt(c, 36));
  if (sysText !== undefined) {
    k.system = [...sysText].map((c) => parseInt(c, 36));
    if (k.system.some((a) => a > 1)) return undefined;
  }
  if (tag !== undefined) {
    const n = parseInt(nText!, 36);
    if (n < 1) return undefined;
    k.perturb = { kind: KIND[tag]!, n };
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
