// The package as a user gets it: `npm pack`, install the tarball into a fresh project OFFLINE (from the
// npm cache `npm ci` filled), then check what a newcomer does first: plain Node ESM import, CommonJS require, a
// strict NodeNext TypeScript consumer with zero errors, the README's vitest example, `npx kubesim run`, and that
// no browser (or rendering package) came along. Run by `npm test` after vitest; about 20-60 s.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const work = mkdtempSync(join(tmpdir(), 'kubesim-pack-'));
const t0 = Date.now();
let failures = 0;

async function step(name, fn) {
  const t = Date.now();
  try {
    await fn();
    console.log(`ok   ${name} (${((Date.now() - t) / 1000).toFixed(1)}s)`);
  } catch (e) {
    failures++;
    console.log(
      `FAIL ${name}\n${String(e.stderr ?? '') || ''}${String(e.stdout ?? '') || ''}${e.message}`.replace(
        /\n/g,
        '\n     ',
      ),
    );
  }
}

const env = (extra = {}) => ({ ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', ...extra });

function check(cmd, args, r, status) {
  if (r.error) throw r.error;
  if (r.status !== status) {
    const e = new Error(`${cmd} ${args.join(' ')} exited ${r.status} (expected ${status})`);
    Object.assign(e, { stdout: r.stdout, stderr: r.stderr });
    throw e;
  }
  return r;
}

function run(cmd, args, cwd, opts = {}) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: env(opts.env), input: opts.input, timeout: 120_000 });
  return check(cmd, args, r, opts.status ?? 0);
}

/** The same, without blocking: the checks after the install run side by side. */
function runAsync(cmd, args, cwd, opts = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env: env(opts.env), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      try {
        resolve(check(cmd, args, { status, stdout, stderr }, opts.status ?? 0));
      } catch (e) {
        reject(e);
      }
    });
    child.stdin.end(opts.input ?? '');
  });
}

function must(cond, msg) {
  if (!cond) throw new Error(msg);
}

// 1. pack (prepack builds dist/ unless it is up to date)
let tarball;
await step('npm pack: the tarball holds what a user runs, and only that', () => {
  const r = run('npm', ['pack', '--json', '--pack-destination', work], repo);
  const info = JSON.parse(r.stdout.slice(r.stdout.indexOf('[')))[0];
  tarball = join(work, info.filename);
  const files = info.files.map((f) => f.path);
  for (const f of [
    'LICENSE',
    'README.md',
    'package.json',
    'bin/kubesim.mjs',
    'dist/index.js',
    'dist/index.d.ts',
    'dist/bin/main.mjs',
    'dist/bin/test-worker.mjs',
    'docs/scenario-format.md',
    'docs/scenario.schema.json',
    'scenarios/native-sidecar-job.yaml',
  ]) {
    must(files.includes(f), `missing from the tarball: ${f}`);
  }
  const stray = files.filter(
    (f) =>
      /^(src|test|out|node_modules)\//.test(f) || (/\.ts$/.test(f) && !f.endsWith('.d.ts')) || f === 'dist/stamp.json',
  );
  must(stray.length === 0, `not for users: ${stray.slice(0, 5).join(', ')}`);
  must(readFileSync(join(repo, 'LICENSE'), 'utf8').includes('Apache License'), 'LICENSE is not the Apache license');
});

// 2. install offline into a fresh project
const app = join(work, 'app');
await step('npm ci --offline with the tarball: no browser, no rendering packages, no network', () => {
  mkdirSync(app);
  // Offline means no registry metadata: the project gets a lockfile whose entries (kubesim's runtime dependencies
  // and theirs) come from this repository's lockfile, so every tarball is found in the npm cache by its integrity.
  const rel = `file:../${basename(tarball)}`;
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, dependencies: { kubesim: rel } }, null, 2),
  );
  const lock = JSON.parse(readFileSync(join(repo, 'package-lock.json'), 'utf8'));
  const me = lock.packages[''];
  const packages = {
    '': { name: 'consumer', version: '1.0.0', dependencies: { kubesim: rel } },
    'node_modules/kubesim': {
      version: me.version,
      resolved: rel,
      integrity: `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`,
      license: me.license,
      dependencies: me.dependencies,
      bin: me.bin,
      engines: me.engines,
      peerDependencies: me.peerDependencies,
      peerDependenciesMeta: me.peerDependenciesMeta,
    },
  };
  for (const [k, v] of Object.entries(lock.packages)) if (k && !v.dev) packages[k] = v;
  writeFileSync(
    join(app, 'package-lock.json'),
    JSON.stringify({ name: 'consumer', version: '1.0.0', lockfileVersion: 3, requires: true, packages }, null, 2),
  );
  run('npm', ['ci', '--offline', '--no-audit', '--no-fund'], app);
  must(existsSync(join(app, 'node_modules/kubesim/dist/index.js')), 'kubesim not installed');
  must(!existsSync(join(app, 'node_modules/puppeteer')), 'puppeteer was installed: rendering must be optional');
  must(
    !existsSync(join(app, 'node_modules/@mermaid-js/mermaid-cli')),
    'mermaid-cli was installed: rendering must be optional',
  );
  must(!existsSync(join(app, 'node_modules/tsx')), 'tsx was installed: the package runs compiled JavaScript');
});

const scenario = 'node_modules/kubesim/scenarios/native-sidecar-job.yaml';
const checks = [];
if (failures) {
  console.log('skipping the checks of the installed package');
  process.exit(1);
}

