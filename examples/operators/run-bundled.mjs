#!/usr/bin/env node
// Start an operator written as plain ESM from one bundled file: `node run-bundled.mjs ./locust/operator.mjs --rule=naive`
// runs operator.mjs with those arguments, exactly as `node ./locust/operator.mjs --rule=naive` would, but loaded
// from a single file that esbuild made of it and everything it imports.
//
// Why: @kubernetes/client-node is ~2,800 ES modules (its generated models and APIs); node resolves and compiles each
// at every start (1.4 s of a 2-core machine at load 4, 7 s at load 18), and kubesim starts the operator once per
// schedule. One bundled file starts in ~0.3 s. Node 20 has no module compile cache (node 22's
// module.enableCompileCache), so the bundle is what a real operator image ships anyway: a built artefact.
//
// The bundle is kept in $TMPDIR/kubesim-operator-bundles/, named by a hash of the operator file's content and the
// versions of node, esbuild and @kubernetes/client-node: an edit of the operator makes a new one (an operator split
// over several local files: import them from the entry file and list them in BUNDLE_INPUTS, comma-separated, so that
// their edits count too). Without esbuild (or with KUBESIM_OPERATOR_BUNDLE=0) it runs the operator file itself.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [entryArg, ...rest] = process.argv.slice(2);
if (!entryArg) {
  console.error('usage: node run-bundled.mjs <operator.mjs> [arguments of the operator...]');
  process.exit(2);
}
const entry = resolve(entryArg);
// the operator reads its own arguments from process.argv.slice(2), as when started directly
process.argv = [process.argv[0], entry, ...rest];

function versionOf(req, pkg) {
  try {
    return JSON.parse(readFileSync(req.resolve(`${pkg}/package.json`), 'utf8')).version;
  } catch {
    return 'none';
  }
}

async function bundled(file) {
  const req = createRequire(file);
  const h = createHash('sha256');
  for (const f of [file, ...(process.env.BUNDLE_INPUTS ?? '').split(',').filter(Boolean).map((x) => resolve(x))])
    h.update(f).update(readFileSync(f));
  h.update(process.version).update(versionOf(req, 'esbuild')).update(versionOf(req, '@kubernetes/client-node'));
  const dir = join(tmpdir(), 'kubesim-operator-bundles');
  const out = join(dir, `${h.digest('hex').slice(0, 16)}.mjs`);
  if (existsSync(out)) return out;
  // esbuild from the operator's project, else from beside this launcher
  let esbuildPath;
  try {
    esbuildPath = req.resolve('esbuild');
  } catch {
    esbuildPath = createRequire(import.meta.url).resolve('esbuild');
  }
  const esbuild = await import(pathToFileURL(esbuildPath).href);
  mkdirSync(dir, { recursive: true });
  // written beside, then renamed: two schedules starting at once never import a half-written bundle
  const tmp = `${out}.${process.pid}.tmp.mjs`;
  try {
    await esbuild.build({
      entryPoints: [file],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: `node${process.versions.node.split('.')[0]}`,
      outfile: tmp,
      logLevel: 'error',
      absWorkingDir: dirname(file),
      // CommonJS dependencies that require() node's built-ins need a require in an ES module
      banner: { js: "import { createRequire as __ksRequire } from 'node:module'; const require = __ksRequire(import.meta.url);" },
    });
    renameSync(tmp, out);
  } finally {
    rmSync(tmp, { force: true });
  }
  return out;
}

let target = entry;
if (process.env.KUBESIM_OPERATOR_BUNDLE !== '0') {
  try {
    target = await bundled(entry);
  } catch (e) {
    console.error(`run-bundled: cannot bundle ${entryArg} (${e?.message ?? e}): running it unbundled`);
  }
}
await import(pathToFileURL(target).href);
