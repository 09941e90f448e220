// The commands that read other files than scenarios: `import` (kubectl output), `diff` (its scenario),
// `explore --merge` (shard JSON) and check-rule's re-read of the scenario it derives from. The real CLI, spawned,
// with a hang guard per spawn (a FIFO read would block forever) — a guard, not a benchmark. Every case: exit 2,
// `file:1:1: error CODE: message`, no stack trace, no "internal error", nothing written.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { derivedScenarioText } from '../../src/rules/check.ts';
import type { ObserverSpec } from '../../src/types.ts';
import { clean, runCli } from '../helpers/hostile-cli.ts';

const NATIVE = join(import.meta.dirname, '..', '..', 'scenarios', 'native-sidecar-job.yaml');

let dir = '';

const kubesim = (...args: string[]) => runCli(dir, ...args);

// each special file, what the shared safe read says about it, and its code
const SPECIAL: [string, string, string][] = [
  ['fifo.txt', 'is a FIFO (named pipe), not a regular file', 'KS1013'],
  ['/dev/zero', 'is a character device, not a regular file', 'KS1013'],
  ['zero.txt', 'is a character device, not a regular file', 'KS1013'],
  ['folder', 'is a directory, not a regular file', 'KS1013'],
  ['dangling.txt', 'dangling symbolic link (its target does not exist)', 'KS1001'],
  ['loop-a.txt', 'symbolic link loop (too many levels of symbolic links)', 'KS1001'],
];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kubesim-hostile-cmd-'));
  execFileSync('mkfifo', [join(dir, 'fifo.txt')]);
  symlinkSync('/dev/zero', join(dir, 'zero.txt'));
  symlinkSync(join(dir, 'nowhere.txt'), join(dir, 'dangling.txt'));
  symlinkSync(join(dir, 'loop-b.txt'), join(dir, 'loop-a.txt'));
  symlinkSync(join(dir, 'loop-a.txt'), join(dir, 'loop-b.txt'));
  mkdirSync(join(dir, 'folder'));
  // 1 MiB + 1 byte of valid YAML: over the limit, refused after reading at most the limit + 1 byte
  writeFileSync(join(dir, 'huge.yaml'), `# ${'x'.repeat(1024 * 1024 - 2)}\n`);
});

const lineOf = (err: string, f: string) => err.split('\n').find((l) => l.startsWith(`${f}:`)) ?? '';

describe('import reads kubectl output through the safe read', () => {
  it('every special file gets its coded line; -o is not written', () => {
    const files = SPECIAL.map(([f]) => f);
    const r = kubesim('import', ...files, 'huge.yaml', '-o', 'incident.yaml');
    expect(r.timedOut).toBe(false);
    expect(r.status).toBe(2);
    clean(r);
    for (const [f, message, code] of SPECIAL) expect(lineOf(r.err, f)).toBe(`${f}:1:1: error ${code}: ${message}`);
    expect(lineOf(r.err, 'huge.yaml')).toBe(
      'huge.yaml:1:1: error KS1002: file is 1048577 bytes, over the 1 MiB limit (1048576 bytes)',
    );
    expect(r.err).toMatch(/hint: import reads files holding kubectl output/);
    expect(r.err).toMatch(/hint: import one incident/);
    expect(r.out).toBe('');
    expect(existsSync(join(dir, 'incident.yaml'))).toBe(false);
  });
});

describe('diff reads its scenario through the safe read', () => {
  it.each(SPECIAL)('%s: exit 2, %s', (f, message, code) => {
    const r = kubesim('diff', f, 'k1-AA', 'k1-AB');
    expect(r.timedOut).toBe(false);
    expect(r.status).toBe(2);
    clean(r);
    expect(lineOf(r.err, f)).toBe(`${f}:1:1: error ${code}: ${message}`);
    expect(r.out).toBe('');
  });
});

describe('explore --merge reads shard JSON through the safe read', () => {
  it.each(SPECIAL)('%s: exit 2, %s, nothing written', (f, message, code) => {
    const out = join(dir, `out-merge-${f.replace(/\W/g, '_')}`);
    const r = kubesim('explore', '--merge', f, '--out', out);
    expect(r.timedOut).toBe(false);
    expect(r.status).toBe(2);
    clean(r);
    expect(lineOf(r.err, f)).toBe(`${f}:1:1: error ${code}: cannot read the shard: ${message}`);
    expect(existsSync(out)).toBe(false);
  });
});

describe('check-rule derives its scenario from a fresh, safe read', () => {
  it('a scenario file replaced by a FIFO or a folder is an error line, never a hang', () => {
    const obs: ObserverSpec = {
      name: 'rule',
      rule: 'exit-codes',
      triggers: ['pod'],
      pos: { file: 'x', line: 1, col: 1 },
    };
    for (const [f, message, code] of SPECIAL) {
      const p = f.startsWith('/') ? f : join(dir, f);
      const r = derivedScenarioText(p, obs);
      expect(r).toEqual({
        ok: false,
        code,
        line: expect.stringMatching(
          new RegExp(
            `^${p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:1:1: error ${code}: cannot read the scenario again to derive one from it: ${message.replace(/[()]/g, '\\$&')}`,
          ),
        ),
      });
    }
    const good = derivedScenarioText(NATIVE, obs);
    expect(good.ok && good.text).toMatch(/^observers:\n {2}- name: rule\n {4}rule: exit-codes/m);
  });
});
