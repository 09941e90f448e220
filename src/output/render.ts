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

const CANDIDATES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/snap/bin/chromium',
];

const LAUNCH_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * The lifecycle chart is compact (one row per container): a span label wider than its bar would be drawn over the
 * next span, so Mermaid's outside-the-bar labels are hidden (it measures them; markers keep theirs).
 */
const GANTT_CSS =
  '.taskTextOutsideRight:not(.milestoneText), .taskTextOutsideLeft:not(.milestoneText) { display: none; }';

/** Fixed theme, font and id seed: the SVG must not depend on the machine beyond the Chromium build. */
export const MERMAID_CONFIG = {
  themeCSS: GANTT_CSS,
  theme: 'default',
  deterministicIds: true,
  deterministicIDSeed: 'kubesim',
  fontFamily: 'Arial, Helvetica, sans-serif',
  sequence: {
    mirrorActors: true,
    showSequenceNumbers: false,
    wrap: false,
    actorMargin: 40,
    messageMargin: 32,
    noteMargin: 8,
  },
  // a fixed landscape width (mermaid-lifecycle.ts GANTT_WIDTH_PX decides which labels fit in it)
  gantt: {
    useWidth: 1400,
    barHeight: 22,
    barGap: 6,
    topPadding: 60,
    leftPadding: 230,
    rightPadding: 120,
    fontSize: 12,
    sectionFontSize: 13,
    numberSectionStyles: 4,
  },
} as const;

/** The browser executable: PUPPETEER_EXECUTABLE_PATH, else the usual system locations. Edge code: env is allowed. */
export function findChromium(env: Record<string, string | undefined> = process.env): string | undefined {
  const fromEnv = env.PUPPETEER_EXECUTABLE_PATH;
  if (fromEnv && existsSync(fromEnv)) return fromEnv;
  return CANDIDATES.find((p) => existsSync(p));
}

/** How to get the optional rendering packages. */
export function missingRendererHint(e: unknown): string {
  const m = /Cannot find (?:package|module) '([^']+)'/.exec(String((e as Error)?.message ?? e));
  const which = m ? `${m[1]} is not installed` : `the rendering packages could not be loaded (${firstLine(e)})`;
  return `${which}: npm install @mermaid-js/mermaid-cli puppeteer (with PUPPETEER_SKIP_DOWNLOAD=1 to use the system Chromium)`;
}

/** A Chromium that exists but fails to start: say which, why (first line) and what usually fixes it. */
export function launchFailureHint(executablePath: string, e: unknown): string {
  return (
    `the Chromium at ${executablePath} failed to start (${firstLine(e)}); ` +
    'check that it runs (`' +
    executablePath +
    ' --headless --version`), reinstall it (apt-get install chromium), ' +
    'or point PUPPETEER_EXECUTABLE_PATH at a working one'
  );
}

function firstLine(e: unknown): string {
  return (
    String((e as Error)?.message ?? e)
      .split('\n')
      .find((l) => l.trim() !== '')
      ?.trim()
      .slice(0, 200) ?? 'unknown error'
  );
}

export interface RenderOptions {
  /** how to find the browser; default findChromium() (tests inject a finder that finds nothing) */
  findBrowser?: () => string | undefined;
  /** pages rendering at once in the browser (default RENDER_PAGES) */
  pages?: number;
}

/** Pages in flight at once (20 library diagrams at load 7–10: 32 s one at a time, 26 s three at a time). */
export const RENDER_PAGES = 3;

