import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { DB } from '../db/database.js';
import { UsersRepository } from '../repositories/users.repository.js';
import { AccountService } from './account.service.js';
import { AuthService } from './auth.service.js';
import { MailService } from './mail.service.js';
import { MfaService } from './mfa.service.js';
import { NotificationService } from './notification.service.js';
import { PasswordHasher } from './password.js';
import { JobQueue } from './job-queue.js';
import { ProjectService } from './project.service.js';
import { ProjectListService } from './project-list.service.js';
import { FileStore } from './file-store.js';
import { ExportService } from './export.service.js';
import { DashboardService } from './dashboard.service.js';
import { AssetEditService } from './asset-edit.service.js';
import { analysePortfolioJob, analysePortfolioPartJob } from '../analysis/analysis.service.js';
import { FaqService } from './faq.service.js';
import { ReportService, slideReportJob } from '../reports/report.service.js';
import { CarbonRepository } from '../repositories/carbon.repository.js';
import { CarbonService } from './carbon.service.js';
import { RealEstateRepository } from '../repositories/realestate.repository.js';
import { PropertyRiskService, propertyRiskJob } from './property-risk.service.js';
import { MapRepository } from '../repositories/map.repository.js';
import { MapService } from './map.service.js';
import { CompanySearchService } from './company-search.service.js';
import { OwnLayersRepository } from '../repositories/own-layers.repository.js';
import { OwnLayerService } from './own-layer.service.js';

/** Wires services once per app; routes reach them through `app.services`. */
export function createServices(
  db: DB,
  config: Config,
  log: FastifyBaseLogger,
  /** warmDashboard: load each finished analysis into the dashboard's cache (the server; not a separate job worker). */
  options: { warmDashboard?: boolean } = {},
) {
  const users = new UsersRepository(db);
  const mail = new MailService(db, config, log);
  const notifications = new NotificationService(db);
  const passwords = new PasswordHasher(config);
  const mfa = new MfaService(db, users, mail);
  const auth = new AuthService(db, users, passwords, mail, notifications, mfa, config);
  const accounts = new AccountService(db, users, notifications);
  // The embedded database belongs to this one process: a job still marked running at start-up was cut off by a crash.
  const jobs = new JobQueue(db, log, { concurrency: config.JOB_CONCURRENCY, pollMs: 500, staleAfterMs: config.JOB_STALE_AFTER_MS, soleWorker: !config.DATABASE_URL });
  const projects = new ProjectService(db, users, jobs, config);
  const ownLayers = new OwnLayerService(db, new OwnLayersRepository(db), users, jobs, config, log);
  const ownLayersOf = (projectId: number) => ownLayers.registryForProject(projectId);
  const projectList = new ProjectListService(db, users, projects);
  const files = new FileStore(db, config);
  const exports = new ExportService(db, projects, files, ownLayers);
  const dashboard = new DashboardService(db, projects, users, { resultsCacheMb: config.DASHBOARD_RESULTS_CACHE_MB, answerCacheMb: config.DASHBOARD_ANSWER_CACHE_MB }, ownLayers);
  // When an analysis is stored, the dashboard decodes it right away, so the first query after it is not a cold read.
  const onStored = options.warmDashboard === false ? undefined : (projectId: number) => dashboard.warm(projectId);
  // Large analyses are split into parts when workers share the queue (PostgreSQL), or always/never by setting.
  const fanOut = config.ANALYSIS_FAN_OUT === 'always' || (config.ANALYSIS_FAN_OUT === 'auto' && !!config.DATABASE_URL);
  jobs.register(analysePortfolioJob(db, log, { fanOut, partChunks: config.ANALYSIS_PART_CHUNKS, enqueue: (type, payload, tx) => jobs.enqueue(type, payload, tx), onStored, ownLayers: ownLayersOf }));
  jobs.register(analysePortfolioPartJob(db, log, onStored, ownLayersOf));
  const assetEdits = new AssetEditService(db, projects, users, jobs);
  jobs.register(slideReportJob(db, users, dashboard, files, log));
  const reports = new ReportService(db, projects, jobs);
  const carbon = new CarbonService(db, new CarbonRepository(db), users, projects, config);
  const realEstate = new RealEstateRepository(db);
  jobs.register(propertyRiskJob(db, realEstate, log));
  const propertyRisk = new PropertyRiskService(db, realEstate, users, projects, jobs);
  const maps = new MapService(db, new MapRepository(db), projects, files);
  return { ownLayers, carbon, users, mail, notifications, passwords, mfa, auth, accounts, jobs, projects, projectList, files, exports, dashboard, assetEdits, reports, propertyRisk, maps, companies: new CompanySearchService(db), faq: new FaqService(db) };
}

export type Services = ReturnType<typeof createServices>;
