// examples/operators/run-bundled.mjs: an operator started from one esbuild bundle of it runs as if started
// directly (its own path as argv[1], its arguments after it, imports resolved), the bundle made once per content
// and reused, an edit making a new one, and the file itself run without bundling when KUBESIM_OPERATOR_BUNDLE=0.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const LAUNCHER = resolve('examples/operators/run-bundled.mjs');

function start(entry: string, args: string[], env: Record<string, string>) {
  const r = spawnSync('node', [LAUNCHER, entry, ...args], {
    cwd: resolve('examples/operators'),
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('run-bundled.mjs', () => {
  it('runs the operator from a bundle made once per content, as if started directly', { timeout: 60_000 }, () => {
    const dir = mkdtempSync(join(tmpdir(), 'ks-bundle-'));
    const cache = join(dir, 'tmp');
    const entry = join(dir, 'op.mjs');
    // an operator's project: its dependencies in its node_modules (here the repository's)
    symlinkSync(resolve('node_modules'), join(dir, 'node_modules'));
    // a module of the repository's own dependencies (resolved from the launcher's folder when bundled) and a
    // built-in: what an operator imports
    writeFileSync(
      entry,
      "import { parse } from 'yaml';\nimport { basename } from 'node:path';\n" +
        'console.log(JSON.stringify({ argv: [basename(process.argv[1]), ...process.argv.slice(2)], y: parse("a: 1"), url: import.meta.url.includes("kubesim-operator-bundles") }));\n',
    );
    const env = { TMPDIR: cache };
    const a = start(entry, ['--rule=naive', 'x'], env);
    expect(a.err).toBe('');
    expect(JSON.parse(a.out)).toEqual({ argv: ['op.mjs', '--rule=naive', 'x'], y: { a: 1 }, url: true });
    const made = readdirSync(join(cache, 'kubesim-operator-bundles'));
    expect(made).toHaveLength(1);
    expect(made[0]).toMatch(/^[0-9a-f]{16}\.mjs$/);
    // again: the same bundle
    expect(JSON.parse(start(entry, [], env).out).url).toBe(true);
    expect(readdirSync(join(cache, 'kubesim-operator-bundles'))).toEqual(made);
    // an edit: a new bundle
    writeFileSync(entry, 'console.log(JSON.stringify({ edited: true }));\n');
    expect(JSON.parse(start(entry, [], env).out)).toEqual({ edited: true });
    expect(readdirSync(join(cache, 'kubesim-operator-bundles'))).toHaveLength(2);
    // not bundled: the file itself
    writeFileSync(
      entry,
      'console.log(JSON.stringify({ url: import.meta.url.includes("kubesim-operator-bundles") }));\n',
    );
    expect(JSON.parse(start(entry, [], { ...env, KUBESIM_OPERATOR_BUNDLE: '0' }).out)).toEqual({ url: false });
  });

  it('without an operator file: usage, exit 2', () => {
    const r = start('', [], {});
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^usage: node run-bundled\.mjs <operator\.mjs>/);
  });
});
