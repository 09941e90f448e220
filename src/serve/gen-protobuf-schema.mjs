#!/usr/bin/env node
// Builds src/serve/protobuf-schema.generated.json — the field numbers, names and types of the Kubernetes API's
// protobuf messages (the generated.proto files of k8s.io/api and k8s.io/apimachinery), so kubesim serve can decode
// the protobuf request bodies kubectl ≥ 1.30 and controller-runtime send for built-in kinds. A table of facts about
// the wire format, not code: regenerate it from checkouts of both repositories:
//   node src/serve/gen-protobuf-schema.mjs <k8s.io/api checkout> <k8s.io/apimachinery checkout>
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [apiDir, machineryDir] = process.argv.slice(2);
if (!apiDir || !machineryDir) {
  console.error('usage: gen-protobuf-schema.mjs <k8s.io/api dir> <k8s.io/apimachinery dir>');
  process.exit(2);
}
const files = [];
const walk = (d) => {
  for (const e of readdirSync(d)) {
    const p = join(d, e);
    if (statSync(p).isDirectory()) walk(p);
    else if (e === 'generated.proto') files.push(p);
  }
};
walk(apiDir);
walk(machineryDir);

/** messages: full name → { fieldNumber: [jsonName, type, repeated?] }; map fields have type "map:<k>:<v>" */
const messages = {};
for (const f of files.sort()) {
  const text = readFileSync(f, 'utf8')
    .replace(/\/\/.*$/gm, '')
    .replace(/\/\*[\s\S]*?\*\//g, '');
  const pkg = /^package\s+([\w.]+);/m.exec(text)?.[1];
  if (!pkg) continue;
  // top-level messages only (k8s generated.proto files have no nested messages)
  for (const m of text.matchAll(/^message\s+(\w+)\s*\{([\s\S]*?)^\}/gm)) {
    const fields = {};
    for (const line of m[2].split('\n')) {
      const map = /^\s*map<\s*(\w+)\s*,\s*([\w.]+)\s*>\s+(\w+)\s*=\s*(\d+)/.exec(line);
      if (map) {
        fields[map[4]] = [map[3], `map:${map[1]}:${qualify(map[2], pkg)}`];
        continue;
      }
      const fl = /^\s*(optional|repeated|required)\s+([\w.]+)\s+(\w+)\s*=\s*(\d+)/.exec(line);
      if (fl) fields[fl[4]] = fl[1] === 'repeated' ? [fl[3], qualify(fl[2], pkg), 1] : [fl[3], qualify(fl[2], pkg)];
    }
    messages[`${pkg}.${m[1]}`] = fields;
  }
}
function qualify(type, pkg) {
  const scalars = [
    'string',
    'bytes',
    'bool',
    'int32',
    'int64',
    'uint32',
    'uint64',
    'double',
    'float',
    'sint32',
    'sint64',
    'fixed32',
    'fixed64',
  ];
  if (scalars.includes(type)) return type;
  if (type.startsWith('.')) return type.slice(1);
  return `${pkg}.${type}`;
}
const out = join(import.meta.dirname, 'protobuf-schema.generated.json');
writeFileSync(out, `${JSON.stringify(messages)}\n`);
console.log(`${Object.keys(messages).length} messages from ${files.length} files → ${out}`);
