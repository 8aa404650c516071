import {
  BinaryBody,
  CsvReportAnswer,
  CsvReportBody,
  dbId,
  ErrorBody,
  FileLinkAnswer,
  SlideReportAnswer,
  SlideReportBody,
  SummaryReportBody,
} from '@crp/contracts';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { RouteApp } from '../../lib/route-app.js';
import { z } from 'zod';
import type { OpenedFile } from '../../infra/file-store.js';
import { parseRange } from '../../lib/byte-range.js';
import { AppError } from '../../lib/errors.js';
import { caller, TOKEN_SECURITY } from '../../plugins/auth.js';

const errors = { 400: ErrorBody.passthrough(), 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };

/**
 * Sends a stored file as a stream from its storage (the local folder or the database: never whole in memory), with
 * Content-Length, and one byte range when the request asks for it (206; 416 outside the file).
 */
function sendStored(reply: FastifyReply, rangeHeader: string | undefined, f: OpenedFile, disposition: 'inline' | 'attachment') {
  void reply
    .header('content-type', f.contentType)
    .header('content-disposition', `${disposition}; filename="${f.filename}"`)
    .header('cache-control', 'private, no-store')
    .header('accept-ranges', 'bytes');
  if (f.sha256) void reply.header('etag', `"${f.sha256}"`);
  const range = rangeHeader ? parseRange(rangeHeader, f.bytes) : 'ignore';
  if (range === null) {
    void reply.header('content-range', `bytes */${f.bytes}`);
    throw new AppError(416, `range: '${rangeHeader}' is outside the file (${f.bytes} bytes).`, [{ field: 'range', message: 'not satisfiable' }]);
  }
  if (range === 'ignore') return reply.header('content-length', f.bytes).send(f.stream() as never);
  return reply
    .code(206)
    .header('content-range', `bytes ${range.start}-${range.end}/${f.bytes}`)
    .header('content-length', range.end - range.start + 1)
    .send(f.stream(range) as never);
}

/** The CSV, summary and slide reports: each answers a download link. */
function exportRequestRoutes(app: RouteApp) {
  const { exports, reports } = app.services;
  app.post(
    '/api/v2/download_csv_report/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Exports'],
        summary: 'Asset x hazard x scenario x year rows with intensity, score and losses, as an .xlsx link and inline rows',
        description:
          'Text cells are escaped against formula injection: an apostrophe before = + - @ (tab, CR) at the start of a cell and after ; , or a tab inside it. 409 while the analysis is not finished.',
        security: TOKEN_SECURITY,
        body: CsvReportBody,
        response: { 200: CsvReportAnswer, ...errors },
      },
    },
    async (req) => exports.csvReport(caller(req), req.body),
  );

  app.post(
    '/api/v2/summary_report/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Exports'],
        summary: 'Portfolio summary workbook (.xlsx link)',
        security: TOKEN_SECURITY,
        body: SummaryReportBody,
        response: { 200: FileLinkAnswer, ...errors },
      },
    },
    async (req) => exports.summaryReport(caller(req), req.body.project_name, req.body.analysis_type, req.body.has_mitigation ?? true),
  );

  app.post(
    '/api/v2/generate_pdf_report/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Exports'],
        summary: 'The slide report (landscape PDF and the same deck as .pptx), made by a job',
        description:
          'Waits up to 20 s for the job; `url` (PDF) and `pptx_url` work at once and wait for the job themselves when it is still running. ' +
          'The web app opens `url` in a new tab after 3 s (spec 000 §9). with_content picks the With Content / Without Content variant. 409 while the analysis is not finished.',
        security: TOKEN_SECURITY,
        body: SlideReportBody,
        response: { 200: SlideReportAnswer, ...errors },
      },
    },
    async (req) => reports.request(caller(req), req.body),
  );
}

