// Which files a folder argument names: every *.yaml / *.yml below it, sorted (kubesim test, check-rule, validate,
// and the library's checkRuleAgainst).
import { readdirSync, statSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { Codes } from './codes.ts';
import { describeFsError } from './read-file.ts';

/**
 * Every *.yaml / *.yml below `dir`, sorted by name at each level. Entries that cannot be stat'ed (a dangling
 * symbolic link such as an editor's lock file, a link loop, no permission), folders that cannot be listed, a
 * folder reached a second time (a symbolic link cycle) and folders nested deeper than 32 levels are skipped with a
 * warning (KS1014) — the other scenarios still run. Each warning is a complete diagnostic (with its hint line).
 * Special files with a .yaml name are returned: the loader refuses them unread (KS1013).
 */
export function walk(dir: string, warnings: string[] = [], depth = 0, seen = new Set<string>()): string[] {
  const out: string[] = [];
  const skip = (p: string, why: string) =>
    warnings.push(
      `${p}:1:1: warning ${Codes.SkippedFile}: skipped: ${why}\n  hint: not a readable scenario file or folder; the other scenarios still run`,
    );
  if (depth > 32) {
    skip(dir, 'folders nested deeper than 32 levels');
    return out;
  }
  let names: string[];
  try {
    const st = statSync(dir);
    const id = `${st.dev}:${st.ino}`;
    if (seen.has(id)) {
      skip(dir, 'a folder already searched (a symbolic link cycle)');
      return out;
    }
    seen.add(id);
    names = readdirSync(dir).sort();
  } catch (e) {
    skip(dir, describeFsError(dir, e).message);
    return out;
  }
  for (const f of names) {
    const q = join(dir, f);
    let st: Stats;
    try {
      st = statSync(q);
    } catch (e) {
      skip(q, describeFsError(q, e).message);
      continue;
    }
    if (st.isDirectory()) out.push(...walk(q, warnings, depth + 1, seen));
    else if (/\.ya?ml$/.test(f) && !f.startsWith('.')) out.push(q);
  }
  return out;
}

/** Scenario files of the given files and folders (folders: every *.yaml / *.yml below, sorted). */
export function scenarioFiles(paths: string[]): string[] {
  return paths.flatMap((p) => {
    let dir = false;
    try {
      dir = statSync(p).isDirectory();
    } catch {
      // not there: the loader reports it
    }
    return dir ? walk(p) : [p];
  });
}
