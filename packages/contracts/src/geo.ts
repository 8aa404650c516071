import { z } from 'zod';

/**
 * Answers of the geocoding and company calls (spec 000 §3 company-search hit, §7). The server's answers are checked
 * against these shapes (fields not listed here would be dropped, so every field the code sends is listed).
 */
export const ReverseGeocodeAnswer = z
  .object({
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
  })


export const ForwardGeocodeHit = z
  .object({
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
  })


export const CompanySearchHit = z
  .object({
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
  })


export const CompanySearchAnswer = z.object({
  hits: z.array(CompanySearchHit),
  grouped_hits: z.record(z.string(), z.array(CompanySearchHit)),
  count: z.number().int(),
});

export const IndexInfoAnswer = z.object({ index_name: z.string(), members: z.number().int(), default: z.boolean(), source: z.string(), as_of: z.string().nullable() });

/** GET api/asset/index/{userId}/: the indices, or with ?index= the members of one. */
export const IndexListAnswer = z.union([
  z.object({ indices: z.array(IndexInfoAnswer) }),
  z.object({ index_name: z.string(), members: z.array(CompanySearchHit) }),
]);
