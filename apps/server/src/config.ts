import { existsSync } from 'node:fs';
import { totalmem } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OWN_LAYER_DEFAULT_MAX_BYTES, OWN_LAYER_DEFAULT_MAX_PIXELS, OWN_LAYERS_DEFAULT_PER_COMPANY } from '@crp/contracts';
import { z } from 'zod';

/** Repository root, so that relative defaults work whatever the working directory. */
export const REPO_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');

const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => v === 'true' || v === '1' || v === 'yes');

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  /** Embedded PGlite data directory; `memory://` keeps it in memory (tests). */
  DATA_DIR: z.string().default('./.data'),
  /** When set, PostgreSQL is used instead of the embedded PGlite. */
  DATABASE_URL: z.string().url().optional(),
  /** SMTP transport, e.g. smtp://127.0.0.1:2525. Without it e-mail goes to the local outbox table and the log. */
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Climate Risk Platform <no-reply@climate-risk.local>'),
  PUBLIC_URL: z.string().default('http://localhost:8080'),
  WEB_DIST: z.string().default(resolve(REPO_ROOT, 'apps/web/dist')),
  SEED_DEMO: bool.default(true),
  /**
   * Street-level basemap (docs/maps.md "Basemap"). Unset: the offline Natural Earth basemap. BASEMAP_STYLE_URL is a
   * MapLibre style JSON (http(s) URL, or a path on this server starting with /); BASEMAP_PMTILES is an OpenStreetMap
   * vector-tile archive (.pmtiles, Protomaps or OpenMapTiles layers): a local file path, served by this server with
   * HTTP Range requests, or an http(s) URL. BASEMAP_ORIGINS lists further origins the style fetches from (tiles,
   * glyphs, sprites), comma-separated, for the Content-Security-Policy.
   */
  BASEMAP_STYLE_URL: z
    .string()
    .trim()
    .max(2000)
    .optional()
    .refine((v) => !v || v.startsWith('/') || /^https?:\/\/[^/]/.test(v), 'must be an http(s) URL or a path starting with /'),
  BASEMAP_PMTILES: z
    .string()
    .trim()
    .max(2000)
    .optional()
    .refine((v) => !v || /^https?:\/\/[^/]/.test(v) || v.endsWith('.pmtiles'), 'must be an http(s) URL or the path of a .pmtiles file'),
  BASEMAP_ORIGINS: z
    .string()
    .trim()
    .optional()
    .transform((v) =>
      v
        ? v
            .split(',')
            .map((o) => o.trim())
            .filter(Boolean)
        : [],
    )
    .refine((list) => list.every((o) => /^https?:\/\/[^/]+$/.test(o)), 'must be origins like https://tiles.example.com, comma-separated'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: bool.default(false),
  TOKEN_TTL_DAYS: z.coerce.number().int().positive().default(30),
  /**
   * A session unused for this long ends (ASVS V3.3.2: 30 minutes at level 2); 0 turns the idle time-out off. Calls the
   * browser makes by itself (the page ping every 5 minutes) do not count as use.
   */
  SESSION_IDLE_MINUTES: z.coerce.number().min(0).default(30),
  /**
   * A session ends this long after its login however much it is used (ASVS V3.3.2: 12 hours at level 2), so a token in
   * a QGIS layer that polls tiles cannot keep a session alive for TOKEN_TTL_DAYS. Fractions allowed (0.5 = 30 minutes).
   * Personal API tokens have their own expiry and are not capped by it.
   */
  SESSION_MAX_HOURS: z.coerce.number().positive().default(12),
  /** The longest lifetime a user may give a personal API token (read-only tokens for QGIS and notebooks), days. */
  API_TOKEN_MAX_DAYS: z.coerce.number().int().min(1).max(3650).default(365),
  LOGIN_THROTTLE_WINDOW_MINUTES: z.coerce.number().int().positive().default(15),
  LOGIN_MAX_FAILURES_PER_USER: z.coerce.number().int().positive().default(5),
  LOGIN_MAX_FAILURES_PER_CLIENT: z.coerce.number().int().positive().default(50),
  /** Largest JSON or form body accepted, in bytes. */
  BODY_LIMIT_BYTES: z.coerce.number().int().positive().default(1_048_576),
  /**
   * Largest uploaded file (and JSON list of locations), in bytes: a million rows of a dozen columns is about 120-200 MB
   * of CSV (issue 22).
   */
  UPLOAD_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(256 * 1_048_576),
  OWN_LAYER_MAX_BYTES: z.coerce.number().int().positive().default(OWN_LAYER_DEFAULT_MAX_BYTES),
  OWN_LAYER_MAX_PIXELS: z.coerce.number().int().positive().default(OWN_LAYER_DEFAULT_MAX_PIXELS),
  OWN_LAYERS_PER_COMPANY: z.coerce.number().int().min(0).default(OWN_LAYERS_DEFAULT_PER_COMPANY),
  /** Most memory one company's own layers may take decoded (MiB; 4 bytes per pixel): an upload past it answers 413. */
  OWN_LAYER_COMPANY_MB: z.coerce.number().int().positive().default(256),
  /** Memory for loaded own layers across companies (MiB); the least recently used company's layers are let go first. */
  OWN_LAYER_CACHE_MB: z.coerce.number().int().positive().default(1024),
  /**
   * Users' files (own-layer GeoTIFFs, asset and carbon uploads) are read in child processes (issue 32): the most
   * memory one file may take while it is read beyond its own bytes (MiB), the most time (s), and files read at once.
   */
  PARSE_MEMORY_MB: z.coerce.number().int().min(64).default(512),
  PARSE_TIMEOUT_S: z.coerce.number().positive().default(60),
  PARSE_CONCURRENCY: z.coerce.number().int().positive().default(2),
  /** Most asset rows accepted in one upload or JSON list. */
  UPLOAD_MAX_ROWS: z.coerce.number().int().positive().default(1_000_000),
  /** Jobs run at once by one process (analyses are CPU-bound: keep this near the core count). */
  JOB_CONCURRENCY: z.coerce.number().int().positive().default(1),
  /** Memory for decoded analyses the dashboard keeps (MiB; a 10,000-asset analysis is about 200 MiB). */
  DASHBOARD_RESULTS_CACHE_MB: z.coerce.number().int().min(0).default(768),
  /**
   * Most memory one stored analysis may take once decoded for the dashboard, downloads and reports (MiB; about 24 KB per
   * asset: 2.4 GB per 100,000). 0: half of the machine's memory. A larger project is refused with a clear message
   * instead of exhausting the memory of the server (issue 22).
   */
  RESULTS_DECODE_MAX_MB: z.coerce.number().int().min(0).default(0),
  /**
   * At start-up, decode the most recently analysed projects into the dashboard's memory in the background (as many as
   * DASHBOARD_RESULTS_CACHE_MB holds), so the first dashboard query after a restart does not wait for the decode.
   */
  DASHBOARD_WARM_ON_START: bool.default(true),
  /** Memory for finished dashboard answers (MiB). */
  DASHBOARD_ANSWER_CACHE_MB: z.coerce.number().int().min(0).default(128),
  /**
   * Memory for rendered hazard-layer COG files (MiB): a file is rendered once per layer and parameters and its Range
   * requests are answered from the copy (issue 36 item 4); least recently used files leave first. 0: no cache.
   */
  COG_CACHE_MB: z.coerce.number().int().min(0).default(64),
  /**
   * Compress JSON answers over 64 KiB (br or gzip, by Accept-Encoding). Off by default: on loopback and on a starved CPU
   * it costs more than it saves (docs/performance-history.md "Load"); turn it on when browsers reach the server over a real
   * network without a compressing reverse proxy in front.
   */
  HTTP_COMPRESSION: bool.default(false),
  /** A running job whose worker sent no heartbeat for this long is taken as dead and re-queued (PostgreSQL mode). */
  JOB_STALE_AFTER_MS: z.coerce.number().int().min(2_000).default(60_000),
  /**
   * A portfolio analysis with more than this many 500-asset chunks to compute is split into parts of this many chunks,
   * each a job any worker may claim (scale-out over `npm run worker` processes; see docs/reliability.md).
   */
  ANALYSIS_PART_CHUNKS: z.coerce.number().int().min(1).default(8),
  /** When to split large analyses into parts: auto (when the queue is shared, i.e. PostgreSQL), always, never. */
  ANALYSIS_FAN_OUT: z.enum(['auto', 'always', 'never']).default('auto'),
  /** Run the job worker inside the server process (default with PGlite; set false when separate workers run). */
  RUN_JOBS_IN_PROCESS: bool.optional(),
  /**
   * World-view map tiles (zooms 0-4, docs/maps.md): the folder of their pack files (default DATA_DIR/tiles; none with
   * a memory:// DATA_DIR, where they stay in memory), and whether the server renders them in the background at start.
   */
  MAP_TILE_DIR: z.string().optional(),
  MAP_PRERENDER_WORLD: bool.default(true),
  /**
   * Set by the supervisor of `npm start` and `npm run worker` (scripts/supervise.mjs) when it starts this process
   * again after a crash: how many restarts so far, and why and when the last one happened (the health check reports them).
   */
  SUPERVISOR_RESTARTS: z.coerce.number().int().min(0).default(0),
  SUPERVISOR_LAST_RESTART_REASON: z.string().max(200).optional(),
  SUPERVISOR_LAST_RESTART_AT: z.string().datetime().optional(),
  /** Argon2id memory cost in KiB (OWASP 2023 minimum for argon2id: 19 MiB, t=2). */
  ARGON2_MEMORY_KIB: z.coerce.number().int().min(8192).default(19_456),
  ARGON2_TIME_COST: z.coerce.number().int().min(1).default(2),
});

export type Config = z.infer<typeof EnvSchema>;

/** Reads the environment once, failing fast with every problem listed. Nothing else reads process.env. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const config = { ...parsed.data, ...overrides };
  if (config.RESULTS_DECODE_MAX_MB === 0) config.RESULTS_DECODE_MAX_MB = Math.floor(totalmem() / 2 / 1_048_576);
  if (!config.DATA_DIR.startsWith('memory://')) config.DATA_DIR = resolve(REPO_ROOT, config.DATA_DIR);
  if (config.BASEMAP_PMTILES && !/^https?:/.test(config.BASEMAP_PMTILES)) {
    config.BASEMAP_PMTILES = resolve(REPO_ROOT, config.BASEMAP_PMTILES);
    if (!existsSync(config.BASEMAP_PMTILES)) throw new Error(`Invalid configuration:\n  BASEMAP_PMTILES: no file at ${config.BASEMAP_PMTILES}`);
  }
  return config;
}

/** The exit code of a process whose configuration is invalid: its supervisor does not restart it (scripts/supervise.mjs). */
export const EXIT_CONFIG = 78;

/** loadConfig for the entry points (main.ts, worker.ts): an invalid configuration is its lines on stderr and exit 78. */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(EXIT_CONFIG);
  }
}

/** Folder of the world-view tile packs: MAP_TILE_DIR, else DATA_DIR/tiles; null (memory only) for a memory:// DATA_DIR. */
export function mapTileDir(config: Pick<Config, 'MAP_TILE_DIR' | 'DATA_DIR'>): string | null {
  if (config.MAP_TILE_DIR) return resolve(config.MAP_TILE_DIR);
  return config.DATA_DIR.startsWith('memory://') ? null : resolve(config.DATA_DIR, 'tiles');
}
