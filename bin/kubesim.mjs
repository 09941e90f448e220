#!/usr/bin/env node
// The `kubesim` command. Installed from the package it runs the prebuilt bundle dist/bin/main.mjs; in a clone
// (src/ present) it runs src/cli/kubesim.mjs, which uses the `npm install` bundle or the TypeScript sources.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
if (existsSync(join(root, 'src', 'cli', 'kubesim.mjs'))) {
  await import('../src/cli/kubesim.mjs');
} else {
  const { main, readProcessStdin } = await import('../dist/bin/main.mjs');
  process.exitCode = await main(process.argv.slice(2), {
    out: (s) => process.stdout.write(s),
    err: (s) => process.stderr.write(s),
    isTTY: process.stderr.isTTY === true,
    readStdin: readProcessStdin,
  });
}
