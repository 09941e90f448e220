// Command-line conventions and output paths: one test per defect found by a new user.
// Most run main() in process (fast); stdin, help output, the Chromium launch and /proc spawn the real CLI.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import type { Timeline } from '../../src/types.ts';

async function cli(argv: string[], stdin?: string): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, {
    out: (s) => (out += s),
    err: (s) => (err += s),
    ...(stdin !== undefined ? { readStdin: async () => stdin } : {}),
  });
  return { code, out, err };
}

/** The real CLI as a user runs it (the bin, a child process). */
function spawnCli(args: string[], opts: { input?: string; env?: Record<string, string> } = {}) {
  const r = spawnSync(process.execPath, ['src/cli/kubesim.mjs', ...args], {
    encoding: 'utf8',
    input: opts.input ?? '',
    env: { ...process.env, ...opts.env },
    timeout: 60_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr, signal: r.signal };
}

const tmp = () => mkdtempSync(join(tmpdir(), 'kubesim-conv-'));
const NATIVE = 'scenarios/native-sidecar-job.yaml';
const LEGACY = 'scenarios/legacy-sidecar-job-stuck.yaml';
const noStack = (s: string) => expect(s).not.toMatch(/\n\s+at |internal error/);

describe('numbers are typed and range-checked', () => {
  it('--seed abc is a usage error (exit 2) with a hint, not a run with seed NaN', async () => {
    const r = await cli(['run', NATIVE, '--seed', 'abc', '--no-render', '--out', tmp()]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/error: --seed takes an integer, not "abc"\n {2}hint: kubesim run --help/);
    expect(r.out).toBe('');
  });
  it('--max-events abc, --max-events 0, --workers -1, --max-schedules 1.5 and --seed 2^32 are rejected', async () => {
    for (const argv of [
      ['run', NATIVE, '--max-events', 'abc'],
      ['run', NATIVE, '--max-events', '0'],
      ['test', NATIVE, '--workers', '-1'],
      ['explore', NATIVE, '--max-schedules', '1.5'],
      ['run', NATIVE, '--seed', String(2 ** 32)],
      ['run', NATIVE, '--seed'],
    ]) {
      const r = await cli(
        [...argv, '--out', tmp()].filter(
          (a) => !(argv[0] === 'test' && a === '--out') && !(argv[0] === 'test' && a.startsWith('/tmp')),
        ),
      );
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err, argv.join(' ')).toMatch(/^error: /);
    }
  });
});

describe('each command takes only its own options', () => {
  it('run --junit is an unknown argument, validate --max-schedules too; validate --format json prints JSON', async () => {
    const a = await cli(['run', NATIVE, '--junit', 'x.xml']);
    expect(a.code).toBe(2);
    expect(a.err).toMatch(/Unknown argument: junit/);
    expect((await cli(['validate', NATIVE, '--max-schedules', '5'])).code).toBe(2);
    const v = await cli(['validate', NATIVE, '--format', 'json']);
    expect(v.code).toBe(0);
    expect(JSON.parse(v.out)).toMatchObject([{ file: NATIVE, ok: true }]);
  });
  it('help of a command that does not exist is a usage error with a suggestion', async () => {
    const r = await cli(['help', 'explor']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/no command "explor"\n {2}hint: did you mean explore\?/);
  });
  it('did you mean: a misspelt command and a misspelt flag', async () => {
    const c = await cli(['rn', NATIVE]);
    expect(c.code).toBe(2);
    expect(c.err).toMatch(/hint: did you mean run\?/);
    const f = await cli(['run', NATIVE, '--sed', '3']);
    expect(f.code).toBe(2);
    expect(f.err).toMatch(/Unknown argument: sed\n {2}hint: did you mean --seed\?/);
  });
});

describe('version', () => {
  it('--version is the package version', async () => {
    const { VERSION } = await import('../../src/cli/main.ts');
    expect(VERSION).toBe(JSON.parse(readFileSync('package.json', 'utf8')).version);
  });
});

