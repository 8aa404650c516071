// Loaded by index.html before the app (a classic script runs before module scripts). zod 4 compiles object
// schemas with `new Function` when eval is allowed and probes for it with `Function('')` when a schema is built;
// under our Content-Security-Policy (script-src 'self', no 'unsafe-eval') that probe is a CSP violation on every
// page. zod reads this global setting (its `z.config`), so it validates without generated code and never probes.
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });
