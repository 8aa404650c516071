import type { FastifyBaseLogger } from 'fastify';
import { mapTileDir, type Config } from './config.js';
import type { DatabaseHandle } from './infra/db/database.js';
import { UsersRepository } from './modules/accounts/users.repository.js';
import { AccountService } from './modules/accounts/account.service.js';
import { AccountRepository } from './modules/accounts/account.repository.js';
import { ApiTokenRepository } from './modules/accounts/api-token.repository.js';
import { ApiTokenService } from './modules/accounts/api-token.service.js';
import { AuthService } from './modules/accounts/auth.service.js';
import { AuthRepository } from './modules/accounts/auth.repository.js';
import { MailService } from './infra/mail.service.js';
import { MfaService } from './modules/accounts/mfa.service.js';
import { MfaRepository } from './modules/accounts/mfa.repository.js';
import { NotificationService } from './modules/accounts/notification.service.js';
import { NotificationRepository } from './modules/accounts/notification.repository.js';
import { PasswordHasher } from './modules/accounts/password.js';
import { PasswordResetService } from './modules/accounts/password-reset.service.js';
import { PasswordResetRepository } from './modules/accounts/password-reset.repository.js';
import { RecoveryCodes } from './modules/accounts/recovery-codes.js';
import { TierGate } from './modules/accounts/tier.service.js';
import { UpgradeRequestService } from './modules/upgrades/upgrade-request.service.js';
import { JobQueue } from './infra/job-queue.js';
import { ProjectService } from './modules/projects/project.service.js';
import { ProjectListService } from './modules/projects/project-list.service.js';
import { ProjectListRepository } from './modules/projects/project-list.repository.js';
import { FileStore } from './infra/file-store.js';
import { ExportService } from './modules/results/export.service.js';
import { ResultsService } from './modules/results/results.service.js';
import { ResultsRepository } from './modules/results/results.repository.js';
import { CogFileCache } from './modules/hazards/cog-cache.js';
import { DashboardService } from './modules/dashboard/dashboard.service.js';
import { DashboardRepository } from './modules/dashboard/dashboard.repository.js';
import { AssetEditService } from './modules/projects/asset-edit.service.js';
import { analysePortfolioJob, analysePortfolioPartJob } from './modules/analysis/analysis.jobs.js';
import { FaqService } from './modules/help/faq.service.js';
import { FaqRepository } from './modules/help/faq.repository.js';
import { ReportService, slideReportJob } from './modules/reports/report.service.js';
import { ReportRepository } from './modules/reports/report.repository.js';
import { TcfdService } from './modules/tcfd/tcfd.service.js';
import { TcfdRepository } from './modules/tcfd/tcfd.repository.js';
import { CarbonRepository } from './modules/carbon/carbon.repository.js';
import { CarbonService } from './modules/carbon/carbon.service.js';
import { RealEstateRepository } from './modules/realestate/realestate.repository.js';
import { PropertyRiskService, propertyRiskJob } from './modules/realestate/property-risk.service.js';
import { MapRepository } from './modules/maps/map.repository.js';
import { MapService } from './modules/maps/map.service.js';
import { CompanySearchService } from './modules/carbon/company-search.service.js';
import { CompanySearchRepository } from './modules/carbon/company-search.repository.js';
import { OwnLayersRepository } from './modules/own-layers/own-layers.repository.js';
import { OwnLayerService } from './modules/own-layers/own-layer.service.js';
import { ParseSandbox } from './lib/parse-sandbox.js';
import { ProjectAccessRepository } from './modules/access/project-access.repository.js';
import { ProjectAccessPolicy } from './modules/access/project-access.policy.js';
import { PortfolioAssetsRepository } from './modules/projects/portfolio-assets.repository.js';
import { PortfolioAssetsService } from './modules/projects/portfolio-assets.service.js';
import { HazardService } from './modules/hazards/hazard.service.js';
import { BuildingDamageService } from './modules/realestate/building-damage.service.js';
import { SystemService } from './modules/system/system.service.js';
import { SystemRepository } from './modules/system/system.repository.js';
import { GeoService } from './modules/geo/geo.service.js';
import { PublishedDatasetService } from './modules/published/published-datasets.service.js';
import { BasemapService } from './modules/maps/basemap.service.js';

