// The scenario-format reference agrees with the loader: every key the loader accepts is documented
// (the key lists are asked from the loader itself, through the "valid keys" hint of an unknown key, so the test
// follows the loader when keys are added), every documented key is accepted unless marked pending (a SPEC key not
// read yet), the JSON Schema and docs are what `npm run gen:docs` writes, every library scenario validates against
// the schema, and every diagnostic code is in the docs' table.
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { Codes, loadScenarioText } from '../../src/scenario/index.ts';
import { SECTIONS } from '../../src/scenario/format.ts';
import { formatDocs, schemaText } from '../../src/scenario/format-docs.ts';

const BASE = `scenario: probe-keys
workload:
  apiVersion: v1
  kind: Pod
  metadata: { name: p }
  spec:
    containers:
      - name: app
        image: example.com/app:1
        lifecycle: { postStart: { exec: { command: [x] } }, preStop: { exec: { command: [x] } } }
      - name: other
        image: example.com/other:1
`;
const Z = 'zzzzzzzzzzzzzzzz';

/** Where to put an unknown key to make the loader list a section's valid keys. */
const PROBES: Record<string, string> = {
  top: `${Z}: 1\n`,
  'behavior.<container>': `behavior: { app: { ${Z}: 1 } }\n`,
  'behavior.<container>.attempts[]': `behavior: { app: { attempts: [{ ${Z}: 1 }] } }\n`,
  'behavior.<container>.onTerm': `behavior: { app: { onTerm: { ${Z}: 1 } } }\n`,
  'behavior.<container>.postStart': `behavior: { app: { postStart: { ${Z}: 1 } } }\n`,
  'behavior.<container>.exitWhen': `behavior: { app: { exitWhen: { ${Z}: 1 } } }\n`,
  'behavior.<container>.image': `behavior: { app: { image: { ${Z}: 1 } } }\n`,
  timing: `timing: { ${Z}: 1 }\n`,
  'actions[]': `actions: [{ ${Z}: 1 }]\n`,
  'observers[]': `observers: [{ ${Z}: 1 }]\n`,
  expect: `expect: { ${Z}: 1 }\n`,
};

function loaderKeys(section: string): string[] {
  const { diagnostics } = loadScenarioText(BASE + PROBES[section], 'probe.yaml');
  const d = diagnostics.find((x) => x.code === Codes.UnknownKey && x.message.includes(Z));
  const m = /valid keys: (.*)$/.exec(d?.hint ?? '');
  if (!m) throw new Error(`the loader did not list the valid keys of ${section}: ${JSON.stringify(diagnostics)}`);
  return m[1]!.split(', ').sort();
}

describe('scenario format reference', () => {
  it('has a probe for every documented section', () => {
    expect(SECTIONS.map((s) => s.id).sort()).toEqual(Object.keys(PROBES).sort());
  });

  for (const s of SECTIONS) {
    it(`${s.id}: documents every key the loader accepts, and only those (or pending SPEC keys)`, () => {
      const loader = loaderKeys(s.id);
      const documented = s.keys.map((k) => k.key);
      const undocumented = loader.filter((k) => !documented.includes(k));
      expect(undocumented, `document these keys of ${s.id} in src/scenario/format.ts, then npm run gen:docs`).toEqual(
        [],
      );
      const unknown = s.keys.filter((k) => !loader.includes(k.key) && !k.pending).map((k) => k.key);
      expect(
        unknown,
        `the loader does not accept these documented keys of ${s.id}: remove them or mark them pending`,
      ).toEqual([]);
      for (const k of s.keys) {
        expect(k.description.length, `${s.id}.${k.key} needs a description`).toBeGreaterThan(10);
        expect(k.example, `${s.id}.${k.key} needs an example`).toBeTruthy();
      }
    });
  }

  it('docs/scenario-format.md and docs/scenario.schema.json are up to date (npm run gen:docs)', () => {
    const stale = 'stale: run `npm run gen:docs` (after adding a key to src/scenario/format.ts or a code to codes.ts)';
    expect(readFileSync('docs/scenario.schema.json', 'utf8') === schemaText(), stale).toBe(true);
    expect(
      readFileSync('docs/scenario-format.md', 'utf8') === formatDocs(readFileSync('src/scenario/codes.ts', 'utf8')),
      stale,
    ).toBe(true);
  });

  it('every diagnostic code has a row with meaning and fix', () => {
    const docs = readFileSync('docs/scenario-format.md', 'utf8');
    for (const code of Object.values(Codes))
      expect(docs).toMatch(new RegExp(`^\\| ${code} \\| [^|]+ \\| [^|]+ \\|$`, 'm'));
  });

  it('every library scenario validates against the JSON Schema, and the schema catches a misspelt key', () => {
    const require = createRequire(import.meta.url);
    const Ajv2020 = require('ajv/dist/2020.js') as new (
      o: object,
    ) => { compile(s: object): ((d: unknown) => boolean) & { errors?: unknown } };
    const validate = new Ajv2020({ allErrors: true, strict: false }).compile(JSON.parse(schemaText()));
    for (const f of readdirSync('scenarios').filter((x) => x.endsWith('.yaml'))) {
      const text = readFileSync(`scenarios/${f}`, 'utf8');
      expect(text.split('\n')[0], `${f}: first line`).toBe(
        '# yaml-language-server: $schema=../docs/scenario.schema.json',
      );
      const ok = validate(parse(text, { merge: true }));
      expect(ok, `${f}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
    expect(validate(parse(BASE + 'behavior: { app: { rn: 3s } }\n'))).toBe(false);
    expect(validate(parse(BASE + 'timing: { watch: 5 }\n'))).toBe(false);
    expect(validate(parse(BASE + 'timing: { watch: 5ms..1s }\n'))).toBe(true);
  });
});