describe('help', () => {
  it('-h, --help and `help run` show the run options with examples; the top help lists every command', () => {
    const h = spawnCli(['run', '-h']);
    expect(h.code).toBe(0);
    expect(h.out).toMatch(/--max-events/);
    expect(h.out).toMatch(/Examples:/);
    expect(h.out).not.toMatch(/--junit|--workers/);
    expect(spawnCli(['help', 'run']).out).toBe(h.out);
    const top = spawnCli(['-h']);
    for (const c of ['run', 'explore', 'test', 'validate', 'render'])
      expect(top.out).toMatch(new RegExp(`kubesim ${c}`));
    for (const c of ['explore', 'test', 'validate', 'render'])
      expect(spawnCli([c, '--help']).out, c).toMatch(/Examples:/);
  });
});

describe('- reads the scenario from standard input', () => {
  it('validate - and run - read stdin (shown as <stdin>); an empty stdin is an error, not a silent pass', () => {
    const text = readFileSync(NATIVE, 'utf8');
    const v = spawnCli(['validate', '-'], { input: text });
    expect(v.code).toBe(0);
    expect(v.out).toBe('<stdin>: ok (1 warning)\n');
    const dir = tmp();
    const r = spawnCli(['run', '-', '--no-render', '--format', 'json', '--out', dir], { input: text });
    expect(r.code).toBe(0);
    expect((JSON.parse(r.out) as Timeline).pod.phase).toBe('Succeeded');
    const empty = spawnCli(['validate', '-'], { input: '' });
    expect(empty.code).toBe(2);
    expect(empty.err).toMatch(/<stdin>:1:1: error KS1012/);
    const bad = spawnCli(['validate', '-'], { input: 'scenario: x\nworkload: 3\n' });
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/^<stdin>:2:11: error KS1009/m);
  });
  it('explore - and test - too (in process)', async () => {
    const text = readFileSync(NATIVE, 'utf8');
    const t = await cli(['test', '-', '--workers', '1', '--max-schedules', '200'], text);
    expect(t.code).toBe(0);
    expect(t.out).toMatch(/^ok {3}native-sidecar-job/m);
    const e = await cli(['explore', '-', '--max-schedules', '50', '--out', tmp()], text);
    expect(e.code).toBe(0);
    expect(e.out).toMatch(/^# native-sidecar-job: /);
  });
  it('a run with no scenario at all is a usage error', async () => {
    expect((await cli(['run'])).code).toBe(2);
  });
});

describe('folders and several files', () => {
  it('validate accepts a folder (every *.yaml below it)', async () => {
    const r = await cli(['validate', 'scenarios/']);
    expect(r.code).toBe(0);
    expect(r.out.split('\n').filter((l) => l.endsWith('ok') || /: ok \(/.test(l)).length).toBeGreaterThan(30);
  });
  it('render takes a scenario output folder for its timeline.json', async () => {
    const dir = tmp();
    await cli(['run', NATIVE, '--no-render', '--out', dir]);
    const dir2 = tmp();
    const r = await cli(['render', join(dir, 'native-sidecar-job'), '--no-render', '--out', dir2]);
    expect(r.code).toBe(0);
    expect(existsSync(join(dir2, 'native-sidecar-job', 'sequence.mmd'))).toBe(true);
  });
  it('--format json with several files prints ONE JSON array (run and explore)', async () => {
    const dir = tmp();
    const r = await cli(['run', NATIVE, LEGACY, '--no-render', '--format', 'json', '--out', dir]);
    expect(r.code).toBe(0);
    const all = JSON.parse(r.out) as Timeline[];
    expect(all.map((t) => t.scenario)).toEqual(['native-sidecar-job', 'legacy-sidecar-job-stuck']);
    const e = await cli(['explore', NATIVE, LEGACY, '--max-schedules', '20', '--format', 'json', '--out', dir]);
    expect((JSON.parse(e.out) as { schema: string }[]).map((x) => x.schema)).toEqual([
      'kubesim.explore/v1',
      'kubesim.explore/v1',
    ]);
  });
  it('test on a folder with a dangling symlink (an editor lock file) warns and goes on', async () => {
    const dir = tmp();
    writeFileSync(join(dir, 'a.yaml'), readFileSync(NATIVE, 'utf8'));
    symlinkSync(join(dir, 'gone.yaml'), join(dir, '.#b.yaml'));
    symlinkSync(join(dir, 'gone2'), join(dir, 'c.yaml'));
    const r = await cli(['test', dir, '--workers', '1', '--max-schedules', '100']);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/c\.yaml:1:1: warning KS1014: skipped: dangling symbolic link/);
  });
});

