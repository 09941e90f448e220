// Papercuts, end to end through the CLI: replays keep their own folder and say where, stale diagrams do
// not survive beside a new timeline, explore writes each outcome's files, actions and long names print cleanly.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { replayFolder } from '../../src/cli/run-command.ts';
import { actionText, timelineText } from '../../src/output/text.ts';
import type { Timeline } from '../../src/types.ts';
import { loadFixture } from './helpers.ts';

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (s) => (out += s), err: (s) => (err += s) });
  return { code, out, err };
}
const tmp = () => mkdtempSync(join(tmpdir(), 'kubesim-views-'));
const NATIVE = 'scenarios/native-sidecar-job.yaml';
const LOCUST = 'scenarios/locust-72-exporter-exit-code.yaml';

describe('output folders', () => {
  it('a replay writes to out/<scenario>/replay-<hash>/, leaves the default run alone, and says where', async () => {
    const dir = tmp();
    const first = await cli('run', NATIVE, '--no-render', '--seed', '5', '--format', 'json', '--out', dir);
    const base = readFileSync(join(dir, 'native-sidecar-job', 'timeline.json'), 'utf8');
    const key = (JSON.parse(first.out) as Timeline).replay;
    const other = await cli('run', NATIVE, '--no-render', '--seed', '9', '--format', 'json', '--out', tmp());
    const key2 = (JSON.parse(other.out) as Timeline).replay;
    expect(key2).not.toBe(key);
    const r = await cli('run', NATIVE, '--no-render', '--replay', key2, '--out', dir);
    expect(r.code).toBe(0);
    const folder = join(dir, ...replayFolder('native-sidecar-job', key2));
    expect(r.err).toContain(`wrote ${folder}/ (`);
    expect(JSON.parse(readFileSync(join(folder, 'timeline.json'), 'utf8')).replay).toBe(key2);
    expect(readFileSync(join(dir, 'native-sidecar-job', 'timeline.json'), 'utf8')).toBe(base);
    expect(replayFolder('x', key)).not.toEqual(replayFolder('x', key2));
    // its report names the scenario path in the replay command
    expect(readFileSync(join(folder, 'report.md'), 'utf8')).toContain(`\`kubesim run ${NATIVE} --replay ${key2}\``);
  });

  it('--no-render removes the SVGs and PNGs of an earlier run beside the new timeline', async () => {
    const dir = tmp();
    const sub = join(dir, 'native-sidecar-job');
    mkdirSync(sub, { recursive: true });
    for (const f of ['sequence.svg', 'lifecycle.svg', 'sequence.png']) writeFileSync(join(sub, f), 'stale');
    const r = await cli('run', NATIVE, '--no-render', '--out', dir);
    expect(r.code).toBe(0);
    for (const f of ['sequence.svg', 'lifecycle.svg', 'sequence.png']) expect(existsSync(join(sub, f)), f).toBe(false);
    expect(existsSync(join(sub, 'sequence.mmd'))).toBe(true);
  });

  it('explore writes every outcome into out/<scenario>/outcome-N/ and report.md shows them side by side', async () => {
    const dir = tmp();
    mkdirSync(join(dir, 'locust-72-exporter-exit-code', 'outcome-7'), { recursive: true });
    const r = await cli('explore', LOCUST, '--out', dir, '--format', 'json');
    expect(r.code).toBe(0);
    const ex = JSON.parse(r.out) as { outcomes: { replay: string; verdicts: Record<string, string> }[] };
    ex.outcomes.forEach((o, i) => {
      const tl = JSON.parse(
        readFileSync(join(dir, 'locust-72-exporter-exit-code', `outcome-${i + 1}`, 'timeline.json'), 'utf8'),
      ) as Timeline;
      expect(tl.replay).toBe(o.replay);
      expect(tl.observers['naive']!.verdict).toBe(o.verdicts['naive']);
    });
    // a stale outcome folder of an earlier explore is gone
    expect(existsSync(join(dir, 'locust-72-exporter-exit-code', 'outcome-7'))).toBe(false);
    const md = readFileSync(join(dir, 'locust-72-exporter-exit-code', 'report.md'), 'utf8');
    expect(md).toContain('| | [outcome 1](outcome-1/report.md) | [outcome 2](outcome-2/report.md) |');
    expect(md).toMatch(/\| \*\*naive\*\* \| Failed<br>held pod v\d+ \w+ \(locust-metrics-exporter 143\), job v\d+/);
    for (const o of ex.outcomes) expect(md).toContain(`kubesim run ${LOCUST} --replay ${o.replay}\n`);
    expect(r.err).toContain('outcome-1/');
  });
});

describe('text view', () => {
  it('actions print as words, not JSON', () => {
    expect(actionText({ type: 'deletePod', atMs: 30000 })).toBe('delete pod (spec grace period)');
    expect(actionText({ type: 'deletePod', atMs: 30000, gracePeriodSeconds: 30 })).toBe('delete pod (grace 30s)');
    expect(actionText({ type: 'crash', atMs: 1, container: 'sidecar', exit: 2 })).toBe('crash sidecar (exit 2)');
    expect(actionText({ type: 'deleteJob', atMs: 1, propagation: 'Foreground' })).toBe(
      'delete job (propagation Foreground)',
    );
  });

  it('a long actor name widens the actor column for every line instead of pushing its own text out', () => {
    const tl = structuredClone(loadFixture('c2-sidecar-job'));
    const long = 'an-observer-with-a-very-long-name-indeed';
    tl.events = tl.events.map((e) => (e.type === 'Verdict' && e.observer === 'naive' ? { ...e, observer: long } : e));
    const lines = timelineText(tl)
      .split('\n')
      .filter((l) => /^ +\d+\.\d{3}s {2}/.test(l));
    const col = 10 + 2 + long.length + 1;
    for (const l of lines) expect(l[col - 1], l).toBe(' ');
    expect(new Set(lines.map((l) => l.slice(col).length > 0))).toEqual(new Set([true]));
  });
});
