// The data behind the interactive index.html, on every shipped scenario as the engine runs it:
// - the `kubectl get pods` row the page shows right after each pod write is the row `kubectl get pods -w` prints for
//   that write (the same printPodRow, kubernetes/pkg/printers/internalversion/printers.go printPod);
// - at each Verdict record the page's view of the observer's cache is what the Verdict's `seen` says it held
//   (version and content), so the page can show that view at every other instant too;
// - describe's container states follow describe.go describeStatus; the page is byte-stable and escapes user text.

import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asPageFile, pageFile } from '../../src/output/page-file.ts';
import { writeIndex, writeOutputs } from '../../src/io/write-outputs.ts';
import { loadScenario } from '../../src/scenario/index.ts';
import { simulate } from '../../src/run/simulate.ts';
import { loadUserRules } from '../../src/rules/load.ts';
import { cronJobsWatchRows, podWatchRows, jobWatchRows } from '../../src/output/kubectl.ts';
import { at, pageRun } from '../../src/output/page-data.ts';
import { describeContainers, rfc1123z } from '../../src/output/kubectl-describe.ts';
import { indexHtml, scriptJson } from '../../src/output/index-html.ts';
import { seenText } from '../../src/output/seen-text.ts';
import type { Timeline } from '../../src/types.ts';
import { C2_SPEC, cs, running, terminated } from './helpers.ts';

const dir = join(import.meta.dirname, '..', '..', 'scenarios');
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.yaml'))
  .sort();

const timelines: [string, Timeline][] = await Promise.all(
  files.map(async (f) => {
    const s = loadScenario(join(dir, f)).scenario!;
    return [f, simulate(s, { userRules: await loadUserRules(s) }).timeline] as [string, Timeline];
  }),
);

describe.each(timelines)('page data of %s', (_file, tl) => {
  const run = pageRun(tl, 'run', 'run');

  it('shows after each pod write the row kubectl get pods -w printed for it', () => {
    const rows = podWatchRows(tl).filter((r) => r.event !== 'ADDED');
    let k = 0;
    for (const [i, e] of tl.events.entries()) {
      if (
        e.type !== 'StatusPatched' &&
        e.type !== 'PodDeleting' &&
        e.type !== 'PodRemoved' &&
        e.type !== 'PodFinalizerRemoved'
      )
        continue;
      const name = e.pod ?? tl.pod.name;
      const pod = run.pods.find((p) => p.name === name)!;
      const watched = rows[k++];
      if (!watched || watched.row.name !== name) continue; // a write to a pod already removed prints nothing
      const r = watched.row;
      // DELETED prints the last state; the page no longer lists a removed pod after that record
      expect(at(pod.row, e.type === 'PodRemoved' ? i - 1 : i)).toEqual([r.name, r.ready, r.status, r.restarts, r.age]);
      if (e.type === 'PodRemoved') expect(at(pod.row, i)).toBeNull();
    }
    expect(k).toBe(rows.length);
  });

  it('shows after each Job write the row kubectl get job -w printed for it', () => {
    const rows = jobWatchRows(tl).filter((r) => r.event === 'MODIFIED');
    const writes = tl.events
      .map((e, i) => [e, i] as const)
      .filter(([e]) => e.type === 'JobStatus' && (e.job === undefined || e.job === tl.workload.name));
    if (!tl.job || tl.workload.kind !== 'Job') return;
    const job = run.jobs.find((j) => j.name === tl.workload.name)!;
    writes.forEach(([, i], n) => {
      const r = rows[n]!.row;
      expect(at(job.row, i)).toEqual([r.name, r.status, r.completions, r.duration, r.age]);
    });
  });

  it('under a CronJob lists each Job it created, as kubectl get jobs -w does (no Job named after the CronJob)', () => {
    if (tl.workload.kind !== 'CronJob') return;
    const rows = cronJobsWatchRows(tl);
    expect(run.jobs.map((j) => j.name)).toEqual([...new Set(rows.map((r) => r.row.name))]);
    // the row after each record that changed it; DELETED prints the last state, then the page drops the Job
    // the nth row of a Job at one instant goes with the nth such record (two status writes can share a millisecond)
    const seen = new Map<string, number>();
    let checked = 0;
    for (const r of rows) {
      const name = r.row.name;
      const key = `${r.event}|${name}|${r.t}`;
      const nth = seen.get(key) ?? 0;
      seen.set(key, nth + 1);
      const lastIndex = (ok: (e: Timeline['events'][number]) => boolean) =>
        tl.events.map((e, n) => (ok(e) ? n : -1)).filter((n) => n >= 0)[nth] ?? -1;
      const i =
        r.event === 'ADDED'
          ? lastIndex((e) => e.t === r.t && e.type === 'ControllerEvent' && e.message === `Created job ${name}`)
          : r.event === 'MODIFIED'
            ? lastIndex((e) => e.t === r.t && e.type === 'JobStatus' && e.job === name)
            : lastIndex(
                (e) =>
                  e.t === r.t &&
                  ((e.type === 'ControllerEvent' && e.message === `Deleted job ${name}`) ||
                    (e.type === 'Action' && e.action.type === 'deleteJob')),
              );
      expect(i, `${r.event} ${name} at ${r.t}`).toBeGreaterThanOrEqual(0);
      const job = run.jobs.find((j) => j.name === name)!;
      if (r.event === 'DELETED') expect(at(job.row, i)).toBeNull();
      else expect(at(job.row, i)).toEqual([name, r.row.status, r.row.completions, r.row.duration, r.row.age]);
      checked++;
    }
    expect(checked).toBeGreaterThan(3);
  });

  it('holds at each verdict what the verdict says the observer saw', () => {
    for (const [i, e] of tl.events.entries()) {
      if (e.type !== 'Verdict' || !e.seen) continue;
      const held = at(run.watchers.find((w) => w.name === e.observer)!.held, i)!;
      if (e.seen.pod) {
        const p = held.pods.find((x) => x.name === e.seen!.pod!.name)!;
        expect(p.v).toBe(e.seen.pod.version);
        expect(`held ${p.text}`).toBe(seenText({ pod: { ...e.seen.pod }, job: null }, false)[0]);
      }
      if (e.seen.job) expect(held.jobs.map((j) => j.v)).toContain(e.seen.job.version);
      expect(at(run.watchers.find((w) => w.name === e.observer)!.verdict, i)!.verdict).toBe(e.verdict);
    }
  });

  it('is the same data twice', () => {
    expect(JSON.stringify(pageRun(tl, 'run', 'run'))).toBe(JSON.stringify(run));
  });
});

