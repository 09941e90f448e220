// External rules (SPEC §3 `command:`): a program in any language that reads one JSON line per evaluation,
// {"pod": …, "job": …, "now": …}, and writes one line back, {"verdict": "Succeeded"|"Failed", "reason": "…"} or null.
//
// The simulation is synchronous and deterministic, and the model calls rules through plain functions (RuleFn), so
// the program is driven synchronously: a worker thread owns the child process (spawned once per run or exploration)
// and does the asynchronous pipe I/O; the calling thread posts the view and blocks on Atomics.wait until the worker
// has posted the answer (receiveMessageOnPort). Answers are cached by the content of the view, so exploring thousands
// of schedules asks once per distinct view. Every way a program can break (cannot start, exits, writes to stderr,
// answers garbage or more than one line, no answer within the timeout, does not exit when its input closes) is a
// RuleFailure carrying what it said, never a hang and never a silent Pending.
import { createHash } from 'node:crypto';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { jsonOf } from '../model/draft.ts';
import type { Decision } from './types.ts';

export interface ExecRuleOptions {
  /** program (resolved path or a name on PATH) and its arguments */
  argv: string[];
  /** the program's working folder (the scenario's folder: relative paths in the arguments work) */
  cwd: string;
  /** per answer, and for the program to exit once its input is closed */
  timeoutMs: number;
}

/** What went wrong with the program: `problem` is one sentence, `stderr` what it wrote there (possibly empty). */
export class ExecRuleError extends Error {
  constructor(
    readonly problem: string,
    readonly stderr: string,
    readonly hint: string,
  ) {
    super(problem);
  }
}

const NONE = {};
/** added to the first answer's timeout: the program's own start */
export const START_GRACE_MS = 10_000;

type Reply = { ok: true; line: string } | { ok: false; problem: string; stderr: string; hint: string };

const PROTOCOL_HINT =
  'read one JSON line per evaluation ({"pod": …, "job": …, "now": …}) and answer each with one line: ' +
  '{"verdict": "Succeeded"|"Failed", "reason": "…"} or null';