/** Downloads behind expiring links (reports and stored files). */
// eslint-disable-next-line max-lines-per-function -- a route table (schemas and one-line handlers, each one service call), not request-path logic
function downloadRoutes(app: RouteApp) {
  const { files, reports } = app.services;
  app.get(
    '/api/v2/reports/:token/:filename',
    {
      schema: {
        tags: ['Exports'],
        summary: 'A slide report behind its link (.pdf or .pptx by the file name); no token header needed: the link is the secret',
        description:
          'A 24-hour bearer link: whoever holds the URL can open the report, without a session, for 24 hours after it was made; then 410. Answers the file when the report is made; while its job still runs (after waiting up to 20 s) a small page that reloads itself.',
        params: z.object({
          token: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, 'token is not a report link'),
          filename: z
            .string()
            .max(200)
            .regex(/\.(pdf|pptx)$/, 'filename must end in .pdf or .pptx'),
        }),
        headers: z.object({ range: z.string().max(200).optional() }),
        response: {
          200: BinaryBody('The report: a PDF (application/pdf) or a PowerPoint deck (.pptx), by the file name'),
          206: BinaryBody('The requested byte range of the report'),
          416: ErrorBody,
          202: z.string().describe('text/html: a page that reloads itself every 3 s while the report job runs'),
          404: ErrorBody,
          409: ErrorBody,
          410: ErrorBody,
          400: ErrorBody,
        },
        produces: ['application/pdf', 'application/vnd.openxmlformats-officedocument.presentationml.presentation', 'text/html'],
      },
    },
    async (req, reply) => {
      const format = req.params.filename.endsWith('.pptx') ? 'pptx' : 'pdf';
      const r = await reports.open(req.params.token, format, files);
      if (r.pending) {
        return reply
          .status(202)
          .header('content-type', 'text/html; charset=utf-8')
          .header('cache-control', 'no-store')
          .header('refresh', '3')
          .send(
            `<!doctype html><meta charset="utf-8"><title>Generating report...</title><meta http-equiv="refresh" content="3"><body style="font-family:sans-serif;padding:40px">Generating the report (${r.status})... this page reloads by itself.</body>`,
          );
      }
      return sendStored(reply, req.headers.range, r.file, format === 'pdf' ? 'inline' : 'attachment');
    },
  );

  app.post(
    '/api/report/get_link/:userId/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Exports'],
        summary: 'A fresh 24-hour link to a file you generated, from its earlier link (the old link stops working)',
        security: TOKEN_SECURITY,
        params: z.object({ userId: dbId('userId', { coerce: true }) }),
        body: z.object({ url: z.string({ error: 'url is required' }).trim().min(20, 'url must be a file link').max(500, 'url is too long') }),
        response: { 201: FileLinkAnswer, ...errors, 410: ErrorBody },
      },
    },
    async (req, reply) => {
      app.services.projectList.assertSelf(caller(req), req.params.userId);
      return reply.status(201).send(await files.renew(caller(req).id, req.body.url));
    },
  );

  app.get(
    '/api/v2/files/:token/:filename',
    {
      schema: {
        tags: ['Exports'],
        summary: 'A generated file behind its expiring link (no token header needed: the link is the secret)',
        description:
          'A 24-hour bearer link: whoever holds the URL can download the file, without a session, until `expires_at` (24 hours after it was made or renewed); then 410. `POST api/report/get_link/{userId}/` gives a fresh link (the old one stops working).',
        params: z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, 'token is not a file link'), filename: z.string().max(200) }),
        headers: z.object({ range: z.string().max(200).optional() }),
        response: {
          200: BinaryBody('The generated file (e.g. .xlsx), sent as an attachment'),
          206: BinaryBody('The requested byte range of the file'),
          404: ErrorBody,
          410: ErrorBody,
          416: ErrorBody,
          400: ErrorBody,
        },
        produces: ['application/octet-stream'],
      },
    },
    async (req, reply) => {
      return sendStored(reply, req.headers.range, await files.open(req.params.token), 'attachment');
    },
  );
}

export const exportRoutes: FastifyPluginAsyncZod = async (app) => {
  exportRequestRoutes(app);
  downloadRoutes(app);
};
