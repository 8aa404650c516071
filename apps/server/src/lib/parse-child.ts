/**
 * Entry of a parse child process (parse-sandbox.ts): loads the task modules named on its command line (so a warm
 * child has them ready), says `ready`, then runs one task per message, the parent's `{ id, module, fn, input, file }`:
 * `fn` of `module` is called with the input, the file's bytes (read from the temporary file the parent wrote) and an
 * `emit` for partial results (awaited: the pipe's pace); its answer or error goes back with the job's id. Errors travel as plain objects (name,
 * message and the AppError fields) and are rebuilt by the parent.
 */
import { readFile } from 'node:fs/promises';

interface Job {
  id: number;
  module: string;
  fn: string;
  input: unknown;
  file: string | null;
}

type Task = (input: unknown, file: Buffer | null, emit: (chunk: unknown) => Promise<void>) => Promise<unknown>;

/** RSS after a full collection (the child runs with --expose-gc): what the file left behind, for the recycle check. */
const settledRss = () => {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().rss;
};

const send = (msg: unknown) =>
  new Promise<void>((resolve, reject) => {
    process.send!(msg, undefined, {}, (err) => (err ? reject(err) : resolve()));
  });

const modules = new Map<string, Record<string, unknown>>();
for (const m of process.argv.slice(2)) modules.set(m, (await import(m)) as Record<string, unknown>);

let queue = Promise.resolve();
process.on('message', (job: Job) => {
  queue = queue.then(() => run(job));
});
process.on('disconnect', () => process.exit(0));
await send({ type: 'ready', rss: process.memoryUsage().rss });

async function run(job: Job): Promise<void> {
  try {
    const mod = modules.get(job.module) ?? ((await import(job.module)) as Record<string, unknown>);
    const task = mod[job.fn] as Task | undefined;
    if (typeof task !== 'function') throw new Error(`parse task ${job.fn} not found`);
    const file = job.file ? await readFile(job.file) : null;
    const result = await task(job.input, file, (chunk) => send({ id: job.id, type: 'chunk', chunk }));
    await send({ id: job.id, type: 'done', result, rss: settledRss() });
  } catch (err) {
    const e = err as Error & { statusCode?: number; errors?: unknown; extra?: unknown };
    await send({
      id: job.id,
      type: 'error',
      error: { name: e?.constructor?.name ?? 'Error', message: String(e?.message ?? err), statusCode: e?.statusCode, errors: e?.errors, extra: e?.extra },
      rss: settledRss(),
    });
  }
}
