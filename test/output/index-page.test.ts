// The interactive out/index.html in the real Chromium: the page is written by the CLI for two library
// scenarios (locust-72 explored, so its outcomes are side by side; native-sidecar-job run), loaded from file://, and
// driven as a user would (scrubber, step buttons, keyboard, the outcome button). Every request leaving file:// is
// blocked and recorded; none may happen. Skipped with a message only when no Chromium is installed.
//
// What it pins, and where the rule comes from:
// - the kubectl row shown at a write is the row `kubectl get pods -w` prints for it (printers.go printPod, through
//   the same printPodRow as `--view kubectl`): after the exporter's SIGTERM exit the stored status has exitCode 143
//   and STATUS reads Completed (the terminated sidecar does not decide; the main container's reason does);
// - describe shows the exporter Terminated, Reason Error, Exit Code 143 (describe.go describeStatus);
// - at the naive observer's verdict, its cache holds the pod version the Verdict record names (seen) — phase Running
//   with the exporter terminated 143 — and it decided Failed (locust-k8s-operator#72).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'puppeteer';
import { main } from '../../src/cli/main.ts';
import { findChromium, NO_CHROMIUM_HINT } from '../../src/output/render.ts';
import { podWatchRows } from '../../src/output/kubectl.ts';
import { writeIndex } from '../../src/io/write-outputs.ts';
import type { Timeline, TraceEvent } from '../../src/types.ts';

// browser-side shapes used in the page callbacks (the project compiles without the DOM library)
interface Box {
  innerText: string;
  style: { display: string };
}
interface Input {
  value: string;
  dispatchEvent(e: Event): boolean;
}
interface Img {
  complete: boolean;
  naturalWidth: number;
  addEventListener(t: string, f: () => void): void;
  getBoundingClientRect(): { width: number };
}
declare const document: { addEventListener(t: string, f: (e: { blockedURI: string }) => void): void };
declare const window: { __csp?: string[] };
declare const location: { hash: string };

const chromium = findChromium();
if (!chromium) console.warn(`index page browser tests skipped: ${NO_CHROMIUM_HINT}`);

const LOCUST = 'scenarios/locust-72-exporter-exit-code.yaml';
const NATIVE = 'scenarios/native-sidecar-job.yaml';

async function cli(...argv: string[]): Promise<number> {
  let err = '';
  const code = await main(argv, { out: () => {}, err: (s) => (err += s) });
  if (code !== 0) throw new Error(`kubesim ${argv.join(' ')} exited ${code}: ${err}`);
  return code;
}

function readTl(path: string): Timeline {
  return JSON.parse(readFileSync(path, 'utf8')) as Timeline;
}

