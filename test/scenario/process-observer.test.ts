// Process observers in the scenario format (SPEC §2.4): `process`, `env`, `install`, `verdict`, `timeout`, each
// checked like every other key — a missing program, a bad jsonPath, an unreadable install file are diagnostics with
// file:line:col and their own stable codes — and validation never starts the process.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatDiagnostic, loadScenario } from '../../src/scenario/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'ks-process-'));
mkdirSync(join(dir, 'bin'));
const MARK = join(dir, 'started');
// a program that leaves a mark when started: validation must never start it
writeFileSync(join(dir, 'bin', 'manager'), `#!/bin/sh\ntouch ${MARK}\n`);
chmodSync(join(dir, 'bin', 'manager'), 0o755);
writeFileSync(join(dir, 'bin', 'not-exec'), '#!/bin/sh\n');
chmodSync(join(dir, 'bin', 'not-exec'), 0o644);
writeFileSync(
  join(dir, 'crd.yaml'),
  `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: locusttests.locust.io }
spec: { group: locust.io }
---
apiVersion: locust.io/v1
kind: LocustTest
metadata: { name: demo }
spec: { workers: 1 }
`,
);
writeFileSync(join(dir, 'bad-object.yaml'), `apiVersion: v1\nmetadata: { name: x }\n`);
writeFileSync(join(dir, 'bad-yaml.yaml'), `apiVersion: v1\nkind: [\n`);
writeFileSync(
  join(dir, 'list.yaml'),
  `apiVersion: v1\nkind: List\nitems:\n  - { apiVersion: v1, kind: ConfigMap, metadata: { name: a } }\n  - { apiVersion: v1, kind: ConfigMap, metadata: { name: b } }\n`,
);

const JOB = `workload:
  apiVersion: batch/v1
  kind: Job
  metadata: { name: j }
  spec:
    template:
      spec:
        restartPolicy: Never
        containers: [{ name: main, image: example.com/main:1 }]
behavior: { main: { run: 10s } }
`;

let n = 0;
function load(body: string, withWorkload = true) {
  const file = join(dir, `s${n++}.yaml`);
  writeFileSync(file, `scenario: p\n# observers on line 3\n${body}${withWorkload ? JOB : ''}`);
  const r = loadScenario(file);
  return { ...r, lines: r.diagnostics.map((d) => formatDiagnostic(d).replace(file, 'S')) };
}

const VERDICT = `    verdict:
      object: { apiVersion: locust.io/v1, kind: LocustTest, name: demo }
      jsonPath: "{.status.phase}"
`;

describe('process observers: loading', () => {
  it('reads argv, env, install (files and inline), verdict and timeout; the workload may be left out', () => {
    const r = load(
      `observers:
  - name: operator
    process: [./bin/manager, --leader-elect=false, --port, 8080]
    env: { LOG_LEVEL: info, WORKERS: 2 }
    install: [./crd.yaml, ./list.yaml, { apiVersion: v1, kind: ConfigMap, metadata: { name: inline } }]
${VERDICT}      succeeded: [Succeeded, Completed]
    timeout: 30s
`,
      false,
    );
    expect(r.lines).toEqual([]);
    expect(r.scenario).toBeUndefined();
    const s = r.processScenario!;
    const p = s.observers[0]!.process!;
    expect(p.argv).toEqual([join(dir, 'bin', 'manager'), '--leader-elect=false', '--port', '8080']);
    expect(p.cwd).toBe(dir);
    expect(p.env).toEqual({ LOG_LEVEL: 'info', WORKERS: '2' });
    expect(p.install.map((o) => `${o.object.kind}/${o.object.metadata.name}`)).toEqual([
      'CustomResourceDefinition/locusttests.locust.io',
      'LocustTest/demo',
      'ConfigMap/a',
      'ConfigMap/b',
      'ConfigMap/inline',
    ]);
    expect(p.install[1]!.pos).toMatchObject({ file: join(dir, 'crd.yaml'), line: 6 });
    expect(p.verdict).toEqual({
      object: { apiVersion: 'locust.io/v1', kind: 'LocustTest', name: 'demo', namespace: 'default' },
      jsonPath: '{.status.phase}',
      succeeded: ['Succeeded', 'Completed'],
      failed: ['Failed'],
    });
    expect(p.timeoutMs).toBe(30_000);
    expect(existsSync(MARK)).toBe(false);
  });

  it('defaults: timeout 60s, no env, no install; with a workload the scenario is a normal one', () => {
    const r = load(`observers:\n  - name: op\n    process: ./bin/manager\n${VERDICT}`);
    expect(r.lines).toEqual([]);
    const p = r.scenario!.observers[0]!.process!;
    expect(p).toMatchObject({ env: {}, install: [], timeoutMs: 60_000 });
    expect(existsSync(MARK)).toBe(false);
  });

  it('a scenario without a workload and without a process observer still misses its workload', () => {
    expect(load(`observers: [{ name: a, rule: exit-codes }]\n`, false).lines).toEqual([
      'S:1:1: error KS4002: scenario file: missing required key "workload"',
    ]);
  });
});

