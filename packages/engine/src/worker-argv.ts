/** Node flags a worker thread accepts and needs from its parent: module loading, conditions, warnings, heap size. */
const PASSED =
  /^(--(import|require|loader|experimental-loader|conditions|enable-source-maps|no-warnings|disable-warning|max-old-space-size|stack-size|(no-)?experimental-[a-z-]+)|-r|-C)(=|$)/;
/** Of those, the ones whose value may come as the next argument (`--import tsx`). */
const TAKES_VALUE = /^(--(import|require|loader|experimental-loader|conditions|disable-warning)|-r|-C)$/;
const PROFILE = /^--cpu-prof/;

/**
 * Node options for a worker thread: the parent's loader (tsx), conditions and warning flags, and nothing else. An
 * allow-list, because a worker refuses process-wide flags (ERR_WORKER_INVALID_EXEC_ARGV), and which flags a parent
 * carries depends on the runtime: Node 24's test runner starts its files with --stack-trace-limit, --secure-heap and
 * others that Node 20's did not. `keepProfile` passes --cpu-prof* too (profiling the workers while debugging).
 */
export function workerExecArgv(execArgv: readonly string[] = process.execArgv, keepProfile = false): string[] {
  const out: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const a = execArgv[i]!;
    if (PASSED.test(a) || (keepProfile && PROFILE.test(a))) {
      out.push(a);
      if (TAKES_VALUE.test(a) && i + 1 < execArgv.length) out.push(execArgv[++i]!);
    }
  }
  return out;
}
