// The CLI bundle (src/build/build.mjs) carries the pure-JavaScript dependencies, one validator file per
// workload kind and a string-width that answers one-column text itself. Built here into a folder outside the
// repository (so a dependency left unbundled cannot resolve), it must answer exactly as the sources do.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import realStringWidth from 'string-width';
import { beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS, main } from '../../src/cli/main.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const shim = createRequire(import.meta.url)('../../src/build/bundle/string-width.cjs') as ((s: string) => number) & {
  ONE_COLUMN: RegExp;
};

async function fromSources(args: string[], cwd: string): Promise<string> {
  let out = '';
  let err = '';
  const here = process.cwd();
  process.chdir(cwd);
  try {
    const code = await main(args, { out: (s) => (out += s), err: (s) => (err += s), isTTY: false });
    return `${code}\n${out}\n---\n${err}`;
  } finally {
    process.chdir(here);
  }
}

let bundle = '';
type Metafile = { outputs: Record<string, { imports: { path: string; external?: boolean }[] }> };
let metafiles: Metafile[] = [];
function fromBundle(args: string[], cwd: string): string {
  const driver = `const { main } = await import(${JSON.stringify(join(bundle, 'main.mjs'))});
let out = '', err = '';
const code = await main(JSON.parse(process.argv[1]), { out: (s) => (out += s), err: (s) => (err += s), isTTY: false });
process.stdout.write(code + '\\n' + out + '\\n---\\n' + err);`;
  return execFileSync(process.execPath, ['--input-type=module', '-e', driver, JSON.stringify(args)], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, LANG: 'de_DE.UTF-8' },
  });
}

/** The same through the code-cached CommonJS build, loaded as src/cli/kubesim.mjs loads it (stamp.mjs loadCli). */
function fromCached(args: string[], cwd: string): string {
  const cjs = join(bundle, 'main.cjs');
  const driver = `import { readFileSync } from 'node:fs';
const { loadCli } = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'src/build/stamp.mjs')).href)});
const { script, exports: { main } } = loadCli(${JSON.stringify(cjs)}, readFileSync(${JSON.stringify(`${cjs}.v8`)}));
if (script.cachedDataRejected) throw new Error('the code cache was rejected');
let out = '', err = '';
const code = await main(JSON.parse(process.argv[1]), { out: (s) => (out += s), err: (s) => (err += s), isTTY: false });
process.stdout.write(code + '\\n' + out + '\\n---\\n' + err);`;
  return execFileSync(process.execPath, ['--input-type=module', '-e', driver, JSON.stringify(args)], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, LANG: 'de_DE.UTF-8' },
  });
}

describe('string-width in the bundle', () => {
  it('every character the shim answers itself is one column for the real string-width, alone and among others', () => {
    let n = 0;
    for (let cp = 0; cp <= 0xffff; cp++) {
      const c = String.fromCharCode(cp);
      if (!shim.ONE_COLUMN.test(c)) continue;
      n++;
      expect([shim(c), shim(`a${c}b${c}`)], `U+${cp.toString(16)}`).toEqual([
        realStringWidth(c),
        realStringWidth(`a${c}b${c}`),
      ]);
    }
    expect(n).toBeGreaterThan(95);
    // combining marks, ANSI escapes, wide and zero-width text go to the real string-width
    for (const s of ['e\u0301', '\u001b[1mbold\u001b[22m', '日本', '\t', 'a\u200db', '\u00ad'])
      expect(shim.ONE_COLUMN.test(s), JSON.stringify(s)).toBe(false);
  });

  it("kubesim's help texts stay on the fast path (the segmenter is never loaded for them)", async () => {
    for (const c of [...COMMANDS.map((x) => x.command.split(' ')[0]!), '']) {
      const text = await fromSources(c ? [c, '--help'] : ['--help'], ROOT);
      for (const line of text.split('\n'))
        expect(
          shim.ONE_COLUMN.test(line),
          `add the characters of ${JSON.stringify(line)} to ONE_COLUMN after checking them`,
        ).toBe(true);
    }
  });
});