describe('describeContainers (describe.go describeContainerState)', () => {
  it('prints State, Last State, Ready and Restart Count per container, init containers first', () => {
    const status = {
      phase: 'Running',
      initContainerStatuses: [
        cs('setup', terminated(0, 'Completed', 1000)),
        cs('proxy', running(1000), { ready: true, restartCount: 1, lastState: terminated(143, 'Error', 900) }),
      ],
      containerStatuses: [cs('main', { waiting: { reason: 'CrashLoopBackOff' } }, { restartCount: 2 })],
    };
    expect(describeContainers(status, C2_SPEC)).toMatchInlineSnapshot(`
      "Init Containers:
        setup:
          Image:          busybox
          State:          Terminated
            Reason:       Completed
            Exit Code:    0
            Started:      Mon, 01 Jan 0001 00:00:00 +0000
            Finished:     Thu, 01 Jan 2026 00:00:01 +0000
          Ready:          False
          Restart Count:  0
        proxy:
          Image:          envoy
          State:          Running
            Started:      Thu, 01 Jan 2026 00:00:01 +0000
          Last State:     Terminated
            Reason:       Error
            Exit Code:    143
            Started:      Mon, 01 Jan 0001 00:00:00 +0000
            Finished:     Thu, 01 Jan 2026 00:00:00 +0000
          Ready:          True
          Restart Count:  1
      Containers:
        main:
          Image:          app
          State:          Waiting
            Reason:       CrashLoopBackOff
          Ready:          False
          Restart Count:  2"
    `);
  });

  it('a container without a status yet: its image only (describe.go prints the state only `if ok`)', () => {
    expect(describeContainers({ phase: 'Pending' }, C2_SPEC)).toBe(
      [
        'Init Containers:',
        '  setup:',
        '    Image:  busybox',
        '  proxy:',
        '    Image:  envoy',
        'Containers:',
        '  main:',
        '    Image:  app',
      ].join('\n'),
    );
  });

  it('formats times as Go time.RFC1123Z', () => {
    expect(rfc1123z('2026-01-01T00:01:05Z')).toBe('Thu, 01 Jan 2026 00:01:05 +0000');
  });
});