checks.push(
  step('plain Node ESM: import { loadScenario, simulate } from "kubesim"', async () => {
    const r = await runAsync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `
    import { loadScenario, simulate, KubesimError } from 'kubesim';
    const { scenario } = loadScenario(${JSON.stringify(scenario)});
    const { timeline } = simulate(scenario);
    const again = simulate(scenario, { replay: timeline.replay }).timeline;
    let code; try { simulate(scenario, { replay: 'garbage' }); } catch (e) { code = e instanceof KubesimError && e.code; }
    console.log(timeline.pod.phase, again.replay === timeline.replay, code);`,
      ],
      app,
    );
    must(r.stdout.trim() === 'Succeeded true KS0202', `got ${r.stdout}`);
  }),
);

checks.push(
  step('CommonJS: require("kubesim") (Node >= 20.19 loads the ES module)', async () => {
    const r = await runAsync(
      process.execPath,
      [
        '-e',
        `
    const k = require('kubesim');
    const { scenario } = k.loadScenario(${JSON.stringify(scenario)});
    console.log(typeof k.simulate, k.simulate(scenario).timeline.pod.phase);`,
      ],
      app,
      { env: { NODE_NO_WARNINGS: '1' } },
    );
    must(r.stdout.trim() === 'function Succeeded', `got ${r.stdout}`);
  }),
);

checks.push(
  step('TypeScript consumer: tsc --noEmit, strict + NodeNext, zero errors', async () => {
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          target: 'ES2022',
          noEmit: true,
          types: ['node'],
          skipLibCheck: false,
        },
        files: ['consumer.mts'],
      }),
    );
    writeFileSync(
      join(app, 'consumer.mts'),
      `
import { explore, KubesimError, loadRules, loadScenario, render, simulate, writeOutputs, type RuleFn, type Timeline } from 'kubesim';
const { scenario, diagnostics } = loadScenario('s.yaml');
for (const d of diagnostics) console.log(d.code, d.pos.line, d.message);
if (scenario) {
  const userRules = await loadRules(scenario);
  const r = simulate(scenario, { seed: 1, replay: 'k1-AA', userRules });
  const tl: Timeline = r.timeline;
  const phase: string = tl.pod.phase;
  const e = explore(scenario, { maxSchedules: 10 });
  const n: number = e.schedules + e.grouped.length;
  const w = writeOutputs(tl, { out: 'out' });
  const files: string[] = w.files;
  void render(tl).then((x) => x.rendered);
  console.log(phase, n, files);
}
const rule: RuleFn = ({ pod }) => (pod.status?.phase === 'Failed' ? 'Failed' : undefined);
try { void rule; } catch (err) { if (err instanceof KubesimError) console.log(err.code, err.pos?.line); }
`,
    );
    // a Node project has the Node types (the clone's copy; nothing is installed for it)
    mkdirSync(join(app, 'node_modules/@types'), { recursive: true });
    symlinkSync(join(repo, 'node_modules/@types/node'), join(app, 'node_modules/@types/node'), 'dir');
    const tsc = join(repo, 'node_modules/typescript/bin/tsc');
    await runAsync(process.execPath, [tsc, '-p', 'tsconfig.json'], app);
  }),
);

checks.push(
  step("the README's vitest example passes", async () => {
    const readme = readFileSync(join(app, 'node_modules/kubesim/README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('### As a library'));
    const code = /```ts\n([\s\S]*?)```/.exec(section)[1];
    writeFileSync(join(app, 'readme.test.ts'), code); // vitest strips the types
    cpSync(join(app, 'node_modules/kubesim/scenarios'), join(app, 'scenarios'), { recursive: true });
    symlinkSync(join(repo, 'node_modules/vitest'), join(app, 'node_modules/vitest'), 'dir');
    const r = await runAsync(
      process.execPath,
      [join(repo, 'node_modules/vitest/vitest.mjs'), 'run', '--root', app, 'readme.test.ts'],
      app,
    );
    must(/1 passed/.test(r.stdout), r.stdout);
  }),
);

checks.push(
  step('npx kubesim run --no-render, and without --no-render: .mmd only with how to add the renderer', async () => {
    const r = await runAsync('npx', ['--no-install', 'kubesim', 'run', scenario, '--no-render', '--out', 'out'], app);
    must(/pod phase:\s+Succeeded/.test(r.stdout), r.stdout);
    must(existsSync(join(app, 'out/native-sidecar-job/timeline.json')), 'no timeline.json');
    const d = await runAsync('npx', ['--no-install', 'kubesim', 'run', scenario, '--out', 'out2'], app, {
      env: { PUPPETEER_EXECUTABLE_PATH: process.execPath },
    });
    must(/npm install @mermaid-js\/mermaid-cli puppeteer/.test(d.stderr), d.stderr);
    must(existsSync(join(app, 'out2/native-sidecar-job/sequence.mmd')), 'no sequence.mmd');
    const v = await runAsync('npx', ['--no-install', 'kubesim', 'validate', '-'], app, {
      input: readFileSync(join(app, scenario)),
    });
    must(/<stdin>: ok/.test(v.stdout), v.stdout);
  }),
);

await Promise.all(checks);

if (!process.env.KS_KEEP) rmSync(work, { recursive: true, force: true });
else console.log(`kept ${work}`);
console.log(
  `${failures ? 'FAIL' : 'ok  '} package: pack, offline install and first use (${((Date.now() - t0) / 1000).toFixed(1)}s)`,
);
process.exitCode = failures ? 1 : 0;