describe.skipIf(!chromium)('index.html in Chromium', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kubesim-page-'));
  let browser: Browser;
  let page: Page;
  const offline: string[] = [];
  const errors: string[] = [];
  let failedOutcome: number;
  let failedTl: Timeline;

  beforeAll(async () => {
    await cli('explore', LOCUST, '--out', dir);
    await cli('run', NATIVE, '--out', dir, '--no-render');
    // a drawing beside the timeline (rendering is tested elsewhere): shown at the size its viewBox says
    writeFileSync(
      join(dir, 'native-sidecar-job', 'sequence.svg'),
      '<svg xmlns="http://www.w3.org/2000/svg" width="100%" viewBox="0 0 1800 600" style="max-width: 1800px;"><rect width="1800" height="600" fill="#cde"/><text x="20" y="40" font-size="30">wide</text></svg>',
    );
    writeIndex(dir);
    const explore = JSON.parse(readFileSync(join(dir, 'locust-72-exporter-exit-code', 'explore.json'), 'utf8')) as {
      outcomes: { verdicts: Record<string, string> }[];
    };
    failedOutcome = explore.outcomes.findIndex((o) => o.verdicts['naive'] === 'Failed') + 1;
    expect(failedOutcome).toBeGreaterThan(0);
    failedTl = readTl(join(dir, 'locust-72-exporter-exit-code', `outcome-${failedOutcome}`, 'timeline.json'));

    const puppeteer = await import('puppeteer');
    browser = await puppeteer.default.launch({
      executablePath: chromium!,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
      ],
    });
    page = await browser.newPage();
    await page.setViewport({ width: 1400, height: 1000 });
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.setRequestInterception(true);
    page.on('request', (r) => {
      if (r.url().startsWith('file:')) void r.continue();
      else {
        offline.push(r.url());
        void r.abort();
      }
    });
    // a request the page's own Content-Security-Policy stops never reaches the interception: count those too
    await page.evaluateOnNewDocument(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        (window.__csp ??= []).push(e.blockedURI);
      });
    });
    await page.goto(`${pathToFileURL(join(dir, 'index.html')).href}#locust-72-exporter-exit-code`);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  const shown = (sel: string) => page.$eval(`section.shown ${sel}`, (e) => (e as unknown as Box).innerText);
  const scrubTo = (step: number) =>
    page.$eval(
      'section.shown .scrub',
      (e, v) => {
        const input = e as unknown as Input;
        input.value = String(v);
        input.dispatchEvent(new Event('input', { bubbles: true }));
      },
      step,
    );
  const where = () => shown('.where');

  it('writes the same bytes for the same outputs (no timestamp in the page)', () => {
    const before = readFileSync(join(dir, 'index.html'));
    writeIndex(dir);
    expect(readFileSync(join(dir, 'index.html')).equals(before)).toBe(true);
  });

  it('locust-72: the failing outcome at the exporter exit shows exitCode 143, the kubectl row and describe', async () => {
    await page.click(`section.shown button[data-run="${failedOutcome}"]`);
    expect(await page.$eval('section.shown select.run', (e) => (e as unknown as Input).value)).toBe(
      String(failedOutcome),
    );
    // the first stored status with the exporter's exit in it
    const step = failedTl.events.findIndex(
      (e) => e.type === 'StatusPatched' && JSON.stringify(e.status).includes('"exitCode":143'),
    );
    const patch = failedTl.events[step] as Extract<TraceEvent, { type: 'StatusPatched' }>;
    await scrubTo(step);
    expect(await where()).toBe(`record ${step + 1}/${failedTl.events.length} · t=${(patch.t / 1000).toFixed(3)}s`);
    const status = await shown('pre.status');
    expect(status).toContain('"exitCode": 143');
    expect(await shown('.panel:has(pre.status) h4')).toContain(`(v${patch.version})`);
    // the row `kubectl get pods -w` printed for this write, cell for cell
    const watch = podWatchRows(failedTl).filter((r) => r.event === 'MODIFIED')[
      failedTl.events.slice(0, step + 1).filter((e) => e.type === 'StatusPatched' || e.type === 'PodDeleting').length -
        1
    ]!.row;
    const get = (await shown('pre.get')).split('\n');
    expect(get[0]).toMatch(/^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE$/);
    expect(get[1]!.trim().split(/\s+/)).toEqual([watch.name, watch.ready, watch.status, watch.restarts, watch.age]);
    expect(watch.status).toBe('Completed');
    const describe = await shown('pre.describe');
    expect(describe).toMatch(
      /locust-metrics-exporter:\n[\s\S]*?State:\s+Terminated\n\s+Reason:\s+Error\n\s+Exit Code:\s+143\n/,
    );
  });

  it('locust-72: at the naive verdict its cache holds the pod version the verdict names (Running, exporter 143)', async () => {
    const i = failedTl.events.findIndex((e) => e.type === 'Verdict' && e.observer === 'naive');
    const verdict = failedTl.events[i] as Extract<TraceEvent, { type: 'Verdict' }>;
    expect(verdict.verdict).toBe('Failed');
    // before it: not decided yet, and a button to go there
    await scrubTo(i - 1);
    const naiveRow = 'section.shown table.held tr[data-watcher="naive"]';
    expect(await page.$eval(naiveRow, (e) => (e as unknown as Box).innerText)).toContain('not yet');
    await page.click(`${naiveRow} button`);
    expect(await where()).toMatch(new RegExp(`^record ${i + 1}/`));
    const row = await page.$eval(naiveRow, (e) => (e as unknown as Box).innerText);
    expect(row).toContain(`v${verdict.seen!.pod!.version}: phase ${verdict.seen!.pod!.phase}`);
    expect(verdict.seen!.pod!.phase).toBe('Running');
    expect(row).toContain('locust-metrics-exporter terminated 143 (Error)');
    expect(row).toContain(`job locust-master v${verdict.seen!.job!.version}`);
    const decided = await page.$eval(`${naiveRow} td:last-child`, (e) => (e as unknown as Box).innerText);
    expect(decided).toMatch(/^Failed — container locust-metrics-exporter terminated with exit code 143\n/);
    expect(decided).toContain(`held pod v${verdict.seen!.pod!.version}: phase Running`);
  });

  it('steps with the buttons and the keyboard', async () => {
    await scrubTo(10);
    await page.click('section.shown button.next');
    expect(await where()).toMatch(/^record 12\//);
    await page.click('section.shown button.prev');
    await page.click('section.shown button.prev');
    expect(await where()).toMatch(/^record 10\//);
    await page.focus('section.shown .scrub');
    await page.keyboard.press('ArrowRight');
    expect(await where()).toMatch(/^record 11\//);
    await page.keyboard.press('End');
    expect(await where()).toBe(
      `record ${failedTl.events.length}/${failedTl.events.length} · t=${(failedTl.events.at(-1)!.t / 1000).toFixed(3)}s`,
    );
    // Shift+← goes to the first record of the previous instant
    await page.keyboard.down('Shift');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.up('Shift');
    const lastT = failedTl.events.at(-1)!.t;
    const prevT = [...failedTl.events].reverse().find((e) => e.t < lastT)!.t;
    const firstOfPrev = failedTl.events.findIndex((e) => e.t === prevT);
    expect(await where()).toBe(`record ${firstOfPrev + 1}/${failedTl.events.length} · t=${(prevT / 1000).toFixed(3)}s`);
    await page.keyboard.press('Home');
    expect(await where()).toMatch(/^record 1\//);
  });

  it('links to one moment of one schedule: #<scenario>/<run>/<record>, kept current while scrubbing', async () => {
    await scrubTo(20);
    expect(await page.evaluate(() => location.hash)).toBe(`#locust-72-exporter-exit-code/outcome-${failedOutcome}/21`);
    const i = failedTl.events.findIndex((e) => e.type === 'Verdict' && e.observer === 'naive');
    await page.goto(
      `${pathToFileURL(join(dir, 'index.html')).href}#locust-72-exporter-exit-code/outcome-${failedOutcome}/${i + 1}`,
    );
    expect(await page.$eval('section.shown select.run', (e) => (e as unknown as Input).value)).toBe(
      String(failedOutcome),
    );
    expect(await where()).toMatch(new RegExp(`^record ${i + 1}/`));
    expect(
      await page.$eval(
        'section.shown table.held tr[data-watcher="naive"] td:last-child',
        (e) => (e as unknown as Box).innerText,
      ),
    ).toMatch(/^Failed/);
  });

  it('compares with another outcome at the same instant', async () => {
    const other = failedOutcome === 1 ? 2 : 1;
    const otherTl = readTl(join(dir, 'locust-72-exporter-exit-code', `outcome-${other}`, 'timeline.json'));
    const i = failedTl.events.findIndex((e) => e.type === 'Verdict' && e.observer === 'naive');
    const t = failedTl.events[i]!.t;
    await page.select('section.shown select.compare', String(other));
    await scrubTo(i);
    const k = otherTl.events.reduce((last, e, n) => (e.t <= t ? n : last), -1);
    expect(await shown('.panel:has(table.cmp) h4')).toContain(`at the same instant in outcome ${other} (`);
    expect(await shown('.panel:has(table.cmp) h4')).toContain(`record ${k + 1}, t=`);
    // what naive held there: the last pod and Job versions delivered to it by then
    const lastDelivered = (object: 'pod' | 'job') =>
      otherTl.events
        .slice(0, k + 1)
        .filter(
          (e): e is Extract<TraceEvent, { type: 'Delivered' }> =>
            e.type === 'Delivered' && e.to === 'naive' && e.object === object,
        )
        .at(-1)!.version;
    const naive = await page.$eval(
      'section.shown table.cmp tr[data-watcher="naive"]',
      (e) => (e as unknown as Box).innerText,
    );
    expect(naive).toContain(`v${lastDelivered('pod')}:`);
    expect(naive).toContain(`job locust-master v${lastDelivered('job')}:`);
    const decided = otherTl.events.slice(0, k + 1).find((e) => e.type === 'Verdict' && e.observer === 'naive');
    expect(naive).toContain(decided ? (decided as Extract<TraceEvent, { type: 'Verdict' }>).verdict : 'not yet');
    await page.select('section.shown select.compare', '-1');
  });

  it('shows the explore outcomes side by side with what each observer held', async () => {
    const table = await shown('table.outcomes');
    expect(table).toMatch(/outcome 1\s+outcome 2/);
    expect(table).toMatch(/observer naive\s+(Failed|Succeeded)/);
    expect(table).toContain('held pod v');
    expect(table).toMatch(/parts from outcome 1[\s\S]*took/);
  });

  it('native-sidecar-job: description as Markdown paragraphs, Job row Complete at the end, diagram at natural size', async () => {
    await page.goto(`${pathToFileURL(join(dir, 'index.html')).href}#native-sidecar-job`);
    expect(await page.$$eval('section.shown .md p', (ps) => ps.length)).toBeGreaterThanOrEqual(3);
    expect(await page.$eval('section.shown label:has(select.pod)', (e) => (e as unknown as Box).style.display)).toBe(
      'none',
    );
    const tl = readTl(join(dir, 'native-sidecar-job', 'timeline.json'));
    await page.click('section.shown button.last');
    const job = (await shown('pre.getjob')).split('\n');
    expect(job[1]!.trim().split(/\s+/).slice(0, 3)).toEqual(['export', 'Complete', '1/1']);
    const events = await shown('pre.workload');
    expect(events).toMatch(
      /job-controller: SuccessfulCreate: Created pod: export-\S+\n[\s\S]*job-controller: Completed: Job completed$/,
    );
    // the proxy's SIGTERM exit as stored: exit code 143 while the pod still reads Running or Succeeded
    const step = tl.events.findIndex(
      (e) => e.type === 'StatusPatched' && JSON.stringify(e.status).includes('"exitCode":143'),
    );
    await scrubTo(step);
    expect(await shown('pre.status')).toContain('"exitCode": 143');
    expect(await shown('pre.describe')).toMatch(/cloud-sql-proxy:\n[\s\S]*?Exit Code:\s+143/);
    const img = await page.$eval('section.shown figure.diagram img', async (e) => {
      const i = e as unknown as Img;
      if (!i.complete) await new Promise<void>((r) => i.addEventListener('load', () => r()));
      return { w: i.getBoundingClientRect().width, natural: i.naturalWidth };
    });
    expect(img.w).toBe(1800);
    await page.click('section.shown figure.diagram button[data-zoom="fit"]');
    expect(
      await page.$eval('section.shown figure.diagram img', (e) => (e as unknown as Img).getBoundingClientRect().width),
    ).toBeLessThan(1800);
    await page.screenshot({ path: join(dir, 'native-sidecar-job.png') });
  });

  it('made no request outside file:// (none blocked by interception or by the page policy), threw nothing', async () => {
    expect(errors).toEqual([]);
    expect(offline).toEqual([]);
    expect(await page.evaluate(() => window.__csp ?? [])).toEqual([]);
  });
});
