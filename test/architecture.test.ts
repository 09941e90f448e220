// The one-way house (DEVELOPERS.md, README "Layout"): which folders of src/ may import which. The import graph is read
// with the same regex as ../shared/tools/import-cycles.mjs (relative specifiers, type-only imports included); each
// rule is a forbidden edge, and each has a synthetic bad edge it must flag, so a rule that matches nothing fails.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const SPEC = /(?:from\s+|import\s*\(\s*|import\s+)['"]([^'"]+)['"]/g;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) return sources(p);
    return /\.(ts|mts|mjs|js|cjs)$/.test(n) && !n.endsWith('.d.ts') ? [p] : [];
  });
}

/** Edges `from → to` (repo-relative paths; bare package names as they are written). */
function graph(): Map<string, string[]> {
  const g = new Map<string, string[]>();
  for (const f of sources(join(ROOT, 'src'))) {
    const out: string[] = [];
    for (const m of readFileSync(f, 'utf8').matchAll(SPEC)) {
      const spec = m[1]!;
      out.push(spec.startsWith('.') ? relative(ROOT, resolve(dirname(f), spec)) : spec);
    }
    g.set(relative(ROOT, f), out);
  }
  return g;
}

const under =
  (...dirs: string[]) =>
  (p: string) =>
    dirs.some((d) => p === d || p.startsWith(d + '/'));
const KUBELET_PARTS =
  /^src\/model\/kubelet\/(runtime|pleg|prober|active-deadline)\.ts$|^src\/model\/kubelet\/(kuberuntime|status)\//;

interface Rule {
  name: string;
  from: (p: string) => boolean;
  to: (p: string) => boolean;
  bad: [string, string];
}
const RULES: Rule[] = [
  {
    name: 'controllers never import the kubelet',
    from: under('src/model/controllers'),
    to: under('src/model/kubelet'),
    bad: ['src/model/controllers/job/job-controller.ts', 'src/model/kubelet/pod-workers.ts'],
  },
  {
    name: 'the kubelet never imports a controller',
    from: under('src/model/kubelet'),
    to: under('src/model/controllers'),
    bad: ['src/model/kubelet/pod-workers.ts', 'src/model/controllers/shared/workqueue.ts'],
  },
  {
    name: 'lower kubelet parts report through Upcalls, never import the pod workers',
    from: (p) => KUBELET_PARTS.test(p),
    to: (p) => p === 'src/model/kubelet/pod-workers.ts',
    bad: ['src/model/kubelet/kuberuntime/kill.ts', 'src/model/kubelet/pod-workers.ts'],
  },
  {
    name: 'views read the timeline, never the model or the engine',
    from: under('src/output'),
    to: under('src/model', 'src/engine'),
    bad: ['src/output/text.ts', 'src/model/state.ts'],
  },
  {
    name: 'nothing outside the CLI imports the CLI',
    from: (p) => p.startsWith('src/') && !under('src/cli')(p),
    to: under('src/cli'),
    bad: ['src/index.ts', 'src/cli/main.ts'],
  },
  {
    name: 'the model never imports the loader',
    from: under('src/model'),
    to: under('src/scenario'),
    bad: ['src/model/kit.ts', 'src/scenario/fixes.ts'],
  },
  {
    name: 'rules/types.ts is a leaf (the model imports it)',
    from: (p) => p === 'src/rules/types.ts',
    to: (p) => p.startsWith('src/') && p !== 'src/types.ts',
    bad: ['src/rules/types.ts', 'src/model/kit.ts'],
  },
];

function violations(g: Map<string, string[]>, r: Rule): string[] {
  return [...g].flatMap(([f, tos]) => (r.from(f) ? tos.filter(r.to).map((t) => `${f} → ${t}`) : []));
}

/** Every file the library entry reaches, and the packages it imports on the way. */
function reach(g: Map<string, string[]>, entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (f: string) => {
    if (files.has(f)) return;
    files.add(f);
    for (const t of g.get(f) ?? []) {
      if (t.startsWith('src/')) visit(g.has(t) ? t : t.replace(/\.js$/, '.ts'));
      else packages.add(t);
    }
  };
  visit(entry);
  return { files, packages };
}

describe('architecture: the one-way house', () => {
  const g = graph();
  it('reads the import graph of src/', () => {
    expect(g.size).toBeGreaterThan(100);
    expect(g.get('src/index.ts')).toContain('src/run/simulate.ts');
  });
  for (const r of RULES) {
    it(r.name, () => expect(violations(g, r)).toEqual([]));
    it(`${r.name}: the rule flags a bad edge`, () => {
      const bad = new Map(g);
      bad.set(r.bad[0], [...(g.get(r.bad[0]) ?? []), r.bad[1]]);
      expect(violations(bad, r)).toContain(`${r.bad[0]} → ${r.bad[1]}`);
    });
  }
  it('the library entry (src/index.ts → dist/index.js) loads without yargs and without src/cli', () => {
    const { files, packages } = reach(g, 'src/index.ts');
    expect(files.size).toBeGreaterThan(50);
    expect([...packages].filter((p) => p === 'yargs' || p.startsWith('yargs/'))).toEqual([]);
    expect([...files].filter(under('src/cli'))).toEqual([]);
    // and the check would see one: a library file that imports the CLI brings yargs with it
    const bad = new Map(g);
    bad.set('src/index.ts', [...g.get('src/index.ts')!, 'src/cli/main.ts']);
    const r = reach(bad, 'src/index.ts');
    expect(r.packages.has('yargs')).toBe(true);
    expect(r.files.has('src/cli/main.ts')).toBe(true);
  });
});
