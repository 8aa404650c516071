import { DashboardBody, safeFileName, type SlideReportBody } from '@crp/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { ReportsTable } from '../../infra/db/schema.js';
import type { AuthUser } from '../../lib/auth-context.js';
import { newToken, sha256 } from '../../lib/crypto.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { DashboardService } from '../dashboard/dashboard.service.js';
import type { FileStore, OpenedFile } from '../../infra/file-store.js';
import type { JobDefinition, JobQueue } from '../../infra/job-queue.js';
import type { ProjectAccessPolicy } from '../access/project-access.policy.js';
import type { UsersRepository } from '../accounts/users.repository.js';
import { renderDeckPdf } from './render-pdf.js';
import { renderDeckPptx } from './render-pptx.js';
import { buildSlideDeck } from './slide-deck.js';
import type { ReportRepository } from './report.repository.js';

export const SLIDE_REPORT_JOB = 'slide_report';
const PDF_TYPE = 'application/pdf';
const PPTX_TYPE = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';
/** How long the request (and a visit of the link) waits for the job before answering "still generating". */
const WAIT_MS = 20_000;

export type ReportFormat = 'pdf' | 'pptx';
type ReportStatus = ReportsTable['status'];

/** The report's file name without extension, as the file store will serve it. */
const fileBase = (projectName: string) => safeFileName(`${projectName.slice(0, 60)}_climate_risk_report`);

/**
 * The slide report (spec 000 §7 "generate_pdf_report", issue 8): a job renders the deck as PDF and PPTX from the
 * dashboard answer; the answer's links work at once and wait for the job when it is still running.
 */
export class ReportService {
  constructor(
    private readonly repo: ReportRepository,
    private readonly policy: ProjectAccessPolicy,
    private readonly jobs: JobQueue,
  ) {}

  async request(caller: AuthUser, body: SlideReportBody) {
    const { project } = await this.policy.require(caller, body.project_id, 'download');
    if (project.status !== 'done') {
      throw new AppError(409, `The analysis of '${project.name}' is ${project.status}: the report can be made when it is done.`, [
        { field: 'project_id', message: `analysis is ${project.status}` },
      ]);
    }
    const token = newToken();
    const reportId = await this.repo.insert({
      token_hash: sha256(token),
      owner_id: caller.id,
      project_id: project.id,
      analysis_type: body.analysis_type ?? null,
      scenario: body.scenario ?? null,
      year: body.year ?? null,
      with_content: body.with_content,
    });
    await this.jobs.enqueue(SLIDE_REPORT_JOB, { reportId });
    const status = await this.waitFor(reportId, WAIT_MS);
    const base = `/api/v2/reports/${token}/${fileBase(project.name)}`;
    return {
      url: `${base}.pdf`,
      pptx_url: `${base}.pptx`,
      status: status.status,
      slides: status.slides,
      variant: body.with_content ? 'With Content' : 'Without Content',
      error: status.status === 'failed' ? status.message : null,
    };
  }

  private async waitFor(reportId: number, ms: number) {
    const deadline = Date.now() + ms;
    for (;;) {
      const row = await this.repo.status(reportId);
      if (!row) throw notFound('The report was deleted with its project.');
      if (row.status === 'done' || row.status === 'failed' || Date.now() >= deadline) return row;
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /** The report behind a link: its file when done; `pending` while the job runs (after waiting a while for it). */
  async open(token: string, format: ReportFormat, files: FileStore): Promise<{ pending: true; status: ReportStatus } | { pending: false; file: OpenedFile }> {
    const id = await this.repo.idByTokenHash(sha256(token));
    if (id === undefined) throw notFound('No such report.');
    const r = await this.waitFor(id, WAIT_MS);
    if (r.status === 'failed') throw new AppError(409, `The report could not be made: ${r.message ?? 'unknown error'}. Generate it again.`);
    if (r.status !== 'done') return { pending: true, status: r.status };
    const fileId = format === 'pdf' ? r.pdf_file_id : r.pptx_file_id;
    if (fileId === null) throw new AppError(410, 'The report file has expired. Generate the report again.');
    return { pending: false, file: await files.openById(fileId) };
  }
}

/** The job that renders a requested slide report as the requesting user sees the project. */
export function slideReportJob(
  repo: ReportRepository,
  users: UsersRepository,
  dashboard: DashboardService,
  files: FileStore,
  log: FastifyBaseLogger,
): JobDefinition<{ reportId: number }> {
  const set = (id: number, fields: Parameters<ReportRepository['set']>[1]) => repo.set(id, fields);
  return {
    type: SLIDE_REPORT_JOB,
    maxAttempts: 2,
    retryDelaySeconds: 2,
    async run({ reportId }, ctx) {
      const report = await repo.byId(reportId);
      if (!report) return; // deleted with its project
      const user = await users.userById(report.owner_id);
      const company = user && (await users.companyById(user.company_id));
      if (!user || !company) return; // the user was deleted meanwhile (and the report with them)
      await set(reportId, { status: 'running' });
      const caller: AuthUser = { id: user.id, companyId: user.company_id, username: user.username, isCompanyAdmin: user.is_company_admin, tokenId: 0 };
      const answer = await dashboard.query(
        caller,
        DashboardBody.parse({
          project_id: report.project_id,
          analysis_type: report.analysis_type ?? undefined,
          // the scenario and year the user chose (issue 37 item 7); left out, the user's saved dashboard defaults
          scenario: report.scenario ?? undefined,
          year: report.year ?? undefined,
          with_content: report.with_content,
        }),
      );
      await ctx.progress(0.3, 'Dashboard figures ready');
      const deck = buildSlideDeck(answer, { withContent: report.with_content, generatedAt: new Date(), companyName: company.name });
      const pdf = await renderDeckPdf(deck);
      await ctx.progress(0.7, 'PDF rendered');
      const pptx = await renderDeckPptx(deck);
      const base = fileBase(answer.project.name);
      const pdfFile = await files.store(report.owner_id, `${base}.pdf`, PDF_TYPE, pdf);
      const pptxFile = await files.store(report.owner_id, `${base}.pptx`, PPTX_TYPE, pptx);
      await set(reportId, {
        status: 'done',
        pdf_file_id: pdfFile.id,
        pptx_file_id: pptxFile.id,
        slides: deck.slides.length,
        finished_at: new Date(),
        message: null,
      });
      log.info({ reportId, slides: deck.slides.length, pdfBytes: pdf.length, pptxBytes: pptx.length }, 'slide report made');
    },
    async onFailed({ reportId }, error) {
      await set(reportId, { status: 'failed', message: error.slice(0, 500), finished_at: new Date() });
    },
  };
}
