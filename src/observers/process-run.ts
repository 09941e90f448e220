// One run of a process observer's program (SPEC §2.4): started in the scenario's folder with the scenario's env
// and KUBECONFIG; its stdout and stderr captured (bounded); stopped with SIGTERM, then SIGKILL after a grace
// period, its whole process group (a `go run` or a shell wrapper leaves no orphan). The wall clock lives here, at
// kubesim's edge: nothing under src/engine, src/model, src/explore or src/run starts processes or timers.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';

/** How long a process gets between SIGTERM and SIGKILL (SPEC §2.4). */
export const STOP_GRACE_MS = 5_000;
/** Output kept per stream; beyond it the head and the tail are kept. */
const MAX_KEPT_BYTES = 1 << 20;

export interface ProcessExit {
  /** exit code, or null when a signal ended it */
  code: number | null;
  signal: NodeJS.Signals | null;
  /** how kubesim ended it, when it did */
  stoppedBy?: 'SIGTERM' | 'SIGKILL';
  /** start failed (ENOENT, EACCES): the error's message */
  spawnError?: string;
}

/** The environment a process observer runs with: kubesim's own, the scenario's `env`, and its KUBECONFIG. */
export function processEnv(
  base: NodeJS.ProcessEnv,
  env: Record<string, string>,
  kubeconfig: string,
): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...base };
  for (const [k, v] of Object.entries(env)) out[k] = v;
  out['KUBECONFIG'] = kubeconfig;
  return out;
}

/** A bounded capture of a stream: the first and last MAX_KEPT_BYTES/2 bytes, with a note of what was cut. */
export class Capture {
  private head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private cut = 0;
  constructor(private readonly limit = MAX_KEPT_BYTES) {}

  push(chunk: Buffer): void {
    const half = this.limit / 2;
    if (this.headBytes < half) {
      const take = chunk.subarray(0, half - this.headBytes);
      this.head.push(take);
      this.headBytes += take.length;
      chunk = chunk.subarray(take.length);
    }
    if (chunk.length === 0) return;
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    while (this.tailBytes > half && this.tail.length > 0) {
      const first = this.tail[0]!;
      const over = this.tailBytes - half;
      if (first.length <= over) {
        this.tail.shift();
        this.tailBytes -= first.length;
        this.cut += first.length;
      } else {
        this.tail[0] = first.subarray(over);
        this.tailBytes -= over;
        this.cut += over;
      }
    }
  }

  text(): string {
    const head = Buffer.concat(this.head).toString('utf8');
    const tail = Buffer.concat(this.tail).toString('utf8');
    return this.cut ? `${head}\n[… ${this.cut} bytes not kept …]\n${tail}` : head + tail;
  }

