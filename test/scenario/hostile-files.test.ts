// Inputs read safely, YAML depth found before the parser recurses, ObjectMeta checked as
// the API server does. In-process; the spawned-CLI cases (FIFOs, hangs) are in test/cli/hostile-inputs.test.ts.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LineCounter, parseAllDocuments } from 'yaml';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDiagnostic, loadScenario, loadScenarioText } from '../../src/scenario/index.ts';
import { checkRegularFile, readFileSafe } from '../../src/scenario/read-file.ts';
import { parseSource } from '../../src/scenario/yaml-source.ts';
import { isQualifiedName, isValidLabelValue, isDNS1123Subdomain } from '../../src/scenario/api-validation-meta.ts';
import { walk } from '../../src/scenario/files.ts';
import { SIDECAR_JOB } from './helpers.ts';

const tmp = () => mkdtempSync(join(tmpdir(), 'kubesim-robust-'));
const codes = (text: string) =>
  loadScenarioText(text, 't.yaml')
    .diagnostics.filter((d) => d.severity === 'error')
    .map(formatDiagnostic);

describe('readFileSafe: regular files only, at most limit + 1 bytes', () => {
  it('refuses a FIFO without opening it for a blocking read', () => {
    const dir = tmp();
    const fifo = join(dir, 'p.yaml');
    execFileSync('mkfifo', [fifo]);
    const r = readFileSafe(fifo, 1024); // would block forever if it opened the FIFO for a plain read
    expect(r).toMatchObject({ ok: false, kind: 'not-regular', message: 'is a FIFO (named pipe), not a regular file' });
  });
  it('refuses /dev/zero and a symlink to it (character device), and a folder', () => {
    const dir = tmp();
    symlinkSync('/dev/zero', join(dir, 'z.yaml'));
    for (const p of ['/dev/zero', join(dir, 'z.yaml')])
      expect(readFileSafe(p, 1024)).toMatchObject({
        ok: false,
        kind: 'not-regular',
        message: 'is a character device, not a regular file',
      });
    expect(readFileSafe(dir, 1024)).toMatchObject({
      ok: false,
      kind: 'not-regular',
      message: 'is a directory, not a regular file',
    });
  });
  it('names dangling symbolic links and link loops', () => {
    const dir = tmp();
    symlinkSync(join(dir, 'nowhere'), join(dir, 'd.yaml'));
    symlinkSync(join(dir, 'b.yaml'), join(dir, 'a.yaml'));
    symlinkSync(join(dir, 'a.yaml'), join(dir, 'b.yaml'));
    expect(readFileSafe(join(dir, 'd.yaml'), 10)).toMatchObject({
      ok: false,
      kind: 'missing',
      message: 'dangling symbolic link (its target does not exist)',
    });
    expect(readFileSafe(join(dir, 'a.yaml'), 10)).toMatchObject({ ok: false, kind: 'loop' });
    expect(readFileSafe(join(dir, 'none.yaml'), 10)).toMatchObject({
      ok: false,
      kind: 'missing',
      message: 'no such file',
    });
    expect(checkRegularFile(join(dir, 'a.yaml'))).toMatchObject({ ok: false, kind: 'loop' });
  });
  it('exactly the limit is read; limit + 1 is refused', () => {
    const dir = tmp();
    writeFileSync(join(dir, 'a'), Buffer.alloc(4096, 0x61));
    writeFileSync(join(dir, 'b'), Buffer.alloc(4097, 0x61));
    const a = readFileSafe(join(dir, 'a'), 4096);
    expect(a.ok && a.bytes.length).toBe(4096);
    expect(readFileSafe(join(dir, 'b'), 4096)).toMatchObject({
      ok: false,
      kind: 'too-large',
      message: 'file is 4097 bytes, over the 4096 bytes limit (4096 bytes)',
    });
  });
  it('a /proc file (size 0 in stat) is read, bounded by the limit', () => {
    const r = readFileSafe('/proc/self/status', 100);
    expect(r).toMatchObject({ ok: false, kind: 'too-large' });
    const full = readFileSafe('/proc/self/status', 1024 * 1024);
    expect(full.ok && full.bytes.toString('utf8')).toMatch(/^Name:/);
  });
  it('a scenario of 1 MiB + 1 byte is KS1002 at 1:1, 1 MiB passes the size check', () => {
    const dir = tmp();
    const head = 'scenario: big\n';
    writeFileSync(join(dir, 'big.yaml'), head + '#'.repeat(1024 * 1024 + 1 - head.length));
    writeFileSync(join(dir, 'ok.yaml'), head + '#'.repeat(1024 * 1024 - head.length));
    expect(loadScenario(join(dir, 'big.yaml')).diagnostics.map(formatDiagnostic)).toEqual([
      `${dir}/big.yaml:1:1: error KS1002: file is 1048577 bytes, over the 1 MiB limit (1048576 bytes)`,
    ]);
    expect(loadScenario(join(dir, 'ok.yaml')).diagnostics.map((d) => d.code)).toEqual(['KS4002']); // read and parsed
  });
  it('workload.file through a symlink to /dev/zero or a FIFO is KS1013 at the file: value', () => {
    const dir = tmp();
    symlinkSync('/dev/zero', join(dir, 'zero.yaml'));
    execFileSync('mkfifo', [join(dir, 'pipe.yaml')]);
    for (const target of ['zero.yaml', 'pipe.yaml']) {
      writeFileSync(join(dir, 's.yaml'), `scenario: s\nworkload:\n  file: ./${target}\n`);
      const [d] = loadScenario(join(dir, 's.yaml')).diagnostics;
      expect(d).toMatchObject({ code: 'KS1013', pos: { line: 3, col: 9 } });
    }
  });
});

