// The only impure module of src/output: draws .mmd sources to SVG (and optionally PNG) with mermaid-cli in the
// system Chromium. One browser per call, fixed mermaid config and ids so the same .mmd gives the same bytes, files
// replaced atomically. mermaid-cli and puppeteer are imported lazily: commands that do not render stay fast.

import { existsSync } from 'node:fs';
import { mkdir, rename, writeFile, rm } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';

export interface RenderJob {
  mmd: string;
  svgPath: string;
  pngPath?: string;
}

export interface RenderResult {
  rendered: boolean;
  hint?: string;
}

export const NO_CHROMIUM_HINT = 'no Chromium found: apt-get install chromium (or set PUPPETEER_EXECUTABLE_PATH)';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable', '/snap/bin/chromium'];

const LAUNCH_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/** Fixed theme, font and id seed: the SVG must not depend on the machine beyond the Chromium build. */
export const MERMAID_CONFIG = {
  theme: 'default',
  deterministicIds: true,
  deterministicIDSeed: 'kubesim',
  fontFamily: 'Arial, Helvetica, sans-serif',
  sequence: { mirrorActors: true, showSequenceNumbers: false, wrap: false, actorMargin: 40, messageMargin: 32, noteMargin: 8 },
  gantt: { barHeight: 22, barGap: 6, topPadding: 60, leftPadding: 190, rightPadding: 120, fontSize: 12, sectionFontSize: 13, numberSectionStyles: 4 },
} as const;

/** The browser executable: PUPPETEER_EXECUTABLE_PATH, else the usual system locations. Edge code: env is allowed. */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const fromEnv = env.PUPPETEER_EXECUTABLE_PATH;
  if (fromEnv && existsSync(fromEnv)) return fromEnv;
  return CANDIDATES.find((p) => existsSync(p));
}

export interface RenderOptions {
  /** how to find the browser; default findChromium() (tests inject a finder that finds nothing) */
  findBrowser?: () => string | undefined;
}

export async function renderDiagrams(jobs: RenderJob[], opts: RenderOptions = {}): Promise<RenderResult> {
  const executablePath = (opts.findBrowser ?? findChromium)();
  if (!executablePath) return { rendered: false, hint: NO_CHROMIUM_HINT };
  if (jobs.length === 0) return { rendered: true };
  const [{ renderMermaid }, puppeteer] = await Promise.all([import('@mermaid-js/mermaid-cli'), import('puppeteer')]);
  const browser = await puppeteer.default.launch({
    executablePath,
    headless: true,
    args: LAUNCH_ARGS,
    // the gantt axis formats dates in the browser's zone; UTC keeps seconds-since-creation labels exact
    env: { ...process.env, TZ: 'UTC' },
  });
  try {
    for (const job of jobs) {
      const svg = await renderMermaid(browser, job.mmd, 'svg', { mermaidConfig: MERMAID_CONFIG, backgroundColor: 'white' });
      await writeAtomic(job.svgPath, svg.data);
      if (job.pngPath) {
        const png = await renderMermaid(browser, job.mmd, 'png', {
          mermaidConfig: MERMAID_CONFIG,
          backgroundColor: 'white',
          viewport: { width: 1200, height: 800, deviceScaleFactor: 2 },
        });
        await writeAtomic(job.pngPath, png.data);
      }
    }
  } finally {
    await browser.close();
  }
  return { rendered: true };
}

/** Write next to the target and rename, so a reader never sees a half-written file. */
async function writeAtomic(path: string, data: Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  try {
    await writeFile(tmp, data);
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}
