// Worker entry of the world-tile pre-render: load the TypeScript worker, registering the tsx loader in this thread if
// the parent's loader is not inherited (Node 20 workers do not always inherit --import hooks), as the engine's pool does.
try {
  await import('./world-prerender.worker.ts');
} catch (e) {
  if (e && e.code === 'ERR_UNKNOWN_FILE_EXTENSION') {
    const { register } = await import('tsx/esm/api');
    register();
    await import('./world-prerender.worker.ts?tsx'); // new specifier: the failed import above stays cached
  } else throw e;
}
