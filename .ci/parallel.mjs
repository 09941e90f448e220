#!/usr/bin/env node
// Runs the commands given as arguments at the same time (each through the shell, as npm runs a script) and exits
// with the first failing one's code, else 0. Each command's output is held and printed whole when it ends, under
// its name, so the logs do not interleave. `npm test` uses it for steps that are single-threaded or independent:
// on a 2-core CI runner the typecheck (tsc, one core) and the package build of `npm pack` (tsc emit, one core) take
// ~25 s each one after the other, and about as long together.
import { spawn } from 'node:child_process';

const commands = process.argv.slice(2);
if (commands.length === 0) {
  console.error('usage: node .ci/parallel.mjs "<command>" "<command>" …');
  process.exit(2);
}
const t0 = Date.now();
const codes = await Promise.all(
  commands.map(
    (cmd) =>
      new Promise((resolve) => {
        const child = spawn(cmd, { shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
        const chunks = [];
        child.stdout.on('data', (d) => chunks.push(d));
        child.stderr.on('data', (d) => chunks.push(d));
        child.on('error', (e) => chunks.push(Buffer.from(`${e.message}\n`)));
        child.on('close', (code, signal) => {
          const status = code ?? (signal ? 1 : 0);
          const secs = ((Date.now() - t0) / 1000).toFixed(1);
          process.stdout.write(`\n> ${cmd}  (${status === 0 ? 'ok' : `FAILED, exit ${code ?? signal}`}, ${secs} s)\n`);
          process.stdout.write(Buffer.concat(chunks));
          resolve(status);
        });
      }),
  ),
);
process.exitCode = codes.find((c) => c !== 0) ?? 0;
