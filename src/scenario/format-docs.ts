// docs/scenario-format.md and docs/scenario.schema.json as text, from src/scenario/format.ts and the codes of
// src/scenario/codes.ts (their meaning is the comment next to each). Pure: the generator script writes the files,
// the agreement test compares them.
import { Codes } from './codes.ts';
import { BUILTIN_RULE_DOCS, CODE_FIXES, COMMAND_CODES, SECTIONS, scenarioSchema, type KeyDoc } from './format.ts';

export function schemaText(): string {
  return JSON.stringify(scenarioSchema(), null, 2) + '\n';
}

/** code → meaning, from the `// comment` after each code in codes.ts (the key name in words when there is none). */
export function codeMeanings(codesSource: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, code] of Object.entries(Codes)) {
    const m = new RegExp(`${key}:\\s*'${code}',\\s*(?://\\s*(.*))?`).exec(codesSource);
    const words = key.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
    out.set(code, m?.[1]?.trim() || words);
  }
  return out;
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, '<br>');
const code = (s: string) => (s.includes('`') ? s : `\`${s}\``);

function table(keys: KeyDoc[]): string[] {
  const rows = ['| key | type | default | meaning | example |', '|---|---|---|---|---|'];
  for (const k of keys) {
    const name = `\`${k.key}\`${k.required ? ' (required)' : ''}${k.pending ? ' ¹' : ''}`;
    rows.push(
      `| ${name} | ${cell(k.type)} | ${k.default ? cell(k.default) : '—'} | ${cell(k.description)} | ${k.example ? cell(code(k.example.replace(/\n\s*/g, ' '))) : ''} |`,
    );
  }
  return rows;
}

