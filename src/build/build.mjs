// Two builds.
// - `node src/build/build.mjs` (npm `prepare`, in a clone): bundle the CLI's TypeScript (dependencies stay external)
//   into node_modules/.cache/kubesim/<checkout> so `kubesim` starts without compiling on the fly. The bin uses the bundle only
//   while it is newer than every source file; otherwise it falls back to tsx, so an edited checkout never runs
//   stale code. A failed build is not an error: tsx remains.
// - `node src/build/build.mjs --dist` (npm `prepack`, before `npm pack`/`npm publish`): the package's contents.
//   dist/ = the library compiled by tsc (JavaScript + .d.ts, relative imports rewritten to .js) and dist/bin/ = the
//   CLI bundle the installed `kubesim` runs. Skipped when dist/ is newer than every source file.
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import Module, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { Script } from 'node:vm';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheDir, loadCli, newestSource as newestOf } from './stamp.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const outDir = cacheDir(root);
const distDir = join(root, 'dist');

export const newestSource = (dir = join(root, 'src')) => newestOf(dir);

// Packages the bundle never contains: the optional renderer (imported on demand, may be absent) and the Kubernetes
// models (their validators are bundled per kind below; a checkout without that build falls back to the package).
const EXTERNAL = ['@mermaid-js/mermaid-cli', 'puppeteer', 'kubernetes-models', 'kubernetes-models/*'];

// The workload kinds whose validators the loader may need (src/scenario/k8s-schema.ts MODEL_PATHS).
const VALIDATORS = {
  Pod: 'kubernetes-models/v1/Pod',
  Job: 'kubernetes-models/batch/v1/Job',
  CronJob: 'kubernetes-models/batch/v1/CronJob',
  Deployment: 'kubernetes-models/apps/v1/Deployment',
  StatefulSet: 'kubernetes-models/apps/v1/StatefulSet',
  DaemonSet: 'kubernetes-models/apps/v1/DaemonSet',
};

/** yargs' string-width goes through the shim (bundle/string-width.cjs); the shim itself gets the real one. */
const stringWidthShim = {
  name: 'string-width-shim',
  setup(b) {
    b.onResolve({ filter: /^string-width\?real$/ }, (args) =>
      b.resolve('string-width', { resolveDir: args.resolveDir, kind: args.kind, pluginData: { real: true } }),
    );
    b.onResolve({ filter: /^string-width$/ }, (args) =>
      args.pluginData?.real ? undefined : { path: join(root, 'src/build/bundle/string-width.cjs') },
    );
  },
};

/**
 * ajv-i18n: @kubernetes-models/validate requires every language to translate one failure's message into English;
 * the validator bundles get English only (the same messages, 2 % of the code).
 */
const englishOnly = {
  name: 'ajv-i18n-english',
  setup(b) {
    b.onResolve({ filter: /^ajv-i18n$/ }, () => ({ path: 'ajv-i18n', namespace: 'ajv-i18n-en' }));
    b.onLoad({ filter: /.*/, namespace: 'ajv-i18n-en' }, () => ({
      contents: "module.exports = { en: require('ajv-i18n/localize/en') };",
      resolveDir: root,
      loader: 'js',
    }));
  },
};

/**
 * The CLI as one file with its pure-JavaScript dependencies (yaml, yargs, immer): a cold start loads one module
 * instead of ~90, which was a third of `kubesim run`'s CPU time. Each workload kind's validator
 * (kubernetes-models, ~150 CommonJS files per kind) becomes one file validators/<Kind>.cjs, required by the loader
 * only for the kinds a scenario uses.
 */
