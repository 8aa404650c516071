import { countryOf } from '@crp/geo';
import type { FastifyInstance } from 'fastify';
import type { DB } from './infra/db/database.js';
import { CarbonRepository } from './modules/carbon/carbon.repository.js';
import { ANALYSE_PORTFOLIO_JOB } from './modules/projects/project.service.js';
import { tierColumns, defaultDataEditPermissions } from './modules/accounts/tier.service.js';

/**
 * The demo portfolio: sites in well-known places across the hazard spectrum (typhoon coasts, river deltas, deserts,
 * snowy and cold cities). Locations are real city coordinates; values and types are illustrative inputs, and every
 * hazard figure the demo shows is computed by the models from the open data like any other portfolio.
 */
export const DEMO_ASSETS = [
  { name: 'Central HQ Tower', latitude: 22.2819, longitude: 114.1585, property_type: 'Office', valuation: 420e6, revenue: 60e6, stories: 45 },
  { name: 'Kwai Chung Logistics Hub', latitude: 22.3574, longitude: 114.1277, property_type: 'Warehouse', valuation: 95e6, revenue: 22e6, stories: 6 },
  { name: 'Shenzhen Electronics Plant', latitude: 22.5431, longitude: 114.0579, property_type: 'Manufacture', valuation: 130e6, revenue: 85e6, stories: 3 },
  { name: 'Manila Bay Branch', latitude: 14.5794, longitude: 120.9722, property_type: 'Retail', valuation: 18e6, revenue: 6e6, stories: 2 },
  { name: 'Ho Chi Minh City Warehouse', latitude: 10.7626, longitude: 106.6602, property_type: 'Warehouse', valuation: 24e6, revenue: 9e6, stories: 1 },
  { name: 'Dhaka Garment Factory', latitude: 23.8103, longitude: 90.4125, property_type: 'Manufacture', valuation: 15e6, revenue: 30e6, stories: 4 },
  { name: 'Shanghai Pudong Office', latitude: 31.2304, longitude: 121.4737, property_type: 'Office', valuation: 260e6, revenue: 40e6, stories: 30 },
  { name: 'Tokyo Bay Data Centre', latitude: 35.6195, longitude: 139.7783, property_type: 'Data Centre', valuation: 310e6, revenue: 75e6, stories: 5 },
  { name: 'Singapore Jurong Plant', latitude: 1.3329, longitude: 103.7436, property_type: 'Food & Chemicals', valuation: 140e6, revenue: 55e6, stories: 3 },
  { name: 'Jakarta North Port Depot', latitude: -6.1045, longitude: 106.8805, property_type: 'Port', valuation: 60e6, revenue: 14e6, stories: 2 },
  { name: 'Dubai Logistics Park', latitude: 25.0657, longitude: 55.1713, property_type: 'Warehouse', valuation: 75e6, revenue: 18e6, stories: 2 },
  {
    name: 'Phoenix Solar Farm',
    latitude: 33.4484,
    longitude: -112.074,
    property_type: 'Energy - Solar',
    valuation: 110e6,
    revenue: 16e6,
    solar_production: 350,
  },
  { name: 'Miami Beach Hotel', latitude: 25.7907, longitude: -80.13, property_type: 'Hotel', valuation: 180e6, revenue: 45e6, stories: 18 },
  { name: 'Rotterdam Port Terminal', latitude: 51.9496, longitude: 4.1453, property_type: 'Port', valuation: 210e6, revenue: 50e6, stories: 3 },
  { name: 'Oslo Office', latitude: 59.9139, longitude: 10.7522, property_type: 'Office', valuation: 90e6, revenue: 20e6, stories: 9 },
  { name: 'Winnipeg Distribution Centre', latitude: 49.8951, longitude: -97.1384, property_type: 'Warehouse', valuation: 35e6, revenue: 11e6, stories: 1 },
  { name: 'Perth Mining Office', latitude: -31.9523, longitude: 115.8613, property_type: 'Mining & Metals', valuation: 55e6, revenue: 70e6, stories: 12 },
  { name: 'Sydney Harbour Office', latitude: -33.8688, longitude: 151.2093, property_type: 'Office', valuation: 240e6, revenue: 38e6, stories: 28 },
] as const;
export const DEMO_PORTFOLIO = 'Demo: Asia-Pacific and global sites';

/**
 * The demo carbon portfolio (USD 500 million): illustrative holdings, four with reported scope 1+2 and two left blank,
 * so the demo shows projected emissions from the committed factors and one "no factor" holding is avoided.
 */