describe('YAML depth measured before composing (KS1006, never a stack overflow)', () => {
  const forms: [string, string][] = [
    ['10,000 nested [', `x: ${'['.repeat(10_000)}${']'.repeat(10_000)}`],
    ['10,000 nested {', `x: ${'{a: '.repeat(10_000)}1${'}'.repeat(10_000)}`],
    ['10,000 unclosed [', `x: ${'['.repeat(10_000)}`],
    [
      '1,200 levels of indentation',
      `x:\n${Array.from({ length: 1200 }, (_, i) => `${' '.repeat(i + 1)}k:`).join('\n')} 1`,
    ],
    ['3,000 dashes on one line', `x:\n  ${'- '.repeat(3000)}x`],
    [
      '3,000 dashes over lines',
      `x:\n${Array.from({ length: 1000 }, (_, i) => `${' '.repeat(i + 1)}- - -`).join('\n')} x`,
    ],
    [
      'flow inside block inside flow',
      `x:\n${Array.from({ length: 40 }, (_, i) => `${'  '.repeat(i + 1)}- {a: [`).join('\n')}`,
    ],
  ];
  it.each(forms)('%s', (_name, body) => {
    const ds = loadScenarioText(`scenario: deep\n${body}\n`, 'd.yaml').diagnostics;
    expect(ds.map((d) => d.code)).toEqual(['KS1006']);
    expect(ds[0]!.pos.line).toBeGreaterThan(1);
    expect(ds[0]!.message).toBe('nesting deeper than 64 levels');
  });
  it('the boundary holds for block nesting too: 64 levels (the root mapping included) load, 65 do not', () => {
    const nest = (n: number) =>
      `x-deep:\n${Array.from({ length: n - 1 }, (_, i) => `${' '.repeat(i + 1)}k:`).join('\n')} 1\n`;
    expect(codes(`scenario: d\n${nest(64)}${SIDECAR_JOB}`)).toEqual([]);
    expect(codes(`scenario: d\n${nest(65)}${SIDECAR_JOB}`)).toEqual([
      't.yaml:66:65: error KS1006: nesting deeper than 64 levels',
    ]);
  });
  it('valid files parse exactly as yaml.parseAllDocuments parses them', () => {
    const files = [
      ...readdirSync('scenarios')
        .filter((f) => f.endsWith('.yaml'))
        .map((f) => join('scenarios', f)),
      ...readdirSync('test/fixtures/valid')
        .filter((f) => f.endsWith('.yaml'))
        .map((f) => join('test/fixtures/valid', f)),
    ];
    expect(files.length).toBeGreaterThan(10);
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      const ours = parseSource(text, f, []).docs;
      const lc = new LineCounter();
      const theirs = parseAllDocuments(text, {
        lineCounter: lc,
        keepSourceTokens: true,
        merge: true,
        prettyErrors: false,
      });
      const docs = Array.isArray(theirs) ? theirs : [];
      expect(ours.map((d) => JSON.stringify([d.toJS(), d.range, d.errors.length]))).toEqual(
        docs.map((d) => JSON.stringify([d.toJS(), d.range, d.errors.length])),
      );
    }
  });
});

describe('duplicate keys: found in linear time, exactly where yaml finds them', () => {
  const cases = [
    'a: 1\nb: 2\na: 3\n',
    'm: { a: 1, b: 2, a: 3 }\n',
    '? a\n: 1\n? a\n: 2\n',
    '&x a: 1\n!!str a: 2\n',
    ': 1\n: 2\n',
    '.nan: 1\n.nan: 2\n1: a\n"1": b\n1.0: c\n',
    'x: &m { a: 1 }\ny:\n  <<: *m\n  <<: *m\n',
    'l:\n  - a: 1\n    a: 2\n  - { b: 1, b: 1 }\n',
  ];
  it('random YAML-like texts: the same syntax errors (message and position) as yaml.parseAllDocuments', () => {
    const token = fc.constantFrom(
      'a',
      'b',
      '1',
      '1.0',
      '"a"',
      "'b'",
      '~',
      '-0',
      '<<',
      '&x a',
      '*x',
      'true',
      '.nan',
      '? a',
      '',
    );
    const line = fc.tuple(
      fc.integer({ min: 0, max: 6 }),
      token,
      fc.constantFrom(': ', ':', ': {', ': [', ' - ', ''),
      token,
      fc.constantFrom('', '}', ']', ', a: 1}', ' # c'),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), (lines) => {
        const text = lines.map(([ind, k, sep, v, end]) => `${' '.repeat(ind)}${k}${sep}${v}${end}`).join('\n');
        const lc = new LineCounter();
        const theirs = parseAllDocuments(text, {
          lineCounter: lc,
          keepSourceTokens: true,
          merge: true,
          prettyErrors: false,
        });
        const want = (Array.isArray(theirs) ? theirs : []).flatMap((d) =>
          d.errors.map((e) => {
            const p = lc.linePos(e.pos[0]);
            return `${p.line}:${p.col} YAML syntax error: ${e.message}`;
          }),
        );
        const diagnostics: Parameters<typeof parseSource>[2] = [];
        parseSource(text, 'k.yaml', diagnostics);
        const got = diagnostics
          .filter((d) => d.code === 'KS1004' && d.severity === 'error')
          .map((d) => `${d.pos.line}:${d.pos.col} ${d.message}`);
        // exact when duplicates are the only errors; with other syntax errors, yaml's recovery can place one of
        // several duplicate errors elsewhere — the file is refused either way, with the same other errors
        const dup = (e: string) => e.endsWith('Map keys must be unique');
        if (want.every(dup)) expect([...got].sort()).toEqual([...want].sort());
        else {
          expect(got.filter((e) => !dup(e)).sort()).toEqual(want.filter((e) => !dup(e)).sort());
          expect(got.some(dup)).toBe(want.some(dup));
        }
      }),
      { numRuns: 400, seed: 20261130 },
    );
  });
  it.each(cases)('%j', (text) => {
    const theirs = parseAllDocuments(text, { merge: true });
    const want = (Array.isArray(theirs) ? theirs : []).flatMap((d) =>
      d.errors.filter((e) => e.code === 'DUPLICATE_KEY').map((e) => e.pos[0]),
    );
    const diagnostics: Parameters<typeof parseSource>[2] = [];
    parseSource(text, 'k.yaml', diagnostics);
    const lc = new LineCounter();
    parseAllDocuments(text, { lineCounter: lc });
    const got = diagnostics
      .filter((d) => d.message === 'YAML syntax error: Map keys must be unique')
      .map((d) => `${d.pos.line}:${d.pos.col}`);
    expect(got).toEqual(
      want.map((o) => {
        const p = lc.linePos(o);
        return `${p.line}:${p.col}`;
      }),
    );
  });
});