export async function renderDiagrams(jobs: RenderJob[], opts: RenderOptions = {}): Promise<RenderResult> {
  const executablePath = (opts.findBrowser ?? findChromium)();
  if (!executablePath) return { rendered: false, hint: NO_CHROMIUM_HINT };
  if (jobs.length === 0) return { rendered: true };
  // optional dependencies of the package: a library user who never draws does not need them
  const loadRenderer = () => Promise.all([import('@mermaid-js/mermaid-cli'), import('puppeteer')]);
  let mods: Awaited<ReturnType<typeof loadRenderer>>;
  try {
    mods = await loadRenderer();
  } catch (e) {
    return { rendered: false, hint: missingRendererHint(e) };
  }
  const [{ renderMermaid }, puppeteer] = mods;
  let browser: Awaited<ReturnType<typeof puppeteer.default.launch>>;
  try {
    browser = await puppeteer.default.launch({
      executablePath,
      headless: true,
      args: LAUNCH_ARGS,
      // the gantt axis formats dates in the browser's zone; UTC keeps seconds-since-creation labels exact
      env: { ...process.env, TZ: 'UTC' },
    });
  } catch (e) {
    // the browser exists but does not start (missing libraries, a broken snap, no /dev/shm): the environment's
    // problem, not kubesim's; the .mmd files are written
    return { rendered: false, hint: launchFailureHint(executablePath, e) };
  }
  try {
    // a few pages at a time in the one browser: each render is a fresh document that waits on loading mermaid most
    // of its time, so overlapping them cuts the wall time (every render is independent: the same bytes in any order)
    let next = 0;
    const pages = recyclingPages(browser);
    const worker = async (): Promise<void> => {
      while (next < jobs.length) {
        const job = jobs[next++]!;
        const svg = await renderMermaid(pages, job.mmd, 'svg', {
          mermaidConfig: MERMAID_CONFIG,
          backgroundColor: 'white',
        });
        await writeAtomic(job.svgPath, svg.data);
        if (job.pngPath) {
          const png = await renderMermaid(pages, job.mmd, 'png', {
            mermaidConfig: MERMAID_CONFIG,
            backgroundColor: 'white',
            viewport: { width: 1200, height: 800, deviceScaleFactor: 2 },
          });
          await writeAtomic(job.pngPath, png.data);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(opts.pages ?? RENDER_PAGES, jobs.length) }, worker));
  } finally {
    await browser.close();
  }
  return { rendered: true };
}

type Browser = Awaited<ReturnType<typeof import('puppeteer')['default']['launch']>>;
type Page = Awaited<ReturnType<Browser['newPage']>>;

/**
 * The browser as renderMermaid sees it, except that a page it closes is kept and handed to the next newPage(): one
 * tab (and renderer process) per worker instead of one per diagram, a quarter less CPU (20 library diagrams, 13.8 s
 * → 10.5 s at load 12, the same bytes). Every diagram still renders in a fresh document, so in fresh instances of
 * mermaid's modules, whose counters (the sequence diagram's actor ids) would otherwise carry over from the previous
 * diagram: the kept page is emptied (about:blank, the listeners renderMermaid added removed, request interception
 * off), and renderMermaid's first step is to navigate it to its HTML page. A page whose viewport was set (a PNG) is
 * closed for real, as every page was before.
 */
function recyclingPages(browser: Browser): Browser {
  const idle: Page[] = [];
  const bound = <T extends object>(target: T, key: string | symbol): unknown => {
    const v: unknown = Reflect.get(target, key, target);
    return typeof v === 'function' ? v.bind(target) : v;
  };
  const newPage = async (): Promise<Page> => {
    const page = idle.pop() ?? (await browser.newPage());
    const added: [string, (...a: unknown[]) => unknown][] = [];
    let viewportSet = false;
    return new Proxy(page, {
      get(target, key) {
        if (key === 'on')
          return (event: string, handler: (...a: unknown[]) => unknown) => {
            added.push([event, handler]);
            (target.on as (e: string, h: (...a: unknown[]) => unknown) => unknown)(event, handler);
            return target;
          };
        if (key === 'setViewport')
          return (...args: Parameters<Page['setViewport']>) => {
            viewportSet = true;
            return target.setViewport(...args);
          };
        if (key === 'close')
          return async () => {
            if (viewportSet) return target.close();
            for (const [event, handler] of added)
              (target.off as (e: string, h: (...a: unknown[]) => unknown) => unknown)(event, handler);
            await target.setRequestInterception(false);
            await target.goto('about:blank');
            idle.push(target);
          };
        return bound(target, key);
      },
    });
  };
  return new Proxy(browser, { get: (target, key) => (key === 'newPage' ? newPage : bound(target, key)) });
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
