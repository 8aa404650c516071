#!/usr/bin/env node
// A small supervisor for `npm start` and `npm run worker` (issue 32): runs `node --import tsx <script>` and starts it
// again after a fatal end it could not prevent (a V8 fatal abort, an uncaught exception, an OOM kill: any non-zero exit
// or signal that is not a shutdown asked for with SIGINT/SIGTERM), with a growing delay, and gives up with one clear
// line after SUPERVISOR_MAX_CRASHES crashes within SUPERVISOR_WINDOW_SECONDS. The child learns how often it was
// restarted and why from SUPERVISOR_RESTARTS, SUPERVISOR_LAST_RESTART_REASON and SUPERVISOR_LAST_RESTART_AT (the server's
// health check reports them). Exit code 78 (EX_CONFIG: the configuration is invalid) is not restarted.
// Node built-ins only. Usage: node scripts/supervise.mjs apps/server/src/main.ts
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';

/** The child's configuration refusal: restarting cannot help (sysexits.h EX_CONFIG; systemd: RestartPreventExitStatus=78). */
export const EXIT_CONFIG = 78;

/** Why a child ended, in words: `exit code 1`, `signal SIGKILL (killed: out of memory or kill -9)`. */
export function exitReason(code, signal) {
  if (signal) {
    const why = { SIGKILL: 'killed: out of memory or kill -9', SIGABRT: 'aborted: a fatal error', SIGTRAP: 'a V8 fatal error', SIGSEGV: 'a crash' }[signal];
    return `signal ${signal}${why ? ` (${why})` : ''}`;
  }
  // A shell reports a child killed by a signal as 128 + its number
  const bySignal = code > 128 ? Object.entries(constants.signals).find(([, n]) => n === code - 128)?.[0] : undefined;
  return `exit code ${code}${code === 134 ? ' (aborted: a fatal error)' : bySignal ? ` (${bySignal})` : ''}`;
}

function numberFrom(env, name, fallback) {
  const v = Number(env[name]);
  return env[name] && Number.isFinite(v) && v >= 0 ? v : fallback;
}

/**
 * Runs `script` under supervision until it ends normally, a shutdown is asked for, or it crashed too often.
 * Resolves with the exit code for this process.
 */
export function supervise(script, { env = process.env, log = (line) => console.error(line) } = {}) {
  const name = script.replace(/^.*\//, '');
  const maxCrashes = numberFrom(env, 'SUPERVISOR_MAX_CRASHES', 5);
  const windowMs = numberFrom(env, 'SUPERVISOR_WINDOW_SECONDS', 300) * 1000;
  const firstDelayMs = numberFrom(env, 'SUPERVISOR_BACKOFF_MS', 1000);
  const maxDelayMs = 30_000;
  const crashes = []; // times of the crashes within the window
  let restarts = 0;
  let last = null; // { reason, at }
  let child = null;
  let stopping = false;
  let timer = null;

  return new Promise((resolve) => {
    const stop = (signal) => {
      if (stopping) {
        // a second Ctrl-C: do not wait for the graceful shutdown
        child?.kill('SIGKILL');
        return;
      }
      stopping = true;
      if (timer) {
        clearTimeout(timer);
        resolve(0);
      } else child?.kill(signal);
    };
    for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => stop(sig));

    const run = () => {
      timer = null;
      const childEnv = { ...env, SUPERVISOR_RESTARTS: String(restarts) };
      if (last) Object.assign(childEnv, { SUPERVISOR_LAST_RESTART_REASON: last.reason, SUPERVISOR_LAST_RESTART_AT: last.at });
      child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: 'inherit', env: childEnv });
      child.on('exit', (code, signal) => {
        child = null;
        if (stopping || (code === 0 && !signal)) return resolve(code ?? 0);
        const reason = exitReason(code, signal);
        if (code === EXIT_CONFIG) {
          log(`[supervisor] ${name} ended with ${reason}: the configuration is invalid (see above); not restarting.`);
          return resolve(code);
        }
        const now = Date.now();
        crashes.push(now);
        while (crashes.length && crashes[0] < now - windowMs) crashes.shift();
        if (crashes.length >= maxCrashes) {
          log(
            `[supervisor] ${name} ended with ${reason}; it crashed ${crashes.length} times within ${windowMs / 1000} s, so it is not restarted again. See the lines above for the cause.`,
          );
          return resolve(code || 1);
        }
        const delay = Math.min(maxDelayMs, firstDelayMs * 2 ** (crashes.length - 1));
        restarts += 1;
        last = { reason, at: new Date(now).toISOString() };
        log(`[supervisor] ${name} ended with ${reason}; restarting in ${(delay / 1000).toFixed(1)} s (restart ${restarts}).`);
        timer = setTimeout(run, delay);
      });
    };
    run();
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const script = process.argv[2];
  if (!script) {
    console.error('usage: node scripts/supervise.mjs <script.ts>');
    process.exit(2);
  }
  process.exit(await supervise(script));
}