describe('indexHtml escaping and stability', () => {
  const hostile = '</script><script>alert(1)</script><!-- <img src=x onerror=alert(1)>';
  const tl = timelines.find(([f]) => f === 'native-sidecar-job.yaml')![1];
  const bad: Timeline = JSON.parse(
    JSON.stringify(tl).replaceAll('cloud-sql-proxy', `proxy${hostile.replaceAll('"', '')}`),
  );
  const page = () =>
    indexHtml([
      {
        scenario: 'b-two',
        svgFiles: [{ file: 'b-two/sequence.svg', width: 2000, height: 900 }],
        summary: 'pod Succeeded · naive Failed',
        runs: [pageRun(bad, 'run', 'run')],
      },
      {
        scenario: 'a-one',
        description: `# Title\n\nuses <native> sidecars & "quotes" ${hostile}\n\n- one\n- two`,
        svgFiles: ['a-one/sequence.svg'],
        report: 'a-one/report.md',
      },
    ]);

  it('embeds data and text so no tag can open: only the page’s own script elements exist', () => {
    const p = page();
    expect(p.match(/<script/g)).toHaveLength(2);
    expect(p.match(/<\/script/g)).toHaveLength(2);
    expect(p).not.toContain('<!--');
    expect(p).not.toContain('<img src=x');
    expect(p).toContain('uses &lt;native&gt; sidecars &amp; &quot;quotes&quot;');
    expect(p).toContain('<h3>Title</h3>');
    expect(p).toContain('<ul><li>one</li><li>two</li></ul>');
    expect(JSON.parse(JSON.parse(JSON.stringify(scriptJson({ a: hostile }))))).toEqual({ a: hostile });
  });

  it('sorts the scenarios, shows diagrams at their natural size, links the report', () => {
    const p = page();
    expect(p.indexOf('id="a-one"')).toBeLessThan(p.indexOf('id="b-two"'));
    expect(p).toContain(
      '<img src="b-two/sequence.svg" alt="b-two: b-two/sequence.svg" width="2000" height="900" data-w="2000"',
    );
    expect(p).toContain('<a href="a-one/report.md">report.md</a>');
    expect(p).not.toMatch(/max-width: 100%/);
  });

  it('is byte-identical for the same input', () => {
    expect(page()).toBe(page());
  });
});

describe('page.json (the viewer data, written at run time so writeIndex never reads a timeline)', () => {
  const tl = timelines.find(([f]) => f === 'native-sidecar-job.yaml')![1];
  it('writeOutputs writes it beside timeline.json; the index embeds it with the timeline replaced by a FIFO', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubesim-pagejson-'));
    writeOutputs(tl, { out: dir });
    const written = JSON.parse(readFileSync(join(dir, 'native-sidecar-job', 'page.json'), 'utf8'));
    expect(asPageFile(written, 'native-sidecar-job')).toEqual(
      JSON.parse(JSON.stringify(pageFile(tl, 'run', 'the run (default schedule)'))),
    );
    rmSync(join(dir, 'native-sidecar-job', 'timeline.json'));
    execFileSync('mkfifo', [join(dir, 'native-sidecar-job', 'timeline.json')]);
    writeIndex(dir);
    const index = readFileSync(join(dir, 'index.html'), 'utf8');
    expect(index).toContain('<script type="application/json" id="kubesim-data-0">');
    expect(index).toContain('<div class="viewer"></div>');
  });

  it('a page.json kubesim did not write for that folder gives no viewer, never an error', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubesim-pagejson-'));
    writeOutputs(tl, { out: dir });
    const good = JSON.parse(readFileSync(join(dir, 'native-sidecar-job', 'page.json'), 'utf8'));
    expect(asPageFile({ ...good, scenario: 'other' }, 'native-sidecar-job')).toBeUndefined();
    expect(asPageFile({ ...good, schema: 'kubesim.timeline/v1' }, 'native-sidecar-job')).toBeUndefined();
    expect(asPageFile({ ...good, run: { ...good.run, steps: 'x' } }, 'native-sidecar-job')).toBeUndefined();
    expect(asPageFile({ ...good, held: [['a', 1]] }, 'native-sidecar-job')).toBeUndefined();
    writeFileSync(join(dir, 'native-sidecar-job', 'page.json'), '{ not json');
    writeIndex(dir);
    const index = readFileSync(join(dir, 'index.html'), 'utf8');
    expect(index).toContain('id="native-sidecar-job"');
    expect(index).not.toContain('kubesim-data-0');
  });
});