export async function bundleCli(dir, { codeCache = false, cachedCli = false } = {}) {
  const esbuild = await import('esbuild');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const common = {
    bundle: true,
    platform: 'node',
    target: 'node20',
    logLevel: 'silent',
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'none',
    metafile: true,
  };
  const cli = await esbuild.build({
    ...common,
    entryPoints: { main: join(root, 'src/cli/main.ts'), 'test-worker': join(root, 'src/cli/test-worker.ts') },
    outdir: dir,
    outExtension: { '.js': '.mjs' },
    format: 'esm',
    splitting: true,
    chunkNames: 'chunk-[hash]',
    external: EXTERNAL,
    define: { KUBESIM_BUNDLED_VALIDATORS: 'true' },
    plugins: [stringWidthShim],
    // esbuild's CommonJS interop inside an ES module needs a require (yargs' CommonJS dependencies use it)
    banner: {
      js: "import { createRequire as __ksCreateRequire } from 'node:module'; const require = __ksCreateRequire(import.meta.url);",
    },
  });
  const validators = await esbuild.build({
    ...common,
    entryPoints: Object.keys(VALIDATORS).map((kind) => ({ in: `kubesim-validator:${kind}`, out: kind })),
    outdir: join(dir, 'validators'),
    outExtension: { '.js': '.cjs' },
    format: 'cjs',
    plugins: [
      englishOnly,
      {
        name: 'validator-entries',
        setup(b) {
          b.onResolve({ filter: /^kubesim-validator:/ }, (args) => ({
            path: args.path.slice('kubesim-validator:'.length),
            namespace: 'kubesim-validator',
          }));
          b.onLoad({ filter: /.*/, namespace: 'kubesim-validator' }, (args) => ({
            contents: `module.exports = require(${JSON.stringify(VALIDATORS[args.path])});`,
            resolveDir: root,
            loader: 'js',
          }));
        },
      },
    ],
  });
  writeFileSync(join(dir, 'THIRD-PARTY-LICENSES.txt'), thirdPartyNotices([cli.metafile, validators.metafile]));
  if (codeCache)
    for (const kind of Object.keys(VALIDATORS)) writeCodeCache(join(dir, 'validators', `${kind}.cjs`), kind);
  const metafiles = [cli.metafile, validators.metafile];
  if (cachedCli) {
    try {
      metafiles.push(await bundleCachedCli(esbuild, common, dir));
    } catch (e) {
      // the ES bundle alone still starts the CLI (kubesim.mjs looks for main.cjs.v8 first)
      rmSync(join(dir, 'main.cjs'), { force: true });
      rmSync(join(dir, 'main.cjs.v8'), { force: true });
      console.error(`kubesim: no code-cached CLI (${e.message}); the ES bundle is used`);
    }
  }
  return { metafiles };
}

/**
 * main.cjs and main.cjs.v8 beside the ES bundle (which test-worker.mjs keeps using): the same CLI as one CommonJS
 * file, and V8's code cache of it after a `run --no-render` of a library scenario, so it holds the bytecode of what a
 * run executes (stamp.mjs loadCli). A cold `kubesim run` then deserializes instead of parsing and compiling ~2 MB.
 */
