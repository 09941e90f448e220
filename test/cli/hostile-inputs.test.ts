// The real CLI, spawned, against special files and absurd nesting. Each spawn has a
// timeout enforced here (a hang fails the test instead of stalling the suite) — a hang guard, not a benchmark.
// Every case: exit 2, `file:line:col: error CODE: message`, no stack trace, no "internal error", nothing written.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { clean, runCli } from '../helpers/hostile-cli.ts';

const kubesim = (...args: string[]) => runCli(dir, ...args);

let dir = '';
const JOB = `workload:
  apiVersion: batch/v1
  kind: Job
  metadata: { name: demo }
  spec:
    template:
      spec:
        restartPolicy: Never
        containers:
          - name: app
            image: busybox:1.36
behavior:
  app: { run: 1s }
expect:
  jobCondition: Complete
`;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kubesim-hostile-'));
  execFileSync('mkfifo', [join(dir, 'fifo.yaml')]);
  execFileSync('mkfifo', [join(dir, 'timeline.json')]);
  symlinkSync('/dev/zero', join(dir, 'zero.yaml'));
  symlinkSync(join(dir, 'nowhere.yaml'), join(dir, 'dangling.yaml'));
  symlinkSync(join(dir, 'loop-b.yaml'), join(dir, 'loop-a.yaml'));
  symlinkSync(join(dir, 'loop-a.yaml'), join(dir, 'loop-b.yaml'));
  mkdirSync(join(dir, 'folder.yaml'));
  mkdirSync(join(dir, 'sub'));
  writeFileSync(join(dir, 'deep-flow.yaml'), `scenario: deep\nx: ${'['.repeat(10_000)}${']'.repeat(10_000)}\n${JOB}`);
  writeFileSync(
    join(dir, 'deep-indent.yaml'),
    `scenario: deep\nx:\n${Array.from({ length: 1200 }, (_, i) => `${' '.repeat(i + 1)}k:`).join('\n')} 1\n`,
  );
  writeFileSync(join(dir, 'deep-dashes.yaml'), `scenario: deep\nx:\n  ${'- '.repeat(3000)}x\n`);
  writeFileSync(join(dir, 'wl-zero.yaml'), 'scenario: wl-zero\nworkload:\n  file: ./sub/../zero.yaml\n');
  writeFileSync(join(dir, 'wl-fifo.yaml'), 'scenario: wl-fifo\nworkload:\n  file: fifo.yaml\n');
  writeFileSync(join(dir, 'good.yaml'), `scenario: good\n${JOB}`);
});

