import { z } from 'zod';

/**
 * Answers of the geocoding and company calls (spec 000 §3 company-search hit, §7). The server's answers are checked
 * against these shapes (fields not listed here would be dropped, so every field the code sends is listed).
 */
export const ReverseGeocodeAnswer = z.object({
  name: z.string(),
  place: z.string().nullable(),
  region: z.string().nullable(),
  country: z.string().nullable(),
  country_code: z.string().nullable(),
  country_code3: z.string().nullable(),
  district: z.string().optional().describe('Hong Kong district for points in Hong Kong'),
  label: z.string().describe('"place, region, country"'),
  distance_km: z.number().nullable(),
  country_match: z.enum(['inside', 'near_coast', 'none']),
});
export type ReverseGeocodeAnswer = z.infer<typeof ReverseGeocodeAnswer>;

export const ForwardGeocodeHit = z.object({
  label: z.string(),
  name: z.string(),
  lat: z.number(),
  lng: z.number(),
  country_code: z.string(),
  type: z.string(),
  score: z.number(),
  population: z.number().nullable(),
  match: z.enum(['exact', 'prefix', 'fuzzy']),
  approximate: z.boolean(),
});
export type ForwardGeocodeHit = z.infer<typeof ForwardGeocodeHit>;

export const CompanySearchHit = z.object({
  ticker: z.string(),
  company_name: z.string(),
  index: z.string(),
  indices: z.array(z.string()),
  sector: z.string().nullable(),
  country_code: z.string().nullable(),
  latitude: z.number(),
  longitude: z.number(),
  approximate: z.boolean().describe('true when placed at the listing city or a capital, not a geocoded headquarters'),
  location_basis: z.string(),
  address_data: z.array(z.object({ address: z.string(), lat: z.number(), lon: z.number(), domain: z.string().nullable() })),
  name_from_data: z.boolean(),
  score: z.number(),
});
export type CompanySearchHit = z.infer<typeof CompanySearchHit>;

export const CompanySearchAnswer = z.object({
  hits: z.array(CompanySearchHit),
  grouped_hits: z.record(z.string(), z.array(CompanySearchHit)),
  count: z.number().int(),
});

export const IndexInfoAnswer = z.object({
  index_name: z.string(),
  members: z.number().int(),
  default: z.boolean(),
  source: z.string(),
  as_of: z.string().nullable(),
});
export type IndexInfoAnswer = z.infer<typeof IndexInfoAnswer>;

/** GET api/asset/index/{userId}/: the indices, or with ?index= the members of one. */
export const IndexListAnswer = z.union([
  z.object({ indices: z.array(IndexInfoAnswer) }),
  z.object({ index_name: z.string(), members: z.array(CompanySearchHit) }),
]);

/**
 * A name for a new asset that no name in `taken` has (compared case-insensitively and with spaces trimmed, as the
 * server compares asset names in a portfolio): the base itself when free, else "base 2", "base 3" ... — e.g. three map
 * clicks in Central are "Central, Central and Western, Hong Kong", "... Hong Kong 2" and "... Hong Kong 3". The base is
 * shortened so the number fits within `maxLength` characters (the wizard's 150).
 */
export function uniqueName(base: string, taken: Iterable<string>, maxLength = 150): string {
  const used = new Set<string>();
  for (const t of taken) used.add(t.trim().toLowerCase());
  const b = base.trim().slice(0, maxLength);
  if (!used.has(b.toLowerCase())) return b;
  for (let n = 2; ; n++) {
    const suffix = ` ${n}`;
    const candidate = `${b.slice(0, maxLength - suffix.length).trimEnd()}${suffix}`;
    if (!used.has(candidate.toLowerCase())) return candidate;
  }
}
