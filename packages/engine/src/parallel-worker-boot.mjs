// Worker entry: load the TypeScript worker, registering the tsx loader in this thread if the parent's loader is not
// inherited (Node 20 workers do not always inherit --import hooks).
try {
  await import('./parallel-worker.ts');
} catch (e) {
  if (e && e.code === 'ERR_UNKNOWN_FILE_EXTENSION') {
    const { register } = await import('tsx/esm/api');
    register();
    await import('./parallel-worker.ts?tsx'); // new specifier: the failed import above stays cached
  } else throw e;
}
