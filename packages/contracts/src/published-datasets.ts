import { z } from 'zod';

/**
 * Published flood datasets (issue 34 item 2): WRI Aqueduct Floods or JRC global flood maps registered installation-wide
 * by an operator; their values replace the built-in river and coastal flood layers where they cover an asset
 * (data tier 'published dataset'; a company's own layer still comes first).
 */
export const PublishedDatasetFile = z.object({
  name: z.string().describe('file name (as published: the name says hazard, scenario, model, year and return period)'),
  hazard: z.enum(['river_flood', 'storm_surge']),
  scenario: z.enum(['historical', 'rcp4p5', 'rcp8p5']),
  model: z.string().nullable(),
  year: z.number().int().nullable().describe('null: the present-climate (historical) map'),
  return_period_years: z.number(),
  width: z.number().int(),
  height: z.number().int(),
  resolution_deg: z.number(),
  tiled: z.boolean(),
  bytes: z.number().describe('file size (bytes); the file is read by window, never copied'),
});

export const PublishedDataset = z.object({
  id: z.number().int(),
  name: z.string(),
  directory: z.string().describe('the server-side directory registered (every server and worker reads it)'),
  file_count: z.number().int(),
  bytes: z.number(),
  registered_at: z.string(),
  registered_by: z.string(),
  sources: z.array(z.enum(['aqueduct', 'jrc'])),
  hazards: z.array(z.enum(['river_flood', 'storm_surge'])),
  scenarios: z.array(z.string()).describe("'historical', or scenario and year, e.g. 'rcp8p5 2050'"),
  return_periods_years: z.array(z.number()),
  files: z.array(PublishedDatasetFile),
});
export type PublishedDataset = z.infer<typeof PublishedDataset>;

export const PublishedDatasetList = z.object({ datasets: z.array(PublishedDataset) });
export type PublishedDatasetList = z.infer<typeof PublishedDatasetList>;

/** `POST api/v2/published_datasets/`. */
export const PublishedDatasetRegister = z.object({
  directory: z
    .string({ error: 'directory is required' })
    .min(1, 'directory is required')
    .max(1000, 'directory is at most 1000 characters')
    .describe('absolute path of a directory on the server holding the GeoTIFF/COG files'),
  name: z.string().max(100, 'name is at most 100 characters').optional().describe('default: the directory name; the same name replaces the registration'),
});