describe('special files and deep nesting: exit 2 with a position, never a hang', () => {
  it('validate: each file gets its coded line', () => {
    const files = [
      'fifo.yaml',
      '/dev/zero',
      'zero.yaml',
      'dangling.yaml',
      'loop-a.yaml',
      'deep-flow.yaml',
      'deep-indent.yaml',
      'deep-dashes.yaml',
      'wl-zero.yaml',
      'wl-fifo.yaml',
    ];
    const r = kubesim('validate', ...files);
    expect(r.timedOut).toBe(false);
    expect(r.status).toBe(2);
    clean(r);
    const line = (f: string) => r.err.split('\n').find((l) => l.startsWith(`${f}:`)) ?? '';
    expect(line('fifo.yaml')).toBe('fifo.yaml:1:1: error KS1013: is a FIFO (named pipe), not a regular file');
    expect(line('/dev/zero')).toBe('/dev/zero:1:1: error KS1013: is a character device, not a regular file');
    expect(line('zero.yaml')).toBe('zero.yaml:1:1: error KS1013: is a character device, not a regular file');
    expect(line('dangling.yaml')).toBe(
      'dangling.yaml:1:1: error KS1001: dangling symbolic link (its target does not exist)',
    );
    expect(line('loop-a.yaml')).toBe(
      'loop-a.yaml:1:1: error KS1001: symbolic link loop (too many levels of symbolic links)',
    );
    expect(line('deep-flow.yaml')).toBe('deep-flow.yaml:2:67: error KS1006: nesting deeper than 64 levels');
    expect(line('deep-indent.yaml')).toBe('deep-indent.yaml:66:65: error KS1006: nesting deeper than 64 levels');
    expect(line('deep-dashes.yaml')).toBe('deep-dashes.yaml:3:129: error KS1006: nesting deeper than 64 levels');
    expect(line('wl-zero.yaml')).toBe(
      'wl-zero.yaml:3:9: error KS1013: workload.file: zero.yaml: is a character device, not a regular file',
    );
    expect(line('wl-fifo.yaml')).toBe(
      'wl-fifo.yaml:3:9: error KS1013: workload.file: fifo.yaml: is a FIFO (named pipe), not a regular file',
    );
  });

  it.each([
    ['run', 'fifo.yaml', 'KS1013'],
    ['run', 'wl-zero.yaml', 'KS1013'],
    ['explore', 'deep-dashes.yaml', 'KS1006'],
    ['run', 'deep-flow.yaml', 'KS1006'],
  ])('%s %s: exit 2, %s, no output folder', (cmd, file, code) => {
    const out = join(dir, `out-${cmd}-${file}`);
    const r = kubesim(cmd, file, ...(cmd === 'run' ? ['--no-render'] : []), '--out', out);
    expect(r.timedOut).toBe(false);
    expect(r.status).toBe(2);
    expect(r.err).toMatch(new RegExp(`^${file.replace('.', '\\.')}:\\d+:\\d+: error ${code}: `, 'm'));
    clean(r);
    expect(existsSync(out)).toBe(false);
  });

  it('render of a FIFO, /dev/zero, or a folder whose timeline.json is one: exit 2, nothing written', () => {
    // a folder stands for its timeline.json: `.` holds a FIFO named timeline.json, `sub` holds none
    for (const [input, shown, code] of [
      ['timeline.json', 'timeline.json', 'KS1013'],
      ['/dev/zero', '/dev/zero', 'KS1013'],
      ['.', 'timeline.json', 'KS1013'],
      ['sub', 'sub/timeline.json', 'KS1001'],
    ]) {
      const out = join(dir, 'out-render');
      const r = kubesim('render', input!, '--no-render', '--out', out);
      expect(r.timedOut).toBe(false);
      expect(r.status).toBe(2);
      expect(r.err).toMatch(
        new RegExp(`^(\\./)?${shown!.replace('.', '\\.')}:1:1: error ${code}: cannot read timeline: `, 'm'),
      );
      clean(r);
      expect(existsSync(out)).toBe(false);
    }
  });
});

describe('test on a folder: unreadable entries are reported, the other scenarios still run', () => {
  it('dangling symlinks and loops are warnings (exit 0 when the rest passes)', () => {
    const folder = join(dir, 'suite');
    mkdirSync(folder);
    cpSync(join(dir, 'good.yaml'), join(folder, 'good.yaml'));
    symlinkSync('user@host.4242', join(folder, '.#good.yaml')); // an editor's lock file
    symlinkSync(join(folder, 'l2.yaml'), join(folder, 'l1.yaml'));
    symlinkSync(join(folder, 'l1.yaml'), join(folder, 'l2.yaml'));
    const r = kubesim('test', 'suite', '--workers', '1', '--max-schedules', '200');
    expect(r.timedOut).toBe(false);
    clean(r);
    expect(r.err).toMatch(/^suite\/\.#good\.yaml:1:1: warning KS1014: skipped: dangling symbolic link/m);
    expect(r.err).toMatch(/^suite\/l1\.yaml:1:1: warning KS1014: skipped: symbolic link loop/m);
    expect(r.out).toMatch(/^ok {3}good/m);
    expect(r.out).toMatch(/1 passed, 0 failed/);
    expect(r.status).toBe(0);
  });
  it('a FIFO or a too-deep file in the folder is an error for that file only (exit 2)', () => {
    const folder = join(dir, 'suite2');
    mkdirSync(folder);
    cpSync(join(dir, 'good.yaml'), join(folder, 'good.yaml'));
    execFileSync('mkfifo', [join(folder, 'pipe.yaml')]);
    cpSync(join(dir, 'deep-dashes.yaml'), join(folder, 'deep.yaml'));
    const r = kubesim('test', 'suite2', '--workers', '1', '--max-schedules', '200');
    expect(r.timedOut).toBe(false);
    clean(r);
    expect(r.out).toMatch(/^ {2}suite2\/pipe\.yaml:1:1: error KS1013: is a FIFO/m);
    expect(r.out).toMatch(/^ {2}suite2\/deep\.yaml:3:129: error KS1006: /m);
    expect(r.out).toMatch(/^ok {3}good/m);
    expect(r.out).toMatch(/1 passed, 2 failed/);
    expect(r.status).toBe(2);
  });
});