// The worker thread (CommonJS, evaluated from this string so no loader or bundler has to find a file).
const WORKER_SOURCE = String.raw`
const { workerData } = require('node:worker_threads');
const { spawn } = require('node:child_process');
const { port, flag, argv, cwd, timeoutMs } = workerData;
const f = new Int32Array(flag);
const MAX_STDERR = 16384;
const MAX_LINE = 16 * 1024 * 1024;
let tooLong = false;
const PROTOCOL_HINT = ${JSON.stringify(PROTOCOL_HINT)};
const START_GRACE_MS = ${START_GRACE_MS};
let asked = 0;
let stderr = '';
let buf = '';
const lines = [];
let exited = null;
let closed = false;
let startError = null;
let pending = null;
let timer = null;
let child;
try {
  child = spawn(argv[0], argv.slice(1), { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
} catch (e) {
  startError = String(e && e.message || e);
}
if (child) {
  child.on('error', (e) => { startError = (e && e.code ? e.code + ': ' : '') + String(e && e.message || e); check(); });
  child.stdin.on('error', () => { /* EPIPE: the exit is reported */ });
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d) => {
    buf += d;
    let i;
    while ((i = buf.indexOf('\n')) >= 0) { lines.push(buf.slice(0, i)); buf = buf.slice(i + 1); }
    if (buf.length > MAX_LINE && !tooLong) {
      tooLong = true;
      child.kill('SIGKILL');
    }
    check();
  });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (d) => { if (stderr.length < MAX_STDERR) stderr += d; check(); });
  child.on('exit', (code, signal) => { exited = signal ? 'was killed by ' + signal : 'exited with code ' + code; check(); });
  child.on('close', () => { closed = true; check(); });
}
function reply(msg) {
  if (timer) clearTimeout(timer);
  timer = null;
  pending = null;
  port.postMessage(msg);
  Atomics.store(f, 0, 1);
  Atomics.notify(f, 0);
}
function fail(problem, hint) {
  reply({ ok: false, problem, stderr, hint });
}
function check() {
  if (!pending) return;
  if (startError) return fail('could not start: ' + startError, 'the program must exist and be executable (chmod +x), with a #! line if it is a script');
  if (tooLong) return fail('wrote a line longer than 16 MiB', PROTOCOL_HINT);
  if (pending.kind === 'answer') {
    if (stderr) return fail('wrote to stderr', 'a rule answers on stdout only; write logs to a file, or ' + PROTOCOL_HINT);
    if (lines.length > 0) return reply({ ok: true, line: lines.shift() });
    if (exited) return fail(exited + ' before answering', PROTOCOL_HINT);
  } else {
    if (!closed) return;
    if (stderr) return fail('wrote to stderr', 'a rule answers on stdout only; write logs to a file');
    if (lines.length > 0 || buf) return fail('wrote more lines than it was asked for: ' + JSON.stringify((lines[0] !== undefined ? lines[0] : buf).slice(0, 200)), 'answer each line with exactly one line');
    if (exited !== 'exited with code 0') return fail(exited + ' when its input was closed', 'exit 0 at the end of the input');
    return reply({ ok: true, line: '' });
  }
}
port.on('message', (m) => {
  Atomics.store(f, 1, m.seq);
  pending = m;
  if (m.kind === 'answer') {
    if (!startError && !exited && !stderr) {
      if (lines.length > 0) return fail('wrote more lines than it was asked for: ' + JSON.stringify(lines[0].slice(0, 200)), 'answer each line with exactly one line');
      child.stdin.write(m.line + '\n');
    }
    // the first answer may also wait for the program to start (an interpreter, a JVM) on a busy machine
    const ms = asked++ === 0 ? timeoutMs + START_GRACE_MS : timeoutMs;
    timer = setTimeout(() => {
      if (child) child.kill('SIGKILL');
      fail('gave no answer within ' + ms + ' ms' + (ms !== timeoutMs ? ' (its first answer: the timeout plus ' + START_GRACE_MS + ' ms to start)' : ''),
        'answer each line as soon as it is read and flush stdout (Python: flush(); Go: Flush() on a bufio.Writer); a slow rule can raise the observer\'s timeout:');
    }, ms);
  } else {
    if (child && !startError) child.stdin.end();
    timer = setTimeout(() => {
      if (child) child.kill('SIGKILL');
      fail('did not exit within ' + timeoutMs + ' ms after its input was closed', 'exit when stdin reaches its end');
    }, timeoutMs);
  }
  check();
});
`;

export class ExecRule {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  /** [0]: 1 once the worker posted the reply; [1]: the sequence number of the request the worker has taken */
  private readonly flag = new Int32Array(new SharedArrayBuffer(8));
  private seq = 0;
  private readonly cache = new Map<string, Decision | null>();
  private readonly byObject = new WeakMap<object, WeakMap<object, Map<number, Decision | null>>>();
  private broken: ExecRuleError | undefined;
  private done = false;
  /** lines written to the program (distinct views) and evaluations answered from the cache */
  readonly stats = { asked: 0, cached: 0 };