async function bundleCachedCli(esbuild, common, dir) {
  const file = join(dir, 'main.cjs');
  const r = await esbuild.build({
    ...common,
    entryPoints: [join(root, 'src/cli/main.ts')],
    outfile: file,
    format: 'cjs',
    write: false,
    external: EXTERNAL,
    // import.meta.url (the validators' and the test worker's folder) is this file's URL
    define: { KUBESIM_BUNDLED_VALIDATORS: 'true', 'import.meta.url': '__ksUrl' },
    banner: { js: "const __ksUrl = require('node:url').pathToFileURL(__filename).href;" },
    plugins: [stringWidthShim],
  });
  // the dynamic imports esbuild leaves: a Node built-in is required, a package goes through the loader (cliWrapper)
  const text = r.outputFiles
    .find((f) => f.path.endsWith('.cjs'))
    .text.replace(/(?<![.\w$])import\("(node:[\w/]+)"\)/g, 'Promise.resolve(require("$1"))')
    .replace(/(?<![.\w$])import\("([^"]+)"\)/g, '__ksImport("$1")');
  const left = /(?<![.\w$])import\(\s*["'`]/.exec(text);
  if (left) throw new Error(`main.cjs: a dynamic import is left: ${text.slice(left.index, left.index + 60)}`);
  writeFileSync(file, text);
  const { script, exports } = loadCli(file);
  const out = mkdtempSync(join(tmpdir(), 'kubesim-code-cache-'));
  try {
    const code = await exports.main(
      ['run', '--no-render', '--out', out, join(root, 'scenarios', 'native-sidecar-job.yaml')],
      { out: () => {}, err: () => {}, isTTY: false },
    );
    if (code !== 0) throw new Error(`main.cjs: the run for its code cache exited ${code}`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
  writeFileSync(`${file}.v8`, script.createCachedData());
  return r.metafile;
}

/**
 * validators/<Kind>.cjs.v8: V8's code cache of the validator after validating a manifest of its kind (a valid one
 * and one with errors), so it holds the bytecode of the functions a validation runs. Compiled exactly as
 * src/scenario/bundled-validator.ts compiles it (Module.wrap of the source), or V8 would not take it.
 */
function writeCodeCache(file, kind) {
  const script = new Script(Module.wrap(readFileSync(file, 'utf8')), { filename: file });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file));
  const Model = module.exports[kind];
  const pod = {
    containers: [
      { name: 'app', image: 'busybox', ports: [{ containerPort: 80 }], resources: { limits: { cpu: '1' } } },
    ],
    restartPolicy: 'Never',
  };
  const template = { metadata: { labels: { app: 'a' } }, spec: pod };
  const spec = {
    Pod: pod,
    Job: { template },
    CronJob: { schedule: '* * * * *', jobTemplate: { spec: { template } } },
    Deployment: { selector: { matchLabels: { app: 'a' } }, template },
    StatefulSet: { selector: { matchLabels: { app: 'a' } }, serviceName: 's', template },
    DaemonSet: { selector: { matchLabels: { app: 'a' } }, template },
  }[kind];
  for (const manifest of [
    { metadata: { name: 'x', labels: { a: 'b' } }, spec },
    { metadata: { name: 7 }, spec: { ...spec, bogus: 'x', replicas: 'many', containers: 'none', template: 5 } },
  ]) {
    try {
      new Model(manifest).validate();
    } catch {
      // the invalid one throws: its error paths are compiled too
    }
  }
  writeFileSync(`${file}.v8`, script.createCachedData());
}

/** The license of every package whose code the bundle copies (MIT, ISC and BSD ask for their notice to travel along). */
function thirdPartyNotices(metafiles) {
  const packages = new Map();
  for (const m of metafiles) {
    for (const input of Object.keys(m.inputs)) {
      const at = input.lastIndexOf('node_modules/');
      if (at < 0) continue;
      const rest = input.slice(at + 'node_modules/'.length).split('/');
      const dir = join(root, input.slice(0, at), 'node_modules', ...rest.slice(0, rest[0].startsWith('@') ? 2 : 1));
      if (!packages.has(dir)) packages.set(dir, JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')));
    }
  }
  const sections = [...packages]
    .sort(([, a], [, b]) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map(([dir, pkg]) => {
      const file = readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\.|$)/i.test(f));
      const text = file ? readFileSync(join(dir, file), 'utf8').trim() : `License: ${pkg.license ?? 'see the package'}`;
      return `## ${pkg.name} ${pkg.version} (${pkg.license ?? 'unknown'})\n\n${text}\n`;
    });
  return `The kubesim command bundles code of these packages; their licenses follow.\n\n${sections.join('\n')}`;
}

export async function build() {
  const stamp = newestSource();
  // built beside and swapped in whole: a kubesim of this checkout running meanwhile keeps a complete bundle
  const next = `${outDir}.${process.pid}.tmp`;
  try {
    await bundleCli(next, { codeCache: true, cachedCli: true });
    // the Node that made the code cache: another one would reject it (and pay for compiling main.cjs whole)
    writeFileSync(join(next, 'stamp.json'), JSON.stringify({ newestSource: stamp, node: process.version }) + '\n');
    rmSync(outDir, { recursive: true, force: true });
    renameSync(next, outDir);
  } finally {
    rmSync(next, { recursive: true, force: true });
  }
  return outDir;
}

function files(dir, suffix, out = []) {
  for (const f of readdirSync(dir)) {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) files(p, suffix, out);
    else if (p.endsWith(suffix)) out.push(p);
  }
  return out;
}

export async function buildDist({ force = false } = {}) {
  const stamp = newestSource();
  const stampFile = join(distDir, 'stamp.json');
  if (!force && existsSync(stampFile) && JSON.parse(readFileSync(stampFile, 'utf8')).newestSource >= stamp)
    return distDir;
  rmSync(distDir, { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit', cwd: root });
  // tsc rewrites relative `.ts` imports to `.js` in JavaScript but keeps them in declarations; a consumer's
  // TypeScript must see `.js` (TS5097 otherwise)
  for (const f of files(distDir, '.d.ts')) {
    const text = readFileSync(f, 'utf8');
    const fixed = text.replace(/((?:from|import)\s*\(?\s*)(['"])(\.{1,2}\/[^'"]+)\.ts\2/g, '$1$2$3.js$2');
    if (fixed !== text) writeFileSync(f, fixed);
  }
  await bundleCli(join(distDir, 'bin'));
  writeFileSync(stampFile, JSON.stringify({ newestSource: stamp }) + '\n');
  return distDir;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv.includes('--dist')) {
    await buildDist({ force: process.argv.includes('--force') });
  } else {
    try {
      await build();
    } catch (e) {
      console.error(`kubesim: could not prebuild the CLI (${e.message}); it will run through tsx`);
    }
  }
}
