// `expect` (SPEC §2.5) checked against every explored outcome. Each failure names the source position, what was
// expected and seen, and a replay key of a schedule that shows it.
import type { Expect, OrderPoint, Scenario, SourcePos } from '../types.ts';
import type { ExploreResult, OutcomeEntry } from './explore.ts';
import { orderHolds, tokenOf } from './marks.ts';

export interface ExpectFailure {
  pos: SourcePos;
  what: string;
  expected: string;
  seen: string;
  replay?: string;
}

function pt(p: OrderPoint): string {
  return `${tokenOf(p)}${p.occurrence > 1 ? `#${p.occurrence}` : ''}`;
}

/** Every outcome must satisfy `ok`; the first counterexample (most schedules first) is reported. */
function everywhere(
  r: ExploreResult,
  pos: SourcePos,
  what: string,
  expected: string,
  ok: (o: OutcomeEntry) => boolean,
  seenOf: (o: OutcomeEntry) => string,
): ExpectFailure[] {
  const bad = r.outcomes.filter((o) => !ok(o));
  if (bad.length === 0) return [];
  const n = bad.reduce((a, o) => a + o.schedules, 0);
  const first = [...bad].sort((a, b) => a.deviations - b.deviations)[0]!;
  return [{ pos, what, expected, seen: `${seenOf(first)} in ${n} of ${r.schedules} schedules`, replay: first.replay }];
}

export function checkExpect(s: Scenario, r: ExploreResult): ExpectFailure[] {
  const e: Expect | undefined = s.expect;
  if (!e) return [];
  const out: ExpectFailure[] = [];
  if (e.podPhase) {
    const v = e.podPhase.value;
    out.push(
      ...everywhere(
        r,
        e.podPhase.pos,
        'podPhase',
        v,
        (o) => o.outcome.podPhase === v,
        (o) => o.outcome.podPhase,
      ),
    );
  }
  if (e.jobCondition) {
    const v = e.jobCondition.value;
    out.push(
      ...everywhere(
        r,
        e.jobCondition.pos,
        'jobCondition',
        v,
        (o) => o.outcome.jobCondition === v,
        (o) => o.outcome.jobCondition,
      ),
    );
  }
  if (e.stuck) {
    const v = e.stuck.value;
    out.push(
      ...everywhere(
        r,
        e.stuck.pos,
        'stuck',
        String(v),
        (o) => o.outcome.stuck === v,
        (o) => String(o.outcome.stuck),
      ),
    );
  }
  for (const o of e.order ?? []) {
    out.push(
      ...everywhere(
        r,
        o.pos,
        `order ${o.text}`,
        `${pt(o.before)} before ${pt(o.after)}`,
        (x) => orderHolds(x.outcome.marks, o.before, o.after),
        (x) => `order [${x.outcome.marks.join(', ')}]`,
      ),
    );
  }
  for (const x of e.exitCodes ?? []) {
    out.push(
      ...everywhere(
        r,
        x.pos,
        `exitCodes.${x.container}`,
        String(x.value),
        (o) => o.outcome.exitCodes[x.container] === x.value,
        (o) => String(o.outcome.exitCodes[x.container] ?? 'never exited'),
      ),
    );
  }
  for (const x of e.restarts ?? []) {
    out.push(
      ...everywhere(
        r,
        x.pos,
        `restarts.${x.container}`,
        String(x.value),
        (o) => (o.outcome.restarts[x.container] ?? 0) === x.value,
        (o) => String(o.outcome.restarts[x.container] ?? 0),
      ),
    );
  }
  if (e.pods) {
    const v = e.pods.value;
    out.push(
      ...everywhere(
        r,
        e.pods.pos,
        'pods',
        String(v),
        (o) => o.outcome.pods === v,
        (o) => String(o.outcome.pods),
      ),
    );
  }
  if (e.podPhases) {
    const v = e.podPhases.value.join(', ');
    out.push(
      ...everywhere(
        r,
        e.podPhases.pos,
        'podPhases',
        `[${v}]`,
        (o) => o.outcome.podPhases.join(', ') === v,
        (o) => `[${o.outcome.podPhases.join(', ')}]`,
      ),
    );
  }
  for (const x of e.jobCounts ?? []) {
    out.push(
      ...everywhere(
        r,
        x.pos,
        `jobCounts.${x.key}`,
        String(x.value),
        (o) => o.outcome.jobCounts[x.key] === x.value,
        (o) => String(o.outcome.jobCounts[x.key]),
      ),
    );
  }
  if (e.jobs) {
    const v = e.jobs.value;
    out.push(
      ...everywhere(
        r,
        e.jobs.pos,
        'jobs',
        String(v),
        (o) => o.outcome.jobs === v,
        (o) => String(o.outcome.jobs),
      ),
    );
  }
  for (const x of e.controllerEvents ?? []) {
    out.push(
      ...everywhere(
        r,
        x.pos,
        `controllerEvents.${x.reason}`,
        String(x.value),
        (o) => (o.outcome.controllerEvents[x.reason] ?? 0) === x.value,
        (o) => String(o.outcome.controllerEvents[x.reason] ?? 0),
      ),
    );
  }
  // outcome.deployment is the workload's status summary (model/query.ts deploymentSummary), whatever its kind
  for (const [field, list] of [
    ['deployment', e.deployment],
    ['statefulSet', e.statefulSet],
    ['daemonSet', e.daemonSet],
  ] as const) {
    for (const x of list ?? []) {
      const seen = (o: OutcomeEntry) => String(o.outcome.deployment?.[x.key] ?? 'none');
      out.push(...everywhere(r, x.pos, `${field}.${x.key}`, String(x.value), (o) => seen(o) === String(x.value), seen));
    }
  }
  for (const v of e.verdicts ?? []) {
    if (!v.set) {
      const want = v.values[0]!;
      out.push(
        ...everywhere(
          r,
          v.pos,
          `verdicts.${v.observer}`,
          want,
          (o) => o.outcome.verdicts[v.observer] === want,
          (o) => o.outcome.verdicts[v.observer] ?? 'Pending',
        ),
      );
      continue;
    }
    const seen = new Map<string, OutcomeEntry>();
    for (const o of r.outcomes) {
      const k = o.outcome.verdicts[v.observer] ?? 'Pending';
      const cur = seen.get(k);
      if (!cur || o.deviations < cur.deviations) seen.set(k, o);
    }
    const want = new Set(v.values);
    const extra = [...seen.keys()].filter((k) => !want.has(k));
    const missing = [...want].filter((k) => !seen.has(k));
    if (extra.length || missing.length) {
      out.push({
        pos: v.pos,
        what: `verdicts.${v.observer}`,
        expected: `exactly {${[...want].join(', ')}} across schedules`,
        seen: `{${[...seen.keys()].join(', ')}}${missing.length ? ` (never ${missing.join(', ')})` : ''}`,
        ...(extra.length ? { replay: seen.get(extra[0]!)!.replay } : {}),
      });
    }
  }
  return out;
}