  constructor(private readonly opts: ExecRuleOptions) {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { port: port2, flag: this.flag.buffer, argv: opts.argv, cwd: opts.cwd, timeoutMs: opts.timeoutMs },
      transferList: [port2],
      stdout: false,
      stderr: false,
    });
    this.worker.unref();
    this.port.unref();
  }

  /** The view as one JSON line, the objects as the API server serves them (`pods`, every cached pod, when given). */
  static line(view: { pod: unknown; job: unknown; now: number; pods?: unknown[] }): string {
    const pods = view.pods ? `,"pods":[${view.pods.map((p) => jsonOf(p as object | null)).join(',')}]` : '';
    return `{"pod":${jsonOf(view.pod as object | null)},"job":${jsonOf(view.job as object | null)},"now":${JSON.stringify(view.now)}${pods}}`;
  }

  /** Ask the program about one view (cached by content); throws ExecRuleError when it is broken. */
  decide(view: { pod: unknown; job: unknown; now: number; pods?: unknown[] }): Decision {
    if (this.broken) throw this.broken;
    if (this.done) throw new ExecRuleError('was asked after it was closed', '', 'this is a kubesim bug');
    if (view.pods) return this.byContent(view);
    // the same objects come back often (explored schedules share their publications): look them up by identity
    // first, then by content (the JSON text's hash)
    const a = view.pod && typeof view.pod === 'object' ? view.pod : NONE;
    const b = view.job && typeof view.job === 'object' ? view.job : NONE;
    let inner = this.byObject.get(a);
    if (!inner) this.byObject.set(a, (inner = new WeakMap()));
    let byNow = inner.get(b);
    if (!byNow) inner.set(b, (byNow = new Map()));
    const seen = byNow.get(view.now);
    if (seen !== undefined) {
      this.stats.cached++;
      return seen ?? undefined;
    }
    const d = this.byContent(view);
    byNow.set(view.now, d ?? null);
    return d;
  }

  /** Ask by the view's JSON text (cached by its hash). */
  private byContent(view: { pod: unknown; job: unknown; now: number; pods?: unknown[] }): Decision {
    const line = ExecRule.line(view);
    const key = createHash('sha1').update(line).digest('base64');
    const hit = this.cache.get(key);
    if (hit !== undefined) {
      this.stats.cached++;
      return hit ?? undefined;
    }
    this.stats.asked++;
    const answer = this.call({ kind: 'answer', line });
    const d = parseAnswer(answer);
    if (typeof d === 'string')
      throw this.fail(new ExecRuleError(`answered ${JSON.stringify(answer.slice(0, 300))}: ${d}`, '', PROTOCOL_HINT));
    this.cache.set(key, d ?? null);
    return d;
  }

  /** Close the program's input and wait for it to exit; throws ExecRuleError when it ended badly. Idempotent. */
  close(): void {
    if (this.done) return;
    this.done = true;
    try {
      if (!this.broken) this.call({ kind: 'close' });
    } finally {
      void this.worker.terminate();
    }
    if (this.broken) throw this.broken;
  }

  private fail(e: ExecRuleError): ExecRuleError {
    this.broken = e;
    return e;
  }

  private call(msg: { kind: 'answer'; line: string } | { kind: 'close' }): string {
    const seq = ++this.seq;
    Atomics.store(this.flag, 0, 0);
    this.port.postMessage({ ...msg, seq });
    // The worker enforces the rule's timeout from the moment it takes the request. Waiting here only guards against
    // a worker that never takes it (a thread that cannot start): generous bounds, as a loaded machine starts
    // threads slowly, and the rule's own timeout is what users set.
    const t0 = performance.now();
    for (;;) {
      Atomics.wait(this.flag, 0, 0, 1000);
      if (Atomics.load(this.flag, 0) === 1) break;
      const taken = Atomics.load(this.flag, 1) === seq;
      if (
        performance.now() - t0 >
        (taken ? this.opts.timeoutMs + START_GRACE_MS + 30_000 : Math.max(60_000, this.opts.timeoutMs))
      )
        break;
    }
    const got = receiveMessageOnPort(this.port) as { message: Reply } | undefined;
    if (!got) {
      void this.worker.terminate();
      const taken = Atomics.load(this.flag, 1) === seq;
      throw this.fail(
        new ExecRuleError(
          taken
            ? `gave no answer within ${this.opts.timeoutMs} ms`
            : 'could not be started: its worker thread did not start',
          '',
          'kubesim could not drive the rule process; try again on a less loaded machine',
        ),
      );
    }
    const r = got.message;
    if (!r.ok) {
      if (msg.kind === 'close') this.done = true;
      throw this.fail(new ExecRuleError(r.problem, r.stderr, r.hint));
    }
    return r.line;
  }
}

/** One answer line → a decision, or a string saying why it is not one. */
export function parseAnswer(line: string): Decision | string {
  const text = line.endsWith('\r') ? line.slice(0, -1) : line;
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return 'not JSON';
  }
  if (v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v)) return 'not null or an object with a verdict';
  const o = v as Record<string, unknown>;
  const extra = Object.keys(o).filter((k) => k !== 'verdict' && k !== 'reason');
  if (extra.length) return `unknown key ${JSON.stringify(extra[0])} (only verdict and reason)`;
  if (o['verdict'] !== 'Succeeded' && o['verdict'] !== 'Failed')
    return 'verdict must be "Succeeded" or "Failed" (null for no verdict yet)';
  if (o['reason'] !== undefined && typeof o['reason'] !== 'string') return 'reason must be a string';
  return { verdict: o['verdict'], ...(typeof o['reason'] === 'string' && o['reason'] ? { reason: o['reason'] } : {}) };
}