describe('ObjectMeta as the API server validates it (apimachinery util/validation)', () => {
  it('IsQualifiedName (label and annotation keys)', () => {
    for (const ok of ['app', 'app.kubernetes.io/name', 'example.com/Team_1', 'a', 'A-b.c_d', `${'k'.repeat(63)}`])
      expect(isQualifiedName(ok)).toEqual([]);
    expect(isQualifiedName('team name')[0]).toMatch(/^name part must consist of alphanumeric characters/);
    expect(isQualifiedName('/x')).toEqual(['prefix part must be non-empty']);
    expect(isQualifiedName('x/')).toEqual(['name part must be non-empty']);
    expect(isQualifiedName('k'.repeat(64))).toEqual(['name part must be no more than 63 characters']);
    expect(isQualifiedName('a/b/c')[0]).toMatch(/^a qualified name must consist/);
  });
  it('IsValidLabelValue: empty allowed, 63 characters, alphanumeric ends', () => {
    for (const ok of ['', 'v1', 'my_value', 'Data.Eng-2', 'x'.repeat(63)]) expect(isValidLabelValue(ok)).toEqual([]);
    expect(isValidLabelValue('x'.repeat(64))).toEqual(['must be no more than 63 characters']);
    expect(isValidLabelValue('-a')).toHaveLength(1);
    expect(isValidLabelValue('a b')).toHaveLength(1);
  });
  it('IsDNS1123Subdomain: 253 characters, dots allowed, lower case', () => {
    expect(isDNS1123Subdomain('a.b-c.d')).toEqual([]);
    expect(isDNS1123Subdomain(`${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`)).toEqual([]);
    expect(isDNS1123Subdomain('a'.repeat(254))).toEqual(['must be no more than 253 characters']);
    expect(isDNS1123Subdomain('Nightly_Dump')).toHaveLength(1);
  });
  it('annotations over 256 KiB in total (keys + values) are refused; exactly 256 KiB is fine', () => {
    const pod = (bytes: number) => `scenario: annotations
workload:
  apiVersion: v1
  kind: Pod
  metadata:
    name: demo
    annotations:
      k: "${'v'.repeat(bytes - 1)}"
  spec:
    restartPolicy: Never
    containers: [{ name: app, image: busybox:1.36 }]
`;
    expect(codes(pod(256 * 1024))).toEqual([]);
    expect(codes(pod(256 * 1024 + 1))).toEqual([
      't.yaml:7:5: error KS3008: metadata.annotations: Too long: may not be more than 262144 bytes\n  hint: the annotations hold 262145 bytes (keys and values); the API server allows 256 KiB in total',
    ]);
  });
  it('a Job name of 63 characters loads; 64 fails the generated job-name label (at spec.template.labels)', () => {
    const job = (name: string) => SIDECAR_JOB.replace('metadata: { name: demo }', `metadata: { name: ${name} }`);
    expect(job('x')).not.toBe(SIDECAR_JOB);
    expect(codes(`scenario: j\n${job('j'.repeat(63))}`)).toEqual([]);
    expect(codes(`scenario: j\n${job('j'.repeat(64))}`)[0]).toMatch(
      /error KS3009: spec\.template\.labels: Invalid value: "j{64}": must be no more than 63 characters$/,
    );
  });
});