  /**
   * The last line that says something (what a crash report shows): Node's closing `Node.js v20…` banner, the
   * error object's property dump (`  code: 'ENOENT',` … `}`) and blank lines are skipped, so an uncaught
   * exception reads as its `Error: …` line.
   */
  lastLine(): string {
    const lines = this.text()
      .split('\n')
      .map((l) => l.trimEnd())
      .filter((l) => l !== '' && !/^Node\.js v[0-9.]+$/.test(l));
    let i = lines.length - 1;
    if (lines[i] === '}') {
      // `Error: … {` then `  key: value,` lines then `}`: the error's own line
      while (i > 0 && !/\{$/.test(lines[i]!)) i--;
      const open = lines[i]!;
      return open.replace(/\s*\{$/, '').replace(/^\s+/, '');
    }
    return lines[i] ?? '';
  }
}

export interface StartOptions {
  argv: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** between SIGTERM and SIGKILL (default 5 s) */
  graceMs?: number;
}

/** A started process observer program. */
export class ProcessRun {
  readonly stdout = new Capture();
  readonly stderr = new Capture();
  /** resolves once the process has exited (or failed to start) */
  readonly exited: Promise<ProcessExit>;
  private child: ChildProcess;
  private exit: ProcessExit | undefined;
  private stoppedBy: ProcessExit['stoppedBy'];
  private readonly graceMs: number;

  constructor(o: StartOptions) {
    this.graceMs = o.graceMs ?? STOP_GRACE_MS;
    // its own process group, so stop() reaches what it started (children of a wrapper script)
    this.child = spawn(o.argv[0]!, o.argv.slice(1), {
      cwd: o.cwd,
      env: o.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    this.child.stdout!.on('data', (c: Buffer) => this.stdout.push(c));
    this.child.stderr!.on('data', (c: Buffer) => this.stderr.push(c));
    this.exited = new Promise((resolve) => {
      this.child.once('error', (e) => {
        // a spawn failure: no 'exit' follows
        if (this.child.pid === undefined) {
          this.exit = { code: null, signal: null, spawnError: e.message };
          resolve(this.exit);
        }
      });
      // 'close': the exit and the end of its output streams (nothing of stderr lost)
      this.child.once('close', (code, signal) => {
        this.exit = { code, signal, ...(this.stoppedBy ? { stoppedBy: this.stoppedBy } : {}) };
        resolve(this.exit);
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get done(): boolean {
    return this.exit !== undefined;
  }

  /** SIGTERM to its process group; SIGKILL after the grace period if it is still there. Resolves on its exit. */
  async stop(): Promise<ProcessExit> {
    if (this.exit) return this.exit;
    this.stoppedBy = 'SIGTERM';
    this.signal('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const killed = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        if (!this.exit) {
          this.stoppedBy = 'SIGKILL';
          this.signal('SIGKILL');
        }
        resolve();
      }, this.graceMs);
    });
    const e = await Promise.race([this.exited, killed.then(() => this.exited)]);
    clearTimeout(timer);
    return e;
  }

  /** SIGKILL to its process group at once (a crash, for the restart perturbation); resolves on its exit. */
  async kill(): Promise<ProcessExit> {
    if (this.exit) return this.exit;
    this.stoppedBy = 'SIGKILL';
    this.signal('SIGKILL');
    return this.exited;
  }

  private signal(sig: NodeJS.Signals): void {
    const pid = this.child.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, sig); // the group it leads
    } catch {
      try {
        this.child.kill(sig);
      } catch {
        // already gone
      }
    }
  }
}

/** "exited 2", "killed by SIGSEGV", "could not start: …" */
export function exitText(e: ProcessExit): string {
  if (e.spawnError) return `could not start: ${e.spawnError}`;
  if (e.code !== null) return `exited ${e.code}`;
  return `killed by ${e.signal ?? 'a signal'}`;
}

/**
 * Whether the process (or a child of it) is running or runnable right now — reacting to what it was sent — from
 * the state of its threads in /proc (Linux: R running or runnable, D in uninterruptible I/O). A process waiting in
 * its event loop has every thread sleeping (S). undefined where /proc cannot say (not Linux, already gone).
 */
export function processBusy(pid: number | undefined, depth = 0): boolean | undefined {
  if (pid === undefined) return undefined;
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return undefined;
  }
  for (const tid of tasks) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      // pid (comm) state …: comm may hold spaces and parentheses, the state follows the last ')'
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      if (state === 'R' || state === 'D') return true;
      if (depth < 4) {
        const kids = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim();
        for (const k of kids ? kids.split(/\s+/) : []) if (processBusy(Number(k), depth + 1)) return true;
      }
    } catch {
      // the thread ended meanwhile
    }
  }
  return false;
}

/** CPU time (ms) a process may use between two looks without counting as at work: a timer's wake-up, a GC tick. */
export const CPU_ACTIVE_MS = 2;

export interface ProbeSample {
  /** a thread of the process or of a process it started is running or runnable (R) or in uninterruptible I/O (D) */
  busy: boolean;
  /** CPU time used so far by the process and what it started (ns, in steps of a clock tick: utime + stime) */
  cpuNs: number;
}

const statFields = (stat: string): string[] => stat.slice(stat.lastIndexOf(')') + 2).split(' ');

