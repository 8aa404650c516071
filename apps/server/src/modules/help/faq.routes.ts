import { ErrorBody } from '@crp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { notFound, unauthorized } from '../../lib/errors.js';

/**
 * FAQ help centre (spec 001 §2.8, §7 FAQ). The token is optional on these calls (spec 001 §6): without one they
 * answer; with a valid one they answer the same; an invalid or expired one is refused (401), as on every other call,
 * so a stale session is noticed rather than silently ignored.
 */
const OPTIONAL_TOKEN: { [scheme: string]: string[] }[] = [{}, { TokenAuth: [] }];
const errors = { 400: ErrorBody.passthrough(), 401: ErrorBody, 404: ErrorBody };

const FaqItem = z.object({
  id: z.number().int(),
  key: z.string().describe('Stable key of the item'),
  title: z.string().describe('The question'),
  content: z.string().describe('The answer as HTML, sanitised on the server (allow-list of tags and attributes)'),
  attachments: z.array(z.string()).describe('Image URLs shown with the answer'),
  keywords: z.array(z.string()).describe('Keywords the item is filed under'),
});

const SearchQuery = z.object({
  search: z
    .string({ error: 'search is required: the words to look for' })
    .trim()
    .min(1, 'search must not be empty')
    .max(200, 'search must be at most 200 characters'),
});

const KeywordBody = z.object({
  keywords: z
    .array(
      z
        .string({ error: 'keywords must be a list of keyword names' })
        .trim()
        .min(1, 'keywords must not contain an empty name')
        .max(100, 'a keyword name is at most 100 characters'),
      { error: 'keywords is required: a list of keyword names, e.g. {"keywords": ["Floods"]}' },
    )
    .min(1, 'keywords must name at least one keyword')
    .max(20, 'keywords may name at most 20 keywords'),
});

export const faqRoutes: FastifyPluginAsyncZod = async (app) => {
  const { faq } = app.services;

  /** Optional authentication: no Authorization header is fine; a header must carry a valid token. */
  async function optionalAuth(request: FastifyRequest) {
    const header = request.headers.authorization;
    if (header === undefined || header === '') return;
    const user = await app.services.auth.authenticate(header);
    if (!user) throw unauthorized('The token sent is invalid or expired. Log in again, or call this without an Authorization header.');
    request.authUser = user;
  }

  app.get(
    '/api/v2/faq_search/',
    {
      onRequest: optionalAuth,
      schema: {
        tags: ['Help'],
        summary: 'Search the FAQ: ranked items whose question or answer contains the words (prefixes match: "typh" finds typhoon)',
        description:
          'PostgreSQL full-text search (English stemming) over title (weighted higher) and answer text. Items containing every word come first; if none contain them all, items containing any word are returned. Token optional.',
        security: OPTIONAL_TOKEN,
        querystring: SearchQuery,
        response: { 200: z.object({ count: z.number().int(), results: z.array(FaqItem.extend({ rank: z.number() })) }), ...errors },
      },
    },
    async (req) => {
      const results = await faq.search(req.query.search);
      return { count: results.length, results };
    },
  );

  app.post(
    '/api/v2/keyword_help_v2/',
    {
      onRequest: optionalAuth,
      schema: {
        tags: ['Help'],
        summary: 'FAQ items filed under the given keywords (a category includes its children), JSON {"keywords": [name]}',
        description: 'Names match without regard to case; unknown names are ignored, and 404 is answered when none is a keyword. Token optional.',
        security: OPTIONAL_TOKEN,
        body: KeywordBody,
        response: { 200: z.array(FaqItem), ...errors },
      },
    },
    async (req) => {
      const items = await faq.itemsForKeywords(req.body.keywords);
      if (!items) throw notFound(`keywords: no FAQ keyword named ${req.body.keywords.map((k) => `'${k}'`).join(', ')}.`);
      return items;
    },
  );

  app.get(
    '/api/v2/faq_keywords/',
    {
      onRequest: optionalAuth,
      schema: {
        tags: ['Help'],
        summary: 'FAQ keyword categories in display order, each with its child keywords',
        security: OPTIONAL_TOKEN,
        response: { 200: z.array(z.object({ name: z.string(), children: z.array(z.string()) })), ...errors },
      },
    },
    async () => faq.keywords(),
  );
};
