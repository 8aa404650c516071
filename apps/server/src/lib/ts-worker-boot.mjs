// Worker entry of startTsWorker (ts-worker.ts): loads the TypeScript worker module named by the first argument,
// registering the tsx loader in this thread if the parent's loader is not inherited (Node 20 workers do not always
// inherit --import hooks; as the engine's pool does, packages/engine/src/parallel-worker-boot.mjs).
const target = process.argv[2];
try {
  await import(target);
} catch (e) {
  if (e && e.code === 'ERR_UNKNOWN_FILE_EXTENSION') {
    const { register } = await import('tsx/esm/api');
    register();
    await import(`${target}?tsx`); // new specifier: the failed import above stays cached
  } else throw e;
}