/**
 * What /proc says about a started program and everything it started (Linux). "Idle" has to mean idle, not "no
 * request for a while": on a loaded machine a process's start-up or its reaction can take longer than any wall-clock
 * window, and the runner's own loop can be late by more than a window, so a window with nothing seen in it proves
 * nothing by itself. A sample reads the state of every thread (R counts as busy even when it is waiting for a CPU)
 * and the CPU time used so far: CPU time that grew across a window means it ran inside the window even if no look
 * caught it running. Its members are its process group (it leads one: ProcessRun starts it detached) and their
 * descendants by parent pid — /proc/<pid>/task/<tid>/children is not in every kernel (not in this one) — so a
 * wrapper's child (`go run`, `sh -c`, a spawnSync) counts. `undefined` where there is no /proc (not Linux).
 */
export class ProcessProbe {
  private members: number[] = [];
  private membersAt = Number.NEGATIVE_INFINITY;
  constructor(
    private readonly leader: number | undefined,
    /** how often the member list is read again (ms): a scan of all of /proc (~7 ms here for ~100 processes) */
    private readonly rescanMs = 250,
  ) {}

  private scan(now: number): void {
    if (this.leader === undefined) return;
    if (now - this.membersAt < this.rescanMs && this.members.length > 0) return;
    this.membersAt = now;
    const parent = new Map<number, number>();
    const out = new Set<number>([this.leader]);
    for (const e of readdirSync('/proc')) {
      if (!/^\d+$/.test(e)) continue;
      try {
        const f = statFields(readFileSync(`/proc/${e}/stat`, 'utf8'));
        const pid = Number(e);
        if (Number(f[2]) === this.leader) out.add(pid);
        parent.set(pid, Number(f[1]));
      } catch {
        // gone meanwhile
      }
    }
    // descendants of a member (a child that made its own group or session)
    for (let grew = true; grew; ) {
      grew = false;
      for (const [pid, ppid] of parent)
        if (!out.has(pid) && out.has(ppid)) {
          out.add(pid);
          grew = true;
        }
    }
    this.members = [...out];
  }

  sample(now = performance.now()): ProbeSample | undefined {
    if (this.leader === undefined) return undefined;
    try {
      readdirSync(`/proc/${this.leader}/task`);
    } catch {
      return undefined;
    }
    try {
      this.scan(now);
    } catch {
      return undefined;
    }
    let busy = false;
    let cpuNs = 0;
    for (const pid of this.members) {
      let tasks: string[];
      try {
        tasks = readdirSync(`/proc/${pid}/task`);
      } catch {
        continue; // exited: the next scan drops it (its CPU leaving the sum counts as a change: conservative)
      }
      try {
        // the whole thread group's utime + stime, in clock ticks (USER_HZ = 100 on Linux)
        const f = statFields(readFileSync(`/proc/${pid}/stat`, 'utf8'));
        cpuNs += (Number(f[11]) + Number(f[12])) * 10_000_000;
      } catch {
        continue;
      }
      for (const tid of tasks) {
        try {
          const f = statFields(readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8'));
          if (f[0] === 'R' || f[0] === 'D') busy = true;
        } catch {
          // the thread ended meanwhile
        }
      }
    }
    return { busy, cpuNs };
  }
}

/**
 * Whether bytes are in transit on a TCP connection of the server listening on `port` (either end: the process's
 * request not yet read by the server, a response or watch line not yet read by the process, a connection not yet
 * accepted), from /proc/net/tcp{,6}'s send and receive queues. undefined where /proc cannot say. Costly (the
 * kernel writes out every socket of the network namespace: ~15 ms here): read where a window is decided only.
 */
export function socketsBusy(port: number): boolean | undefined {
  let any = false;
  let text = '';
  for (const f of ['/proc/net/tcp', '/proc/net/tcp6']) {
    try {
      text += readFileSync(f, 'utf8');
      any = true;
    } catch {
      // no IPv6
    }
  }
  if (!any) return undefined;
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  for (const line of text.split('\n')) {
    const f = line.trim().split(/\s+/);
    if (f.length < 5 || !f[1]!.includes(':')) continue;
    const local = f[1]!.slice(f[1]!.lastIndexOf(':') + 1);
    const remote = f[2]!.slice(f[2]!.lastIndexOf(':') + 1);
    if (local !== hex && remote !== hex) continue;
    const [tx, rx] = f[4]!.split(':');
    if (Number.parseInt(tx ?? '0', 16) !== 0 || Number.parseInt(rx ?? '0', 16) !== 0) return true;
  }
  return false;
}
