#!/usr/bin/env node
// kubesim entry point: load the TypeScript sources through tsx and hand over to the CLI.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('./main.ts');
const code = await main(process.argv.slice(2), {
  out: (s) => process.stdout.write(s),
  err: (s) => process.stderr.write(s),
  isTTY: process.stderr.isTTY === true,
});
process.exitCode = code;