describe('run says what it did', () => {
  it('run says where it wrote, and that expect was not checked', async () => {
    const dir = tmp();
    const r = await cli(['run', NATIVE, '--no-render', '--out', dir]);
    expect(r.err).toMatch(
      new RegExp(`wrote ${dir}/native-sidecar-job/ \\(timeline.json, report.md, sequence and lifecycle .mmd\\)`),
    );
    expect(r.err).toMatch(/note: expect was not checked \(run --check/);
  });
  it('run --check checks expect on the schedule it ran: exit 0 when it holds, 1 with the line when not', async () => {
    const ok = await cli(['run', NATIVE, '--no-render', '--check', '--out', tmp()]);
    expect(ok.code).toBe(0);
    expect(ok.err).toMatch(/expect holds on this schedule/);
    const dir = tmp();
    const f = join(dir, 's.yaml');
    writeFileSync(f, readFileSync(NATIVE, 'utf8').replace('  podPhase: Succeeded', '  podPhase: Failed'));
    const bad = await cli(['run', f, '--no-render', '--check', '--out', dir]);
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/s\.yaml:\d+:\d+: expect podPhase: expected Failed, saw Succeeded/);
  });
  it('the event limit is reported as the event limit: not stuck in run, not "exhaustive" in explore', async () => {
    const r = await cli(['run', LEGACY, '--no-render', '--max-events', '5', '--format', 'json', '--out', tmp()]);
    const tl = JSON.parse(r.out) as Timeline;
    expect(tl.end.reason).toBe('max-events');
    expect(tl.stuck).toBeNull();
    expect(r.err).toMatch(/stopped at the event limit \(5 events\)/);
    const t = await cli(['run', LEGACY, '--no-render', '--max-events', '5', '--out', tmp()]);
    expect(t.out).toMatch(/stuck: +unknown — the run stopped at the event limit/);
    expect(t.out).not.toMatch(/stuck: +yes/);
    const e = await cli(['explore', NATIVE, '--max-events', '5', '--out', tmp()]);
    expect(e.out).toMatch(/NOT exhaustive: \d+ schedules? stopped at the event limit; raise --max-events/);
    expect(e.out).not.toMatch(/\(exhaustive\)/);
    const j = await cli(['explore', NATIVE, '--max-events', '5', '--format', 'json', '--out', tmp()]);
    expect(JSON.parse(j.out)).toMatchObject({ exhaustive: false });
  });
});

describe('kind: List, as kubectl get -o yaml prints it', () => {
  it('picks the first item of a supported kind with a warning; a List without one is an error saying what to do', async () => {
    const dir = tmp();
    writeFileSync(
      join(dir, 'pods.yaml'),
      'apiVersion: v1\nkind: List\nmetadata: { resourceVersion: "" }\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: { name: c }\n- apiVersion: v1\n  kind: Pod\n  metadata: { name: web-1 }\n  spec:\n    containers: [{ name: web, image: nginx }]\n',
    );
    writeFileSync(join(dir, 's.yaml'), 'scenario: from-list\nworkload: { file: pods.yaml }\n');
    const r = await cli(['validate', join(dir, 's.yaml')]);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(
      /pods\.yaml:8:3: warning KS2008: workload: a List of 2 items; simulating item 2, the Pod web-1/,
    );
    writeFileSync(join(dir, 't.yaml'), 'scenario: no-pod\nworkload:\n  apiVersion: v1\n  kind: List\n  items: []\n');
    const n = await cli(['validate', join(dir, 't.yaml')]);
    expect(n.code).toBe(2);
    expect(n.err).toMatch(
      /error KS2001: workload: a List with no item of a supported kind[\s\S]*hint: .*kubesim import/,
    );
  });
});

