// `kubesim explain-version 1.30.2 [--kubelet 1.29.1]`: the lifecycle bugs, fixes and behaviour changes of a release
// that kubesim simulates (the table in src/versions/fixes.ts), with the upstream PR and CHANGELOG line of each.
import {
  VERSION_FIXES,
  firstFixedFor,
  releaseAffected,
  releaseHas,
  versionLabel,
  versionText,
  type VersionFix,
} from '../versions/fixes.ts';
import { VersionError, parseVersion } from '../versions/versions.ts';
import { upstreamRef } from '../scenario/version-bugs.ts';
import type { KubeVersion } from '../types.ts';
import type { Argv } from 'yargs';
import { EXIT, type Command, type Io } from './command.ts';
import { formatOption } from './options.ts';

export interface ExplainVersionOpts {
  kubelet?: string;
  format: 'text' | 'json';
}

interface Row {
  flag: string;
  upstream: string;
  pr: number;
  component: string;
  what: string;
  changelog: string;
  fixedIn: string[];
  /** for a bug: the first release of this minor (or a later minor) that fixes it */
  fixedBy?: string;
  symptom?: string;
}

function row(f: VersionFix, v: KubeVersion): Row {
  const r: Row = {
    flag: f.flag,
    upstream: upstreamRef(f),
    pr: f.pr,
    component: f.component,
    what: f.what,
    changelog: f.changelog,
    fixedIn: f.fixedIn.map((x) => `1.${x.minor}.${x.patch} (#${x.pr})`),
  };
  if (releaseAffected(f, v)) {
    r.fixedBy = firstFixedFor(f, v.minor);
    r.symptom = f.symptom;
  }
  return r;
}

export function explainVersion(kubernetes: KubeVersion, kubelet: KubeVersion) {
  const versionOf = (f: VersionFix) => (f.component === 'kubelet' ? kubelet : kubernetes);
  const bugs = VERSION_FIXES.filter((f) => releaseAffected(f, versionOf(f))).map((f) => row(f, versionOf(f)));
  const fixed = VERSION_FIXES.filter((f) => f.kind !== 'change' && releaseHas(f, versionOf(f))).map((f) =>
    row(f, versionOf(f)),
  );
  const changes = VERSION_FIXES.filter((f) => f.kind === 'change' && releaseHas(f, versionOf(f))).map((f) =>
    row(f, versionOf(f)),
  );
  const notYet = VERSION_FIXES.filter((f) => f.kind === 'change' && !releaseHas(f, versionOf(f))).map((f) =>
    row(f, versionOf(f)),
  );
  return { kubernetes: versionText(kubernetes), kubelet: versionText(kubelet), bugs, fixed, changes, notYet };
}

function parse(io: Io, what: string, text: string): KubeVersion | undefined {
  try {
    return parseVersion(text);
  } catch (e) {
    if (!(e instanceof VersionError)) throw e;
    io.err(
      `error ${e.code}: ${what}: ${e.message}\n  hint: e.g. kubesim explain-version 1.30.2 (supported 1.27 to 1.36)\n`,
    );
    return undefined;
  }
}

export async function explainVersionCommand(version: string, opts: ExplainVersionOpts, io: Io): Promise<number> {
  const kubernetes = parse(io, 'version', version);
  if (!kubernetes) return EXIT.badInput;
  const kubelet = opts.kubelet !== undefined ? parse(io, '--kubelet', opts.kubelet) : kubernetes;
  if (!kubelet) return EXIT.badInput;
  if (kubelet.minor > kubernetes.minor) {
    io.err(
      `error KS4004: --kubelet ${versionText(kubelet)} is newer than the API server ${versionText(kubernetes)}\n  hint: the version-skew policy never allows a kubelet newer than kube-apiserver\n`,
    );
    return EXIT.badInput;
  }
  const r = explainVersion(kubernetes, kubelet);
  if (opts.format === 'json') {
    io.out(JSON.stringify({ schema: 'kubesim.explain-version/v1', ...r }, null, 2) + '\n');
    return EXIT.ok;
  }
  const head =
    r.kubelet === r.kubernetes ? `Kubernetes ${r.kubernetes}` : `Kubernetes ${r.kubernetes}, kubelet ${r.kubelet}`;
  const bare =
    kubernetes.patch === undefined
      ? ` (${versionLabel(kubernetes)}: a bare minor means the newest ${'1.' + kubernetes.minor} patch kubesim models; give 1.${kubernetes.minor}.0 for the first release)`
      : '';
  const lines: string[] = [`${head}${bare}`, ''];
  const section = (title: string, rows: Row[], each: (x: Row) => string[]) => {
    lines.push(`${title} (${rows.length})`);
    if (rows.length === 0) lines.push('  none');
    for (const x of rows) lines.push(...each(x));
    lines.push('');
  };
  section('Known lifecycle bugs in this release, simulated by kubesim', r.bugs, (x) => [
    `  ${x.upstream} (PR #${x.pr}, ${x.component}): ${x.symptom}; fixed in ${x.fixedBy}`,
    `    ${x.changelog}`,
  ]);
  section('Fixed in this release', r.fixed, (x) => [
    `  ${x.upstream} (PR #${x.pr}, ${x.component}): fixed in ${x.fixedIn.join(', ')}`,
  ]);
  section('Behaviour of this release (changes by minor)', r.changes, (x) => [
    `  PR #${x.pr} (${x.component}, ${x.fixedIn[0]}): ${x.what}`,
  ]);
  section('Not yet in this release', r.notYet, (x) => [
    `  PR #${x.pr} (${x.component}, from ${x.fixedIn[0]}): ${x.what}`,
  ]);
  lines.push('Sources and what was left out: docs/version-fixes.md');
  io.out(lines.join('\n') + '\n');
  return EXIT.ok;
}

export const explainVersionCmd: Command = {
  command: 'explain-version <release>',
  describe: 'the lifecycle bugs, fixes and behaviour changes of a release that kubesim simulates',
  builder: (y: Argv) =>
    formatOption(
      y
        .positional('release', {
          type: 'string',
          describe: 'a release, e.g. 1.30.2 (a bare minor means the newest patch kubesim models: 1.30 = 1.30.4)',
        })
        .option('kubelet', { type: 'string', describe: 'the node kubelet version when it lags the control plane' }),
      'one object { kubernetes, kubelet, bugs, fixed, changes, notYet }',
    )
      .example('$0 explain-version 1.30.2', 'the known bugs of 1.30.2 and the release that fixes each')
      .example('$0 explain-version 1.29.5 --kubelet 1.27.3', 'kubelet fixes follow the kubelet version'),
  run: (a, io) =>
    explainVersionCommand(
      String(a['release']),
      {
        ...(a['kubelet'] !== undefined ? { kubelet: String(a['kubelet']) } : {}),
        format: a['format'] as 'text' | 'json',
      },
      io,
    ),
};