/** Wires services once per app; routes reach them through `app.services`. */
// eslint-disable-next-line max-lines-per-function -- the composition root: one line of wiring per service, read top to bottom
export function createServices(
  database: Pick<DatabaseHandle, 'db' | 'kind'>,
  config: Config,
  log: FastifyBaseLogger,
  /** warmDashboard: load each finished analysis into the dashboard's cache (the server; not a separate job worker). */
  options: { warmDashboard?: boolean } = {},
) {
  const { db } = database;
  const users = new UsersRepository(db);
  const mail = new MailService(db, config, log);
  const notifications = new NotificationService(new NotificationRepository(db));
  const passwords = new PasswordHasher(config);
  const mfa = new MfaService(new MfaRepository(db), users, mail, new RecoveryCodes(db));
  const apiTokens = new ApiTokenService(new ApiTokenRepository(db), users, config);
  const authRepository = new AuthRepository(db);
  const auth = new AuthService(authRepository, users, passwords, mail, notifications, mfa, config, apiTokens);
  const passwordReset = new PasswordResetService(new PasswordResetRepository(db), users, authRepository, auth, passwords, mail, config, log);
  const accounts = new AccountService(new AccountRepository(db), users, notifications);
  // The embedded database belongs to this one process: a job still marked running at start-up was cut off by a crash.
  const jobs = new JobQueue(db, log, {
    concurrency: config.JOB_CONCURRENCY,
    pollMs: 500,
    staleAfterMs: config.JOB_STALE_AFTER_MS,
    soleWorker: !config.DATABASE_URL,
  });
  /** Who may see and do what to a project: every project-scoped service asks it. */
  const projectAccess = new ProjectAccessPolicy(new ProjectAccessRepository(db));
  // users' files are read in child processes with memory and time limits (issue 32)
  const parser = new ParseSandbox(
    [new URL('./modules/own-layers/own-layer.parse.ts', import.meta.url), new URL('./modules/projects/asset-import.parse.ts', import.meta.url)],
    { memoryMb: config.PARSE_MEMORY_MB, timeoutS: config.PARSE_TIMEOUT_S, concurrency: config.PARSE_CONCURRENCY },
    log,
  );
  const projects = new ProjectService(db, users, jobs, config, parser);
  const published = new PublishedDatasetService(db);
  const ownLayers = new OwnLayerService(db, new OwnLayersRepository(db), users, jobs, config, log, parser, published);
  const ownLayersOf = (projectId: number) => ownLayers.registryForProject(projectId);
  const publishedOf = () => published.current();
  const projectList = new ProjectListService(db, new ProjectListRepository(db), users, projectAccess);
  const files = new FileStore(db, config);
  const decodeLimit = { maxDecodedBytes: config.RESULTS_DECODE_MAX_MB * 1_048_576 };
  const tiers = new TierGate(users);
  const exports = new ExportService(db, projectAccess, files, decodeLimit, ownLayers, tiers);
  const dashboard = new DashboardService(
    db,
    new DashboardRepository(db),
    projectAccess,
    users,
    { resultsCacheMb: config.DASHBOARD_RESULTS_CACHE_MB, answerCacheMb: config.DASHBOARD_ANSWER_CACHE_MB, ...decodeLimit },
    ownLayers,
    log,
  );
  // When an analysis is stored, the dashboard decodes it right away, so the first query after it is not a cold read.
  const onStored = options.warmDashboard === false ? undefined : (projectId: number) => dashboard.warm(projectId);
  // Large analyses are split into parts when workers share the queue (PostgreSQL), or always/never by setting.
  const fanOut = config.ANALYSIS_FAN_OUT === 'always' || (config.ANALYSIS_FAN_OUT === 'auto' && !!config.DATABASE_URL);
  jobs.register(
    analysePortfolioJob(db, log, {
      fanOut,
      partChunks: config.ANALYSIS_PART_CHUNKS,
      enqueue: (type, payload, tx) => jobs.enqueue(type, payload, tx),
      onStored,
      ownLayers: ownLayersOf,
      published: publishedOf,
    }),
  );
  jobs.register(analysePortfolioPartJob(db, log, onStored, ownLayersOf, publishedOf));
  const portfolioAssetsRepo = new PortfolioAssetsRepository(db);
  const assetEdits = new AssetEditService(db, portfolioAssetsRepo, projectAccess, users, jobs);
  const reportRepo = new ReportRepository(db);
  jobs.register(slideReportJob(reportRepo, users, dashboard, files, log));
  const reports = new ReportService(reportRepo, projectAccess, jobs);
  const carbon = new CarbonService(db, new CarbonRepository(db), users, projectAccess, config, parser);
  const realEstate = new RealEstateRepository(db);
  jobs.register(propertyRiskJob(db, realEstate, log));
  const propertyRisk = new PropertyRiskService(db, realEstate, users, projectAccess, jobs);
  const maps = new MapService(db, new MapRepository(db), projectAccess, files, { tileDir: mapTileDir(config), log });
  const results = new ResultsService(db, new ResultsRepository(db), projectAccess, decodeLimit, ownLayers, published, tiers);
  const portfolioAssets = new PortfolioAssetsService(db, portfolioAssetsRepo, projectAccess, jobs);
  const hazards = new HazardService(projectAccess, ownLayers, published);
  const buildingDamage = new BuildingDamageService(projectAccess, ownLayers, published);
  return {
    parser,
    system: new SystemService(new SystemRepository(db), database.kind, config),
    geo: new GeoService(projects),
    projectAccess,
    portfolioAssets,
    hazards,
    buildingDamage,
    ownLayers,
    published,
    basemap: new BasemapService(db, config),
    carbon,
    results,
    cogFiles: new CogFileCache(config.COG_CACHE_MB * 2 ** 20),
    users,
    mail,
    notifications,
    passwords,
    mfa,
    auth,
    passwordReset,
    accounts,
    upgrades: new UpgradeRequestService(db, users, notifications, mail, config.PUBLIC_URL, log),
    apiTokens,
    jobs,
    projects,
    projectList,
    files,
    exports,
    dashboard,
    assetEdits,
    reports,
    propertyRisk,
    maps,
    tcfd: new TcfdService(new TcfdRepository(db), projectAccess),
    companies: new CompanySearchService(new CompanySearchRepository(db)),
    faq: new FaqService(new FaqRepository(db)),
  };
}

export type Services = ReturnType<typeof createServices>;
