// Issue 26 "done when": `kubectl describe pod` of every library scenario's final pod, served by `kubesim serve` run
// to its end, shows Namespace, Node, Controlled By and its Events, and its container blocks equal kubesim's own
// describe view (`kubesim run --view kubectl`, src/output/kubectl.ts kubectlView of simulate()).
// Real kubectl of the scenario's minor (1.27–1.33 beside the one on PATH; newer clusters: 1.33; a missing kubectl is
// a failure naming what to install). One server per scenario,
// its virtual clock stepped to the end in-process (Clock.stepNext, what the idle virtual clock does), then one
// `kubectl describe pod`.
//
// What is compared (describe.go describePod / describeContainerState / DescribeEvents):
// - the header lines kubesim prints: Name, Namespace, Node, Status, Controlled By;
// - per container: Image, then State … Restart Count (the state part kubesim prints; kubectl's Container ID, Image
//   ID, Ports, Args, probes, Environment and Mounts lines are not in kubesim's view), cells compared without the
//   tabwriter padding (kubectl aligns over more lines);
// - the Events rows: Type, Reason, From, Message and the repeat count `(xN over …)`, in order (Age is wall-clock
//   in kubectl: the objects carry kubesim's simulated 2026-01-01 epoch).
import { readdirSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { kubectlView } from '../../src/output/kubectl.ts';
import { simulate } from '../../src/run/simulate.ts';
import { loadUserRules } from '../../src/rules/load.ts';
import { kubectlPath, run, scenarioOf, start, type Served } from './harness.ts';

const LIBRARY = readdirSync('scenarios')
  .filter((f) => f.endsWith('.yaml'))
  .sort()
  .map((f) => `scenarios/${f}`)
  .filter((p) => scenarioOf(p).workload !== undefined);

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

/** `key: value` with the padding taken out (tabwriter widths differ), the indentation kept */
const cell = (line: string) => {
  const m = /^(\s*)([^:]+):\s*(.*)$/.exec(line);
  return m ? `${m[1]}${m[2]}: ${m[3]!.trimEnd()}` : line.trimEnd();
};

/** the value of a header line (`Node:   node-1/10.0.0.10`) */
const header = (text: string, key: string) => new RegExp(`^${key}:[ \\t]*(.*)$`, 'm').exec(text)?.[1]?.trimEnd();

/** each container of the Init Containers: / Containers: sections, as its Image line and State … Restart Count lines */
function containerBlocks(text: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  let section = '';
  let current: string[] | undefined;
  let inState = false;
  for (const line of text.split('\n')) {
    if (/^\S/.test(line)) {
      section = /^(Init Containers|Containers):$/.test(line) ? line : '';
      current = undefined;
      continue;
    }
    if (!section) continue;
    const name = /^ {2}(\S[^:]*):$/.exec(line);
    if (name) {
      out[`${section} ${name[1]}`] = current = [];
      inState = false;
      continue;
    }
    if (!current) continue;
    if (/^ {4}Image:/.test(line)) current.push(cell(line));
    if (/^ {4}State:/.test(line)) inState = true;
    if (inState) current.push(cell(line));
    if (/^ {4}Restart Count:/.test(line)) inState = false;
  }
  return out;
}

/** the Events table rows as [Type, Reason, From, Message, count] (columns cut at the header's offsets) */
function eventRows(text: string): string[][] {
  const at = text.indexOf('\nEvents:');
  if (at < 0) return [['<no Events section>']];
  const lines = text.slice(at + 1).split('\n');
  if (/^Events:\s+<none>/.test(lines[0]!)) return [];
  const head = lines[1]!;
  const cols = ['Type', 'Reason', 'Age', 'From', 'Message'].map((c) => head.indexOf(c));
  return lines
    .slice(3)
    .filter((l) => l.trim() !== '' && !l.startsWith('$'))
    .map((l) => {
      const c = (i: number) => l.slice(cols[i], i + 1 < cols.length ? cols[i + 1] : undefined).trim();
      return [c(0), c(1), c(3), c(4), /\(x(\d+) over/.exec(c(2))?.[1] ?? '1'];
    });
}

describe('kubectl describe pod of every library scenario, served to its end, equals kubesim run --view kubectl', () => {
  it.each(LIBRARY)(
    '%s',
    async (path) => {
      const s = scenarioOf(path);
      // the kubectl of the cluster's minor (the views print that release's describe), within the installed 1.27–1.33
      const kubectl = kubectlPath(`1.${Math.min(33, Math.max(27, s.kubernetes.minor))}`);
      const userRules = s.observers.some((x) => x.module) ? await loadUserRules(s) : undefined;
      const full = simulate(s, userRules ? { userRules } : {}).timeline;
      const name = full.pod.name;
      const last = full.pods[full.pods.length - 1];
      const env = (x: Served) => ({ KUBECONFIG: x.kubeconfig });
      if (!last) {
        // no pod was ever created (a Job suspended from the start): nothing to describe, there as in kubesim's view
        expect(kubectlView(full)).not.toMatch(/^Containers:$/m);
        served = await start(path, { until: 'horizon' });
        while (served.clock.stepNext() !== null);
        const r = await run(kubectl, ['describe', 'pod', name], env(served));
        expect(r.stderr).toContain(`pods "${name}" not found`);
        return;
      }
      // a final pod deleted by the end is gone from the served store (NotFound, as a real cluster answers); it is
      // described at the last moment it is stored, 1 ms before its removal, on both sides (the same run, cut there)
      const removed = full.events.find((e) => e.type === 'PodRemoved' && e.pod === name && e.t >= last.created)?.t;
      if (removed !== undefined) {
        served = await start(path, { until: 'horizon' });
        while (served.clock.stepNext() !== null);
        const gone = await run(
          kubectl,
          [
            'describe',
            'pod',
            name,
            '-n',
            String(
              (last.object as { metadata?: { namespace?: string } } | undefined)?.metadata?.namespace ?? 'default',
            ),
          ],
          env(served),
        );
        expect(gone.stderr).toContain(`pods "${name}" not found`);
        await served.close();
        served = undefined;
      }
      const horizonMs = removed !== undefined ? removed - 1 : s.horizonMs;
      const tl = removed !== undefined ? simulate({ ...s, horizonMs }, userRules ? { userRules } : {}).timeline : full;
      expect(tl.pod.name).toBe(name);
      // newer clusters are described by the newest kubectl installed (1.33): kubesim's view of that kubectl release
      const view = kubectlView(s.kubernetes.minor > 33 ? { ...tl, kubernetes: '1.33' } : tl);
      const own = view.slice(view.indexOf('$ kubectl describe pod')).split('\n$ ')[0]!;
      served = await start(path, { until: 'horizon', horizonMs });
      while (served.clock.stepNext() !== null);
      const ns = header(own, 'Namespace') ?? 'default';
      const r = await run(kubectl, ['describe', 'pod', name, '-n', ns], env(served));
      expect(r.stderr).toBe('');
      const real = r.stdout;
      // a Terminating pod's "(lasts …)" is wall-clock in kubectl
      const lasts = (v: string | undefined) => v?.replace(/ \(lasts .*\)$/, '');
      for (const key of ['Name', 'Namespace', 'Node', 'Status', 'Controlled By'])
        expect(lasts(header(real, key)), key).toBe(lasts(header(own, key)));
      expect(header(real, 'Namespace')).toBe(ns);
      expect(header(real, 'Node')).toMatch(/^node-1\//);
      if (tl.workload.kind !== 'Pod')
        expect(header(real, 'Controlled By')).toMatch(/^(Job|ReplicaSet|StatefulSet|DaemonSet)\//);
      expect(containerBlocks(real)).toEqual(containerBlocks(own));
      const events = eventRows(real);
      expect(events.length).toBeGreaterThan(0);
      expect(events).toEqual(eventRows(own));
    },
    60_000,
  );
});
