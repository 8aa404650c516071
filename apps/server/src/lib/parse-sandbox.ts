import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AppError } from './errors.js';

const MiB = 1_048_576;
/** An idle child is kept this long for the next file (a cold start is 1.5-5 s of a core: docs/decisions.md). */
const IDLE_MS = 10 * 60_000;
/** A child is replaced after this many files, or when a file left its memory above its start by half the limit. */
const JOBS_PER_CHILD = 200;
/** How often the memory of a child reading a file is looked at. */
const WATCH_MS = 50;
/**
 * The children's CPU priority (nice): below the server's, so its requests are answered first, but not so low that a
 * busy machine starves the reader (at nice 10 and a load of 25 on 2 cores a 1 s parse took 30 s).
 */
const NICE = 5;
/** What V8 and Node print when a heap or an allocation cannot grow. */
const OUT_OF_MEMORY = /heap out of memory|Reached heap limit|invalid size error|invalid array length|Allocation failed|Array buffer allocation failed/i;

export interface ParseLimits {
  /** Most memory one file may take while it is read, above the child's own (MiB): the V8 heap limit and the RSS watch. */
  memoryMb: number;
  /** Most wall time one file may take (seconds). */
  timeoutS: number;
  /** Files read at once (children); more wait their turn. */
  concurrency: number;
}

/** The upload being read, for the messages: the form field and the file's name. */
export interface ParseTarget {
  field: string;
  filename: string;
}

interface Child {
  proc: ChildProcess;
  /** RSS when it was ready (bytes). */
  baseRss: number;
  jobs: number;
  stderr: string;
  idleTimer?: NodeJS.Timeout;
}

interface ChildMessage {
  id?: number;
  type: 'ready' | 'chunk' | 'done' | 'error';
  chunk?: unknown;
  result?: unknown;
  rss?: number;
  error?: { name: string; message: string; statusCode?: number; errors?: { field: string; message: string }[]; extra?: Record<string, unknown> };
}

/** RSS of a process from /proc (bytes); 0 where there is no /proc. */
async function rssOf(pid: number): Promise<number> {
  try {
    return Number((await readFile(`/proc/${pid}/statm`, 'latin1')).split(' ')[1]) * 4096;
  } catch {
    return 0;
  }
}

/**
 * Reads users' files in child processes with a memory and a time limit (issue 32): a parser that runs away (a
 * decompression bomb, a crafted code table, a V8 fatal error) takes down its child, never the server, and the upload
 * answers 413 (memory, time) or 400 (the reader crashed) naming the file and the limit. Children are started with
 * `--max-old-space-size` and watched: killed when their RSS passes their start-up RSS + the file's bytes + the memory
 * limit, or when the time limit passes. They run at a lower CPU priority (nice 5) than the server, are kept warm for
 * the next file (a cold start costs more than most parses) and replaced after a failure. The task modules are loaded
 * by the child (never by this module): a task is `fn(input, fileBytes, emit)` of a module listed in `modules`.
 */