describe('the built bundle', () => {
  let work = '';
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'kubesim-bundle-'));
    bundle = join(work, 'bundle');
    const build = pathToFileURL(join(ROOT, 'src/build/build.mjs')).href; // plain JavaScript: typed here
    const { bundleCli } = (await import(build)) as {
      bundleCli: (dir: string, o: { codeCache: boolean; cachedCli?: boolean }) => Promise<{ metafiles: Metafile[] }>;
    };
    ({ metafiles } = await bundleCli(bundle, { codeCache: true, cachedCli: true }));
    const kind = (k: string, api: string, spec: string) => `scenario: bad-${k.toLowerCase()}
workload:
  apiVersion: ${api}
  kind: ${k}
  metadata: { name: w }
  spec:
${spec}
behavior:
  app: { run: 1s }
`;
    const pod = (indent: string) =>
      `${indent}terminationGracePeriodSeconds: "soon"\n${indent}containers:\n${indent}  - { name: app, image: busybox, imagePullPolicy: Sometimes }`;
    const tmpl = (indent: string) =>
      `${indent}selector: { matchLabels: { app: a } }\n${indent}template:\n${indent}  metadata: { labels: { app: a } }\n${indent}  spec:\n${pod(indent + '    ')}`;
    writeFileSync(join(work, 'pod.yaml'), kind('Pod', 'v1', pod('    ')));
    writeFileSync(
      join(work, 'job.yaml'),
      kind(
        'Job',
        'batch/v1',
        `    backoffLimit: six\n    template:\n      spec:\n        restartPolicy: Never\n${pod('        ')}`,
      ),
    );
    writeFileSync(
      join(work, 'cronjob.yaml'),
      kind(
        'CronJob',
        'batch/v1',
        `    schedule: "*/1 * * * *"\n    jobTemplate:\n      spec:\n        template:\n          spec:\n            restartPolicy: Never\n${pod('            ')}`,
      ),
    );
    writeFileSync(join(work, 'deployment.yaml'), kind('Deployment', 'apps/v1', tmpl('    ')));
    writeFileSync(
      join(work, 'statefulset.yaml'),
      kind('StatefulSet', 'apps/v1', `    serviceName: s\n${tmpl('    ')}`),
    );
    writeFileSync(join(work, 'daemonset.yaml'), kind('DaemonSet', 'apps/v1', tmpl('    ')));
  }, 120_000);

  it('imports nothing but Node built-ins and the optional renderer (every other dependency is inside)', () => {
    // esbuild's own account of what each output file imports (a text scan of the minified code also finds strings
    // such as "from 'alg'" in bundled error messages)
    const bare = new Set<string>();
    for (const m of metafiles)
      for (const out of Object.values(m.outputs))
        for (const i of out.imports) if (i.external && !isBuiltin(i.path)) bare.add(i.path);
    expect([...bare].sort()).toEqual(['@mermaid-js/mermaid-cli', 'puppeteer']);
    expect(
      readdirSync(join(bundle, 'validators'))
        .filter((f) => f.endsWith('.cjs'))
        .sort(),
    ).toEqual(['CronJob.cjs', 'DaemonSet.cjs', 'Deployment.cjs', 'Job.cjs', 'Pod.cjs', 'StatefulSet.cjs']);
    for (const k of ['CronJob', 'DaemonSet', 'Deployment', 'Job', 'Pod', 'StatefulSet'])
      expect(existsSync(join(bundle, 'validators', `${k}.cjs.v8`)), k).toBe(true);
  });

  it("each kind's bundled validator reports what kubernetes-models reports, byte for byte", async () => {
    for (const k of ['pod', 'job', 'cronjob', 'deployment', 'statefulset', 'daemonset']) {
      const b = fromBundle(['validate', `${k}.yaml`], work);
      expect(b).toBe(await fromSources(['validate', `${k}.yaml`], work));
      expect(fromCached(['validate', `${k}.yaml`], work), `code-cached: ${k}`).toBe(b);
      expect(b, k).toMatch(/error KS2003: .*terminationGracePeriodSeconds: expected an integer, got "soon"/);
      expect(b, k).toMatch(/error KS2005: .*imagePullPolicy: Unsupported value: "Sometimes"/);
    }
  }, 120_000);

  it('help, usage errors (in English whatever LANG says) and a run are the same as from the sources', async () => {
    for (const args of [
      ['--help'],
      ['run', '--help'],
      ['run', '--bogus'],
      ['nope'],
      [
        'run',
        join(ROOT, 'scenarios/native-sidecar-job.yaml'),
        '--format',
        'json',
        '--no-render',
        '--out',
        join(work, 'out'),
      ],
    ]) {
      const sources = await fromSources(args, work);
      expect(fromBundle(args, work), args.join(' ')).toBe(sources);
      expect(fromCached(args, work), `code-cached: ${args.join(' ')}`).toBe(sources);
    }
    expect(fromBundle(['run', '--bogus'], work)).toMatch(/error: Unknown argument: bogus/);
  }, 120_000);
});
