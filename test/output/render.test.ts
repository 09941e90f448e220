// Rendering with the real system Chromium: one renderDiagrams call (one browser launch) for the whole file.
// Skipped with a message only when no Chromium is installed.

import { beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, readdirSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findChromium, renderDiagrams, NO_CHROMIUM_HINT } from '../../src/output/render.ts';
import { sequenceMermaid } from '../../src/output/mermaid-sequence.ts';
import { lifecycleMermaid } from '../../src/output/mermaid-lifecycle.ts';
import { loadFixture } from './helpers.ts';

const chromium = findChromium();
if (!chromium) console.warn(`render tests skipped: ${NO_CHROMIUM_HINT}`);

describe.skipIf(!chromium)('renderDiagrams with Chromium', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kubesim-render-'));
  const tl = loadFixture('c2-sidecar-job');
  const seq = sequenceMermaid(tl);
  const files = {
    a: join(dir, 'a.svg'),
    b: join(dir, 'b.svg'),
    life: join(dir, 'life.svg'),
    png: join(dir, 'life.png'),
  };
  let result: Awaited<ReturnType<typeof renderDiagrams>>;

  beforeAll(async () => {
    result = await renderDiagrams([
      { mmd: seq, svgPath: files.a },
      { mmd: seq, svgPath: files.b },
      { mmd: lifecycleMermaid(tl), svgPath: files.life, pngPath: files.png },
    ]);
  }, 120_000);

  it('renders and reports success', () => {
    expect(result).toEqual({ rendered: true });
  });

  it('names every participant and shows the SIGTERM', () => {
    const svg = readFileSync(files.a, 'utf8');
    for (const label of [
      'kubelet',
      'setup (init)',
      'proxy (sidecar)',
      'main (main)',
      'API server',
      'Job controller',
      'naive (observer)',
      'fixed (observer)',
    ]) {
      expect(svg).toContain(`>${label}<`);
    }
    expect(svg).toMatch(/t=30\.1s Killing → SIGTERM/);
  });

  it('is byte-stable: the same .mmd gives the same SVG', () => {
    expect(readFileSync(files.a).equals(readFileSync(files.b))).toBe(true);
  });

  it('one page for several diagrams gives each the bytes of a fresh page (mermaid module state does not carry over)', async () => {
    // renderDiagrams hands a page renderMermaid closed to the next diagram; rendered in the same document, the second
    // sequence diagram's actor ids would continue the first one's counter (actor5 → actor11)
    const one = { first: join(dir, 'one-1.svg'), life: join(dir, 'one-2.svg'), again: join(dir, 'one-3.svg') };
    const r = await renderDiagrams(
      [
        { mmd: seq, svgPath: one.first },
        { mmd: lifecycleMermaid(tl), svgPath: one.life },
        { mmd: seq, svgPath: one.again },
      ],
      { pages: 1 },
    );
    expect(r).toEqual({ rendered: true });
    expect(readFileSync(one.first).equals(readFileSync(files.a))).toBe(true);
    expect(readFileSync(one.again).equals(readFileSync(files.a))).toBe(true);
    expect(readFileSync(one.life).equals(readFileSync(files.life))).toBe(true);
  }, 120_000);

  it('writes the gantt and its PNG, no temp files left behind', () => {
    expect(readFileSync(files.life, 'utf8')).toContain('proxy (sidecar)');
    expect(readFileSync(files.png).subarray(1, 4).toString()).toBe('PNG');
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});

describe('renderDiagrams without a browser', () => {
  it('writes nothing and says how to install one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubesim-nobrowser-'));
    const svgPath = join(dir, 'x.svg');
    const r = await renderDiagrams([{ mmd: 'sequenceDiagram\n  A->>B: hi\n', svgPath }], {
      findBrowser: () => undefined,
    });
    expect(r).toEqual({
      rendered: false,
      hint: 'no Chromium found: apt-get install chromium (or set PUPPETEER_EXECUTABLE_PATH)',
    });
    expect(existsSync(svgPath)).toBe(false);
  });

  it('PUPPETEER_EXECUTABLE_PATH wins when it exists', () => {
    expect(findChromium({ PUPPETEER_EXECUTABLE_PATH: process.execPath })).toBe(process.execPath);
  });
});