export class ParseSandbox {
  private readonly idle: Child[] = [];
  private readonly all = new Set<Child>();
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly modules: URL[],
    readonly limits: ParseLimits,
    private readonly log?: { warn(o: object, msg: string): void },
  ) {}

  /**
   * Runs `fn` of `module` in a child on `input` and the file's bytes; `onChunk` gets what the task emits as it goes.
   * Rejects with the task's AppError as it threw it, or a 413/400 AppError naming `target` when the child ran out of
   * memory or time or died.
   */
  async run<T>(module: URL, fn: string, input: unknown, target: ParseTarget, opts: { file?: Uint8Array; onChunk?: (chunk: unknown) => void } = {}): Promise<T> {
    if (this.closed) throw new Error('the parse sandbox is closed');
    // the children are unref'd (an idle one keeps no process alive): this holds the event loop while a file is read
    const hold = setInterval(() => {}, 1 << 30);
    await this.slot();
    let dir: string | null = null;
    try {
      let file: string | null = null;
      if (opts.file) {
        dir = await mkdtemp(join(tmpdir(), 'crp-parse-'));
        file = join(dir, 'upload');
        await writeFile(file, opts.file);
      }
      const child = await this.take();
      return await this.exec<T>(child, { module: module.href, fn, input, file }, target, opts.file?.byteLength ?? 0, opts.onChunk);
    } finally {
      if (dir) await rm(dir, { recursive: true, force: true });
      clearInterval(hold);
      this.running--;
      this.waiting.shift()?.();
    }
  }

  /** Stops every child (the server is closing). */
  close(): void {
    this.closed = true;
    for (const c of this.all) c.proc.kill('SIGKILL');
    this.all.clear();
    this.idle.length = 0;
  }

  private async slot(): Promise<void> {
    while (this.running >= this.limits.concurrency) await new Promise<void>((r) => this.waiting.push(r));
    this.running++;
  }

  private async take(): Promise<Child> {
    const warm = this.idle.pop();
    if (warm) {
      clearTimeout(warm.idleTimer);
      return warm;
    }
    return this.spawnChild();
  }

  private spawnChild(): Promise<Child> {
    const entry = fileURLToPath(new URL('./parse-child.ts', import.meta.url));
    // sources need tsx; a bundle of the child and its task modules (scripts/build-server-bundle.mjs) is JavaScript
    const isTs = (path: string) => /\.[cm]?ts$/.test(path);
    const loader = isTs(entry) || this.modules.some((m) => isTs(m.pathname)) ? ['--import', import.meta.resolve('tsx')] : [];
    const proc = spawn(
      process.execPath,
      [`--max-old-space-size=${this.limits.memoryMb}`, '--expose-gc', ...loader, entry, ...this.modules.map((m) => m.href)],
      { stdio: ['ignore', 'ignore', 'pipe', 'ipc'], serialization: 'advanced' },
    );
    const child: Child = { proc, baseRss: 0, jobs: 0, stderr: '' };
    this.all.add(child);
    proc.stderr!.setEncoding('utf8');
    proc.stderr!.on('data', (s: string) => (child.stderr = (child.stderr + s).slice(-4096)));
    proc.on('exit', () => {
      this.all.delete(child);
      const i = this.idle.indexOf(child);
      if (i >= 0) this.idle.splice(i, 1);
    });
    // a send to a child that just died, or a failed spawn: its exit (or the start's rejection) answers the upload
    proc.on('error', (err) => this.log?.warn({ err: err.message }, 'a file reader process failed'));
    // an idle child does not keep the server's process alive (run() holds the event loop while a file is read)
    proc.unref();
    proc.channel?.unref();
    (proc.stderr as unknown as { unref?: () => void }).unref?.(); // a net.Socket
    try {
      if (proc.pid) setPriority(proc.pid, NICE); // the server's own requests first
    } catch {
      // not permitted here: the same priority then
    }
    return new Promise((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`a parse child did not start (exit ${code}): ${child.stderr.slice(-400)}`));
      proc.once('exit', onExit);
      proc.once('error', onExit.bind(null, null));
      proc.once('message', (m: ChildMessage) => {
        proc.off('exit', onExit);
        child.baseRss = m.rss ?? 0;
        resolve(child);
      });
    });
  }

  /** A child back from a file: kept warm unless it grew or read many files. */
  private giveBack(child: Child, rss: number): void {
    child.jobs++;
    if (this.closed || child.jobs >= JOBS_PER_CHILD || rss > child.baseRss + (this.limits.memoryMb / 2) * MiB) {
      child.proc.kill('SIGKILL');
      return;
    }
    child.idleTimer = setTimeout(() => child.proc.kill('SIGKILL'), IDLE_MS);
    child.idleTimer.unref();
    this.idle.push(child);
  }

  private exec<T>(
    child: Child,
    job: { module: string; fn: string; input: unknown; file: string | null },
    target: ParseTarget,
    fileBytes: number,
    onChunk?: (c: unknown) => void,
  ): Promise<T> {
    const { proc } = child;
    const id = this.nextId++;
    const limitBytes = child.baseRss + fileBytes + this.limits.memoryMb * MiB;
    let killedFor: 'memory' | 'time' | null = null;
    const kill = (why: 'memory' | 'time') => {
      killedFor ??= why;
      proc.kill('SIGKILL');
    };
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => kill('time'), this.limits.timeoutS * 1000);
      const watch = setInterval(() => {
        void rssOf(proc.pid ?? 0).then((rss) => rss > limitBytes && kill('memory'));
      }, WATCH_MS);
      const settle = (then: () => void) => {
        clearTimeout(timer);
        clearInterval(watch);
        proc.off('message', onMessage);
        proc.off('exit', onExit);
        then();
      };
      const onMessage = (m: ChildMessage) => {
        if (m.id !== id) return;
        if (m.type === 'chunk') return onChunk?.(m.chunk);
        settle(() => {
          this.giveBack(child, m.rss ?? 0);
          if (m.type === 'done') resolve(m.result as T);
          else reject(this.taskError(m.error!, target));
        });
      };
      const onExit = (code: number | null, signal: string | null) =>
        settle(() => {
          const why = killedFor ?? (OUT_OF_MEMORY.test(child.stderr) ? 'memory' : null);
          this.log?.warn({ file: target.filename, code, signal, why, stderr: child.stderr.slice(-300) }, 'a file reader stopped');
          reject(this.limitError(why, target, code, signal));
        });
      proc.on('message', onMessage);
      proc.on('exit', onExit);
      proc.send({ id, ...job });
    });
  }

  private limitError(why: 'memory' | 'time' | null, t: ParseTarget, code: number | null, signal: string | null): AppError {
    const name = `${t.field}: '${t.filename.slice(0, 120)}'`;
    if (why === 'memory')
      return new AppError(413, `${name} needs more than the ${this.limits.memoryMb} MB a file may use while it is read. Make it smaller or simpler.`, [
        { field: t.field, message: `needs more than ${this.limits.memoryMb} MB to read` },
      ]);
    if (why === 'time')
      return new AppError(413, `${name} takes more than the ${this.limits.timeoutS} s a file may take to be read. Make it smaller or simpler.`, [
        { field: t.field, message: `takes more than ${this.limits.timeoutS} s to read` },
      ]);
    return new AppError(400, `${name} could not be read: its reader stopped (${signal ?? `exit code ${code}`}).`, [
      { field: t.field, message: 'unreadable file' },
    ]);
  }

  /** The task's own error: an AppError as thrown; running out of memory as the limit; anything else a 400 naming the file. */
  private taskError(e: NonNullable<ChildMessage['error']>, t: ParseTarget): AppError {
    if (e.name === 'AppError' && e.statusCode) return new AppError(e.statusCode, e.message, e.errors, e.extra);
    if (OUT_OF_MEMORY.test(e.message)) return this.limitError('memory', t, null, null);
    this.log?.warn({ file: t.filename, error: e.message.slice(0, 300) }, 'a file reader failed');
    return new AppError(400, `${t.field}: '${t.filename.slice(0, 120)}' could not be read (${e.message.slice(0, 160)}).`, [
      { field: t.field, message: 'unreadable file' },
    ]);
  }
}