export const DEMO_CARBON_PORTFOLIO = 'Demo: Listed equity carbon';
const DEMO_CARBON_VALUE = 500e6;
const DEMO_CARBON_COMPANIES = [
  {
    company_name: 'Harbour Cement Holdings',
    investment_in_usd: 60e6,
    market_cap_in_usd: 12e9,
    revenue_in_usd: 8e9,
    scope_1_and_2_ghg_emission: 9.5e6,
    region: 'China',
    sector: 'Construction Materials',
  },
  {
    company_name: 'Pacific Power & Gas',
    investment_in_usd: 45e6,
    market_cap_in_usd: 20e9,
    revenue_in_usd: 11e9,
    scope_1_and_2_ghg_emission: 14e6,
    region: 'Australia/NZ',
    sector: 'Natural Gas Utilities',
  },
  {
    company_name: 'Lion City Bank',
    investment_in_usd: 120e6,
    market_cap_in_usd: 80e9,
    revenue_in_usd: 14e9,
    scope_1_and_2_ghg_emission: 1.1e5,
    region: 'South East Asia',
    sector: 'Banking Services',
  },
  {
    company_name: 'Kanto Auto Parts',
    investment_in_usd: 70e6,
    market_cap_in_usd: 15e9,
    revenue_in_usd: 18e9,
    scope_1_and_2_ghg_emission: 1.6e6,
    region: 'Japan',
    sector: 'Automobiles & Auto Parts',
  },
  {
    company_name: 'Nordic Software Group',
    investment_in_usd: 90e6,
    market_cap_in_usd: 30e9,
    revenue_in_usd: 4e9,
    scope_1_and_2_ghg_emission: null,
    region: 'Europe',
    sector: 'Software & IT Services',
  },
  {
    company_name: 'Gulf Petrochemicals',
    investment_in_usd: 55e6,
    market_cap_in_usd: 25e9,
    revenue_in_usd: 13e9,
    scope_1_and_2_ghg_emission: null,
    region: 'Middle East',
    sector: 'Chemicals',
  },
];

export const DEMO = {
  companyName: 'Harbour Demo Capital',
  companyCode: 'DEMO0-HK001',
  username: 'demo',
  password: 'ClimateDemo!2026',
  email: 'demo@climate-risk.local',
} as const;

/** Creates the demo company and user once (idempotent). Returns true when created now. */
// eslint-disable-next-line max-lines-per-function -- start-up demo data (a list of fixed records), not on the request path
export async function seedDemo(app: FastifyInstance, db: DB): Promise<boolean> {
  const exists = await db.selectFrom('companies').select('id').where('code', '=', DEMO.companyCode).executeTakeFirst();
  if (exists) return false;
  const hash = await app.services.passwords.hash(DEMO.password);
  await db.transaction().execute(async (tx) => {
    const company = await tx
      .insertInto('companies')
      .values({ name: DEMO.companyName, code: DEMO.companyCode, ...tierColumns('enterprise') })
      .returning('id')
      .executeTakeFirstOrThrow();
    const user = await tx
      .insertInto('users')
      .values({
        company_id: company.id,
        username: DEMO.username,
        username_lower: DEMO.username,
        email: DEMO.email,
        first_name: 'Demo',
        last_name: 'User',
        password_hash: hash,
        status: 'active',
        is_company_admin: true,
        data_edit_permissions: JSON.stringify(defaultDataEditPermissions()),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const project = await tx
      .insertInto('projects')
      .values({
        company_id: company.id,
        owner_id: user.id,
        kind: 'physical',
        name: DEMO_PORTFOLIO,
        name_lower: DEMO_PORTFOLIO.toLowerCase(),
        portfolio_variables: JSON.stringify([
          'River Flood',
          'Typhoon',
          'Storm Surge',
          'Wildfire',
          'Landslide',
          'Rainfall Flood',
          'Extreme Heat',
          'Sea Level Rise',
          'Drought',
        ]),
        non_building_variables: JSON.stringify({ energy: ['solar_production'], agriculture: [] }),
        base_unit: 'meter',
        base_currency: 'USD',
        source: 'demo',
        is_benchmark: false,
        default_filters: JSON.stringify({ analysis_type: 'ssp', scenario: '45', year: 2050 }),
        status: 'queued',
        progress: 0,
        status_message: 'Waiting for analysis',
        version: 1,
      })
      .returning(['id', 'version'])
      .executeTakeFirstOrThrow();
    await tx
      .insertInto('assets')
      .values(
        DEMO_ASSETS.map((a, i) => ({
          project_id: project.id,
          position: i,
          ownership: 100,
          country_code: countryOf(a.latitude, a.longitude, { nearestWithinKm: 50 })?.country_code ?? null,
          ...a,
        })),
      )
      .execute();
    await app.services.jobs.enqueue(ANALYSE_PORTFOLIO_JOB, { projectId: project.id, version: project.version }, tx);
    const carbon = new CarbonRepository(tx);
    const carbonProject = await carbon.insertProject(tx, { company_id: company.id, owner_id: user.id, name: DEMO_CARBON_PORTFOLIO });
    await carbon.saveInputs(tx, carbonProject.id, DEMO_CARBON_VALUE, DEMO_CARBON_COMPANIES);
    await app.services.notifications.notify(
      [user.id],
      { title: 'Welcome to the demo', message: 'This demo company has the enterprise tier: every module is open.', notification_type: 'success', link: null },
      tx,
    );
  });
  return true;
}