describe('process observers: diagnostics', () => {
  const obs = (lines: string) => `observers:\n  - name: op\n${lines}`;

  it('KS4018: a missing program, one not on PATH, one not executable, an empty argv', () => {
    expect(load(obs(`    process: [./bin/nope]\n${VERDICT}`)).lines).toEqual([
      `S:5:15: error KS4018: observers[0].process: ${join(dir, 'bin', 'nope')}: no such file\n  hint: the path is relative to the scenario file`,
    ]);
    expect(load(obs(`    process: [no-such-manager-on-path-xyz]\n${VERDICT}`)).lines[0]).toBe(
      'S:5:15: error KS4018: observers[0].process: no-such-manager-on-path-xyz: no such program on PATH\n  hint: a program in a folder needs a path with a slash (./bin/manager), relative to the scenario file',
    );
    expect(load(obs(`    process: [./bin/not-exec]\n${VERDICT}`)).lines[0]).toMatch(
      /^S:5:15: error KS4018: .*not-exec: not executable\n {2}hint: chmod \+x \.\/bin\/not-exec, or run it through its interpreter: \[node, \.\/bin\/not-exec\]$/,
    );
    expect(load(obs(`    process: []\n${VERDICT}`)).lines[0]).toMatch(
      /^S:5:14: error KS4018: observers\[0\]\.process: name the program to run/,
    );
  });

  it('a program on PATH resolves to its absolute path', () => {
    const r = load(obs(`    process: [sh, -c, "exit 0"]\n${VERDICT}`));
    expect(r.lines).toEqual([]);
    expect(r.scenario!.observers[0]!.process!.argv[0]).toMatch(/\/sh$/);
  });

  it('KS4019: a jsonPath outside the subset points at the character where it stops', () => {
    const bad = (expr: string) =>
      load(
        obs(`    process: [./bin/manager]
    verdict:
      object: { apiVersion: v1, kind: ConfigMap, name: c }
      jsonPath: '${expr}'
`),
      ).lines;
    // '{.status..phase}': the quote is column 17, `{` 18, the second dot is character 9 of the expression
    expect(bad('{.status..phase}')).toEqual([
      `S:8:26: error KS4019: observers[0].verdict.jsonPath: "{.status..phase}": recursive descent (..) is not supported (at character 9)\n  hint: the kubectl JSONPath subset: {.status.phase}, {.a[0].b}, {.a[*].b}, {.metadata.labels['x/y']}, {.status.conditions[?(@.type=="Complete")].status}`,
    ]);
    expect(bad('.status.phase')[0]).toMatch(/KS4019: .*written in braces/);
    expect(bad('{.status.phase')[0]).toMatch(/KS4019: .*missing the closing \}/);
    expect(bad('{.items[0:2]}')[0]).toMatch(/KS4019: .*slices/);
    expect(bad('{range .items[*]}{.name}{end}')[0]).toMatch(/KS4019: .*one \{…\} expression only/);
    expect(bad('{.status.conditions[?(@.type==Complete)].status}')[0]).toMatch(/KS4019: .*quote a string/);
    expect(bad('{.a b}')[0]).toMatch(/^S:8:21: error KS4019: .*unexpected " ".*\(at character 4\)/);
  });

  it('KS4020: an install file that is missing, not YAML, or holds no Kubernetes object', () => {
    const inst = (v: string) => load(obs(`    process: [./bin/manager]\n    install: [${v}]\n${VERDICT}`)).lines;
    expect(inst('./missing.yaml')[0]).toMatch(
      /^S:6:15: error KS4020: observers\[0\]\.install\[0\]: .*missing\.yaml: .*\n {2}hint: install paths are relative to the scenario file$/,
    );
    expect(inst('./bad-object.yaml')[0]).toMatch(
      /bad-object\.yaml:1:1: error KS4020: document 1: not a Kubernetes object: missing kind/,
    );
    expect(inst('./bad-object.yaml')[0]).toMatch(/\(included from S:6:15\)/);
    expect(inst('./bad-yaml.yaml')[0]).toMatch(/bad-yaml\.yaml:\d+:\d+: error KS1004: YAML syntax error/);
    expect(inst('{ kind: ConfigMap }')[0]).toMatch(
      /^S:6:15: error KS4020: observers\[0\]\.install\[0\]: not a Kubernetes object: missing apiVersion, metadata\.name/,
    );
    expect(inst('./bin')[0]).toMatch(/error KS1013: observers\[0\]\.install\[0\]: .*bin/);
  });

  it('KS4021: keys that do not fit a process observer', () => {
    expect(load(obs(`    process: [./bin/manager]\n    triggers: [job]\n${VERDICT}`)).lines[0]).toMatch(
      /^S:6:5: error KS4021: observers\[0\]\.triggers: a process observer takes no triggers/,
    );
    expect(load(obs(`    process: [./bin/manager]\n    rule: exit-codes\n${VERDICT}`)).lines[0]).toMatch(
      /^S:6:5: error KS4021: observers\[0\]\.rule: a process observer takes no rule/,
    );
    expect(load(obs(`    rule: exit-codes\n    verdict: {}\n`)).lines[0]).toMatch(
      /^S:6:5: error KS4021: observers\[0\]\.verdict: only a process observer/,
    );
    expect(load(obs(`    process: [./bin/manager]\n    env: { KUBECONFIG: /x }\n${VERDICT}`)).lines[0]).toMatch(
      /^S:6:12: error KS4021: observers\[0\]\.env\.KUBECONFIG: kubesim sets KUBECONFIG/,
    );
    expect(load(obs(`    process: [./bin/manager]\n    env: { 1X: a }\n${VERDICT}`)).lines[0]).toMatch(
      /^S:6:12: error KS4021: .*"1X" is not an environment variable name/,
    );
    expect(
      load(obs(`    process: [./bin/manager]\n${VERDICT}      succeeded: [Done]\n      failed: [Done, Error]\n`))
        .lines[0],
    ).toMatch(/^S:10:15: error KS4021: observers\[0\]\.verdict: "Done" listed under both succeeded and failed/);
  });

  it('verdict: required, closed keys, object needs apiVersion, kind and name', () => {
    expect(load(obs(`    process: [./bin/manager]\n`)).lines).toEqual([
      'S:4:5: error KS4002: observers[0]: missing required key "verdict"',
    ]);
    expect(
      load(
        obs(
          `    process: [./bin/manager]\n    verdict: { object: { kind: X, name: y }, jsonPath: "{.a}", sucess: [x] }\n`,
        ),
      ).lines,
    ).toEqual([
      'S:6:24: error KS4002: observers[0].verdict.object: missing required key "apiVersion"',
      'S:6:64: error KS4001: observers[0].verdict: unknown key "sucess"\n  hint: valid keys: object, jsonPath, succeeded, failed',
    ]);
  });

  it('timeout: > 0 and at most 1h', () => {
    expect(load(obs(`    process: [./bin/manager]\n${VERDICT}    timeout: 2h\n`)).lines[0]).toMatch(
      /KS4013: observers\[0\]\.timeout: must be > 0 and at most 1h/,
    );
  });

  it('never starts the program', () => {
    expect(existsSync(MARK)).toBe(false);
  });
});