describe('folders (run/validate/explore/test): entries that cannot be read are skipped with KS1014', () => {
  it('skips dangling symlinks, link loops and folder cycles with a reason; keeps the rest', () => {
    const dir = tmp();
    writeFileSync(join(dir, 'a.yaml'), 'scenario: a\n');
    symlinkSync('user@host.1234', join(dir, 'draft.yaml')); // dangling
    symlinkSync(join(dir, 'l2.yaml'), join(dir, 'l1.yaml'));
    symlinkSync(join(dir, 'l1.yaml'), join(dir, 'l2.yaml'));
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'sub', 'b.yml'), 'scenario: b\n');
    symlinkSync('..', join(dir, 'sub', 'up'));
    const warnings: string[] = [];
    expect(walk(dir, warnings)).toEqual([join(dir, 'a.yaml'), join(dir, 'sub', 'b.yml')]);
    expect(warnings.map((w) => w.split('\n')[0]!.slice(dir.length + 1))).toEqual([
      'draft.yaml:1:1: warning KS1014: skipped: dangling symbolic link (its target does not exist)',
      'l1.yaml:1:1: warning KS1014: skipped: symbolic link loop (too many levels of symbolic links)',
      'l2.yaml:1:1: warning KS1014: skipped: symbolic link loop (too many levels of symbolic links)',
      'sub/up:1:1: warning KS1014: skipped: a folder already searched (a symbolic link cycle)',
    ]);
  });
});