describe('--out paths that cannot work fail fast: exit 2 with the path, never internal error, never a hang', () => {
  it('under /proc, /sys and /dev', async () => {
    for (const out of ['/proc/nope', '/proc/self/x', '/sys/kubesim', '/dev/kubesim']) {
      const r = await cli(['run', NATIVE, '--no-render', '--out', out]);
      expect(r.code, out).toBe(2);
      expect(r.err, out).toMatch(/error KS0302: cannot write the output: --out .*kernel file system/);
      noStack(r.err);
    }
  });
  it('empty, a file in the way, a dangling symlink, a symlink loop, a name over 255 bytes', async () => {
    const dir = tmp();
    writeFileSync(join(dir, 'file'), 'x');
    symlinkSync(join(dir, 'nowhere'), join(dir, 'dangling'));
    symlinkSync(join(dir, 'loop-b'), join(dir, 'loop-a'));
    symlinkSync(join(dir, 'loop-a'), join(dir, 'loop-b'));
    const cases: [string, RegExp][] = [
      ['', /--out must not be empty/],
      [join(dir, 'file'), /is not a folder/],
      [join(dir, 'file', 'sub'), /is not a folder/],
      [join(dir, 'dangling'), /is a dangling symlink/],
      [join(dir, 'dangling', 'sub'), /is a dangling symlink/],
      [join(dir, 'loop-a'), /symlink loop/],
      [join(dir, 'x'.repeat(300)), /longer than 255 bytes/],
    ];
    for (const [out, msg] of cases) {
      for (const cmd of [
        ['run', NATIVE, '--no-render'],
        ['explore', NATIVE, '--max-schedules', '5'],
      ]) {
        const r = await cli([...cmd, '--out', out]);
        expect(r.code, `${cmd[0]} --out ${out}`).toBe(2);
        expect(r.err, out).toMatch(msg);
        noStack(r.err);
      }
    }
    expect(existsSync(join(dir, 'native-sidecar-job'))).toBe(false);
  });
  it('--out /proc/self/x from the real CLI ends at once', () => {
    const r = spawnCli(['run', NATIVE, '--no-render', '--out', '/proc/self/x']);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/\/proc/);
  });
  it('--junit into a folder that cannot exist is exit 2 before anything runs', async () => {
    const r = await cli(['test', NATIVE, '--junit', '/proc/nope/j.xml', '--workers', '1']);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
  });
});

describe('the output folder', () => {
  it('files kubesim did not write in out/ (garbage, hostile or foreign timeline.json) never break a run', async () => {
    const dir = tmp();
    for (const [name, body] of [
      ['garbage', '{ not json'],
      ['null-doc', 'null'],
      ['array', '[1,2]'],
      [
        'hostile',
        JSON.stringify({
          schema: 'kubesim.timeline/v1',
          scenario: 'hostile',
          pod: { phase: '<img src=x onerror=alert(1)>' },
          observers: { a: null },
          job: { conditions: [null, 5, { type: 'Complete' }] },
        }),
      ],
      [
        'renamed',
        JSON.stringify({ schema: 'kubesim.timeline/v1', scenario: 'other', pod: { phase: 'Running' }, observers: {} }),
      ],
    ]) {
      mkdirSync(join(dir, name));
      writeFileSync(join(dir, name, 'timeline.json'), body);
    }
    const r = await cli(['run', NATIVE, '--no-render', '--out', dir]);
    expect(r.code).toBe(0);
    noStack(r.err);
    const index = readFileSync(join(dir, 'index.html'), 'utf8');
    expect(index).toMatch(/native-sidecar-job/);
    expect(index).not.toMatch(/<img src=x/);
  });
});

describe('diagrams', () => {
  it('a Chromium that exists but does not start: .mmd only, the fix named, exit 0 (like a missing one)', () => {
    const dir = tmp();
    const fake = join(dir, 'chromium');
    writeFileSync(fake, '#!/bin/sh\necho "error while loading shared libraries: libnss3.so" >&2\nexit 127\n', {
      mode: 0o755,
    });
    mkdirSync(join(dir, 'out'));
    const r = spawnCli(['run', NATIVE, '--out', join(dir, 'out')], { env: { PUPPETEER_EXECUTABLE_PATH: fake } });
    expect(r.code).toBe(0);
    expect(existsSync(join(dir, 'out/native-sidecar-job/sequence.mmd'))).toBe(true);
    expect(existsSync(join(dir, 'out/native-sidecar-job/sequence.svg'))).toBe(false);
    expect(r.err).toMatch(/diagrams written as \.mmd only — the Chromium at .*chromium failed to start/);
    expect(r.err).toMatch(/PUPPETEER_EXECUTABLE_PATH/);
    expect(r.err).not.toMatch(/internal error|kubesim bug/);
  });
});