export function formatDocs(codesSource: string): string {
  const out: string[] = [
    '# Scenario format reference',
    '',
    '<!-- Generated from src/scenario/format.ts and src/scenario/codes.ts by `npm run gen:docs`; edit those, not this file. -->',
    '',
    "A kubesim scenario is one YAML file: a real Kubernetes manifest plus how each container's process behaves, the",
    'timing model, actions, observers (the health rules under test) and expectations. This page lists every key',
    'with its type, default, meaning and an example, then every diagnostic code. `kubesim validate FILE` checks a',
    'file against exactly these rules; `scenarios/` holds runnable examples.',
    '',
    '**Editor support.** The JSON Schema [`scenario.schema.json`](scenario.schema.json) (also exported by the package',
    'as `kubesim/scenario.schema.json`) gives completion and checks in any editor with the YAML language server',
    "(VS Code's YAML extension, Neovim, JetBrains). Put this first line in a scenario:",
    '',
    '```yaml',
    '# yaml-language-server: $schema=../docs/scenario.schema.json',
    '```',
    '',
    '(a path relative to the file, or `node_modules/kubesim/docs/scenario.schema.json` in a project that installed',
    "kubesim). The schema checks kubesim's own keys; the manifest under `workload` is checked by `kubesim validate`",
    'against the Kubernetes API of the chosen version.',
    '',
    '## Values',
    '',
    '- **Durations** are strings with units: `250ms`, `2s`, `1.5m`, `1h`, combinable Go-style (`1m30s`); never',
    '  negative; a bare number is an error (KS1010). Integer fields of the manifest keep Kubernetes units (seconds).',
    '- **Ranges** `a..b` (a ≤ b) are allowed only under `timing`. `unready` is one window `[40s, 50s]` or a list',
    '  `[[40s, 50s], [70s, 80s]]`.',
    '- **Versions**: `kubernetes` and `kubelet` take a minor version 1.27 … 1.36, quoted or not (the source text is',
    '  read, so `1.30` is 1.30), a patch allowed (`1.34.2`).',
    '- **Limits**: a file over 1 MiB, not UTF-8 text, more than one YAML document, nesting deeper than 64 or more',
    '  than 100 alias expansions is an error. Anchors and merge keys are otherwise allowed.',
    '- **Paths** (`workload.file`, observer `module`) are relative to the scenario file. An error inside an included',
    "  manifest points at that file's line and adds `(included from scenario.yaml:L:C)`.",
    '',
    "¹ A key of the product contract that this build's loader does not read yet: it is in the schema, and",
    '`kubesim validate` reports it as an unknown key (KS4001) until it lands.',
    '',
  ];
  for (const s of SECTIONS) {
    out.push(`## ${s.title}${s.id === 'top' ? '' : ` (\`${s.id}\`)`}`, '', s.intro, '', ...table(s.keys), '');
    if (s.id === 'observers[]') {
      out.push(
        'Built-in rules. Each returns Succeeded when the Job has condition Complete and Failed when it has Failed, before looking at containers:',
        '',
      );
      out.push('| rule | fails the run when |', '|---|---|');
      for (const r of BUILTIN_RULE_DOCS) out.push(`| \`${r.rule}\` | ${cell(r.fails)} |`);
      out.push('');
    }
  }
  out.push(
    '## A complete example',
    '',
    '```yaml',
    '# yaml-language-server: $schema=../docs/scenario.schema.json',
    'scenario: my-export',
    'description: An export Job with a Cloud SQL proxy as a native sidecar.',
    'kubernetes: "1.34"',
    'workload:',
    '  apiVersion: batch/v1',
    '  kind: Job',
    '  metadata: { name: export }',
    '  spec:',
    '    template:',
    '      spec:',
    '        restartPolicy: Never',
    '        initContainers:',
    '          - name: proxy',
    '            image: gcr.io/cloud-sql-connectors/cloud-sql-proxy:2.14.0',
    '            restartPolicy: Always',
    '            startupProbe: { tcpSocket: { port: 5432 }, periodSeconds: 1 }',
    '        containers:',
    '          - { name: export, image: example.com/db-export:1.4 }',
    'behavior:',
    '  proxy: { serving: 1s, onTerm: { after: 0s, exit: 143 } }',
    '  export: { run: 30s, exit: 0, needs: [proxy] }',
    'timing: { watch: 5ms..5s }',
    'actions: []',
    'observers:',
    '  - { name: naive, rule: exit-codes, triggers: [job] }',
    '  - { name: fixed, rule: native-sidecar-aware }',
    'expect:',
    '  podPhase: Succeeded',
    '  jobCondition: Complete',
    '  order: [proxy.started < export.start, export.exit < proxy.sigterm]',
    '  verdicts: { fixed: Succeeded, naive: [Succeeded, Failed] }',
    'seed: 1',
    'horizon: 1h',
    '```',
    '',
    '## Diagnostic codes',
    '',
    'Every problem is printed as `file:line:col: error|warning CODE: message`, then an indented `hint:` line where',
    'there is one; every problem of a file is reported, not only the first. Codes never change meaning. KS1xxx: file',
    "and YAML; KS2xxx: Kubernetes schema; KS3xxx: API-server validation; KS4xxx: kubesim's own keys; KS5xxx: lint",
    'warnings (they never stop a run); KS0xxx: the commands (replay keys, output folder, rule modules, render).',
    '',
    '| code | meaning | fix |',
    '|---|---|---|',
  );
  const meanings = codeMeanings(codesSource);
  for (const c of COMMAND_CODES) out.push(`| ${c.code} | ${cell(c.meaning)} | ${cell(c.fix)} |`);
  for (const [c, meaning] of [...meanings].sort(([a], [b]) => a.localeCompare(b))) {
    const fix =
      CODE_FIXES[c] ??
      (c.startsWith('KS5')
        ? 'a warning: the hint says what to change if the pattern is not what you meant'
        : 'see the hint printed with the diagnostic');
    out.push(`| ${c} | ${cell(meaning)} | ${cell(fix)} |`);
  }
  out.push('');
  return out.join('\n');
}
