import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { generateOpenApi } from '../src/dev/openapi.js';
import { openApiRoutes } from './support/openapi-routes.js';
import { newUser, registerAndLogin, startServer, type RequestOptions, type TestServer, waitForAnalysis } from './support/harness.js';

/**
 * Walks every route of the OpenAPI document as (a) no token, (b) a user of another company, (c) a reader and a writer
 * of a shared project, and (d) the owner, and checks each answer against the route's access rule. A route missing
 * from ACCESS fails the suite, so a new route cannot ship without saying who may call it.
 */

type Role = 'none' | 'stranger' | 'reader' | 'writer' | 'owner';
const ROLES: Role[] = ['none', 'stranger', 'reader', 'writer', 'owner'];

interface Who {
  token: string;
  userId: number;
}
interface Ctx {
  s: TestServer;
  who: Record<Exclude<Role, 'none'>, Who>;
  /** The shared, analysed project: read for the reader, write for the writer. */
  projectId: number;
  projectName: string;
  /** A fresh project shared the same way, for calls that change or remove it. */
  scratch(): Promise<{ id: number; name: string }>;
  fileUrl: string;
  /** A carbon project shared the same way, and a fresh one for calls that remove it. */
  carbonName: string;
  carbonScratch(): Promise<string>;
  /** A property-risk project shared the same way. */
  propertyName: string;
  /** A map project shared the same way. */
  mapName: string;
}
interface Call {
  path: string;
  opts?: RequestOptions;
}

/**
 * Access rules.
 * - public: anyone, no token needed.
 * - user: any signed-in user, on their own data (no project).
 * - self: any signed-in user on a path with their own userId; another user's id is refused (checked separately).
 * - admin: the company's administrator (the owner here; the reader is a plain member).
 * - read / write / owner: a project-scoped call; the stranger (another company) always gets 404.
 * - link: public file links, where the link is the secret.
 * - operator: the installation's operators (users.is_operator); no role here is one, so every signed-in role gets 403.
 */
type Kind = 'public' | 'user' | 'self' | 'admin' | 'read' | 'write' | 'owner' | 'link' | 'operator';
interface Rule {
  kind: Kind;
  call(c: Ctx, as: Role, me: Who | null): Promise<Call> | Call;
  /** Roles not run (the call would end the session the next checks need); the no-token check always runs. */
  skip?: Role[];
}

const form = (o: Record<string, unknown>): RequestOptions => ({
  form: Object.fromEntries(Object.entries(o).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])),
});
const uid = (me: Who | null) => me?.userId ?? 1;
let seq = 0;
const fresh = (p: string) => `${p} ${process.pid}-${++seq}`;

const COMPANIES = [
  {
    company_name: 'A',
    investment_in_usd: 2_000_000,
    nav_in_perc: 0,
    market_cap_in_usd: 100_000_000,
    revenue_in_usd: 50_000_000,
    scope_1_and_2_GHG_emission: 10_000,
    region: 'Europe',
    sector: 'Chemicals',
  },
  {
    company_name: 'B',
    investment_in_usd: 3_000_000,
    nav_in_perc: 0,
    market_cap_in_usd: 30_000_000,
    revenue_in_usd: 20_000_000,
    scope_1_and_2_GHG_emission: 0,
    region: 'China',
    sector: 'Coal',
  },
];

const MAP = { address: 'Hong Kong', latitude: 22.3, longitude: 114.2, portfolio_variables: '["Rainfall Flood"]', distance: 1, duration_data: '["100yr"]' };

const ACCESS: Record<string, Rule> = {
  'GET /api/health': { kind: 'public', call: () => ({ path: '/api/health' }) },
  'GET /api/changelog/': { kind: 'public', call: () => ({ path: '/api/changelog/' }) },
  'GET /api/config/': { kind: 'public', call: () => ({ path: '/api/config/' }) },
  // Public OpenStreetMap tiles (none configured here: 404, not an auth error).
  'GET /api/basemap/tiles.pmtiles': { kind: 'public', call: () => ({ path: '/api/basemap/tiles.pmtiles' }) },
  'GET /api/v2/basemap_settings/': { kind: 'operator', call: () => ({ path: '/api/v2/basemap_settings/' }) },
  'PUT /api/v2/basemap_settings/': {
    kind: 'operator',
    call: () => ({ path: '/api/v2/basemap_settings/', opts: { json: { pmtiles: '/nonexistent.pmtiles' } } }),
  },
  'DELETE /api/v2/basemap_settings/': { kind: 'operator', call: () => ({ path: '/api/v2/basemap_settings/' }) },
  'POST /api/user/register/': { kind: 'public', call: () => ({ path: '/api/user/register/', opts: { json: newUser() } }) },
  'POST /api/user/rest_login/': {
    kind: 'public',
    call: async (c) => {
      const u = newUser();
      const reg = await c.s.api.post('/api/user/register/', { json: u });
      return { path: '/api/user/rest_login/', opts: form({ username: u.username, password: u.password, company_code: reg.body.company_code }) };
    },
  },
  'POST /api/user/password_reset/request/': {
    kind: 'public',
    call: () => ({ path: '/api/user/password_reset/request/', opts: { json: { username: newUser().username, company_code: 'ZZZZZ-ZZZZZ' } } }),
  },
  'POST /api/user/password_reset/confirm/': {
    kind: 'public',
    call: () => ({
      path: '/api/user/password_reset/confirm/',
      opts: { json: { token: 'not-a-reset-token', password: 'orchard lanterns at midnight', confirm_password: 'orchard lanterns at midnight' } },
    }),
  },
  'POST /api/demo_request/': {
    kind: 'public',
    call: () => ({ path: '/api/demo_request/', opts: form({ name: 'Ann', email: 'ann@example.com', company: 'Acme' }) }),
  },
  'GET /api/v2/faq_search/': { kind: 'public', call: () => ({ path: '/api/v2/faq_search/?search=typhoon' }) },
  'POST /api/v2/keyword_help_v2/': { kind: 'public', call: () => ({ path: '/api/v2/keyword_help_v2/', opts: { json: { keywords: ['Hazards'] } } }) },
  'GET /api/v2/faq_keywords/': { kind: 'public', call: () => ({ path: '/api/v2/faq_keywords/' }) },
  'GET /api/v2/files/{token}/{filename}': { kind: 'link', call: (c) => ({ path: new URL(c.fileUrl, c.s.url).pathname }) },
  'GET /api/v2/reports/{token}/{filename}': { kind: 'link', call: () => ({ path: '/api/v2/reports/0000000000000000000000000000000000000000/report.pdf' }) },

  'POST /api/user/rest_logout/': { kind: 'user', call: () => ({ path: '/api/user/rest_logout/' }), skip: ['stranger', 'reader', 'writer', 'owner'] },
  'POST /api/user/rest_logout_all/': { kind: 'user', call: () => ({ path: '/api/user/rest_logout_all/' }), skip: ['stranger', 'reader', 'writer', 'owner'] },
  'GET /accounts/user/': { kind: 'user', call: () => ({ path: '/accounts/user/' }) },
  'GET /user/configure_multifactor/{method}': { kind: 'user', call: () => ({ path: '/user/configure_multifactor/app' }) },
  'POST /user/configure_multifactor/{method}/': { kind: 'user', call: () => ({ path: '/user/configure_multifactor/app/', opts: form({ code: '000000' }) }) },
  'POST /user/multifactor/current_code/': { kind: 'user', call: () => ({ path: '/user/multifactor/current_code/' }) },
  'POST /user/disable_multifactor/': {
    kind: 'user',
    call: () => ({ path: '/user/disable_multifactor/', opts: form({ password: 'not the password', current_code: '000000' }) }),
  },
  'GET /user/multifactor/recovery_codes/': { kind: 'user', call: () => ({ path: '/user/multifactor/recovery_codes/' }) },
  'POST /user/multifactor/recovery_codes/': {
    kind: 'user',
    call: () => ({ path: '/user/multifactor/recovery_codes/', opts: { json: { current_code: '000000' } } }),
  },
  'GET /api/user/notifications/': { kind: 'user', call: () => ({ path: '/api/user/notifications/' }) },
  'POST /api/user/mark_notification_read/': {
    kind: 'user',
    call: () => ({ path: '/api/user/mark_notification_read/', opts: form({ notification_id: '2147483000' }) }),
  },
  'POST /user/update_last_accessed': { kind: 'user', call: () => ({ path: '/user/update_last_accessed', opts: form({ path: '/project' }) }) },
  'POST /api/v2/create_project/': {
    kind: 'user',
    call: () => ({
      path: '/api/v2/create_project/',
      opts: { json: { portfolio_name: fresh('Own'), data: [{ name: 'A', latitude: 22.3, longitude: 114.2 }] } },
    }),
  },
  'GET /api/v2/download_upload_csv_template/': { kind: 'user', call: () => ({ path: '/api/v2/download_upload_csv_template/' }) },
  'POST /api/v2/preview_upload/': {
    kind: 'user',
    call: () => ({
      path: '/api/v2/preview_upload/',
      opts: {
        multipart: {
          upload_file: {
            filename: 'sites.geojson',
            data: Buffer.from(
              '{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[114.2,22.3]},"properties":{"name":"A"}}]}',
            ),
          },
        },
      },
    }),
  },
  'GET /api/v2/hazard/point/': {
    kind: 'user',
    call: () => ({ path: '/api/v2/hazard/point/?latitude=22.3&longitude=114.2&analysis_type=ssp&scenario=85&year=2050' }),
  },
  'GET /api/v2/hazard/catalog/': { kind: 'user', call: () => ({ path: '/api/v2/hazard/catalog/' }) },
  'POST /api/v2/hazard/curves/': {
    kind: 'user',
    call: () => ({ path: '/api/v2/hazard/curves/', opts: { json: { points: [{ latitude: 22.3, longitude: 114.2 }] } } }),
  },
  'GET /api/project/all_projects/': { kind: 'user', call: () => ({ path: '/api/project/all_projects/?list_for=physical_risk' }) },
  'GET /api/v2/geocode/reverse/': { kind: 'user', call: () => ({ path: '/api/v2/geocode/reverse/?latitude=22.3&longitude=114.2' }) },
  'GET /api/v2/geocode/search/': { kind: 'user', call: () => ({ path: '/api/v2/geocode/search/?q=Kowloon' }) },
  'POST /api/search/deepsearch/': { kind: 'user', call: () => ({ path: '/api/search/deepsearch/', opts: { json: { search_term: 'HSBC' } } }) },

  'GET /api/user/permissions/{userId}/': { kind: 'self', call: (_c, _r, me) => ({ path: `/api/user/permissions/${uid(me)}/` }) },
  'GET /api/project/{userId}/': { kind: 'self', call: (_c, _r, me) => ({ path: `/api/project/${uid(me)}/` }) },
  'GET /api/asset/index/{userId}/': { kind: 'self', call: (_c, _r, me) => ({ path: `/api/asset/index/${uid(me)}/` }) },
  'POST /api/asset/index/{userId}/': {
    kind: 'self',
    call: (_c, _r, me) => ({ path: `/api/asset/index/${uid(me)}/`, opts: form({ index_name: 'STI', portfolio_name: fresh('STI') }) }),
  },
  'POST /api/hazard/typhoon_track/{userId}/': {
    kind: 'self',
    call: (_c, _r, me) => ({ path: `/api/hazard/typhoon_track/${uid(me)}/`, opts: { json: { latitude: 22.3, longitude: 114.17 } } }),
  },
  'GET /api/portfolio/{userId}/': { kind: 'self', call: (_c, _r, me) => ({ path: `/api/portfolio/${uid(me)}/` }) },
  'POST /api/asset/nonbuilding/{userId}/': {
    kind: 'self',
    call: (_c, _r, me) => ({
      path: `/api/asset/nonbuilding/${uid(me)}/`,
      opts: form({
        portfolio_name: fresh('Plant'),
        value: [{ name: 'Solar farm', latitude: 22.4, longitude: 114.1, type: 'Solar', production: 10 }],
        variables: ['Extreme Heat'],
      }),
    }),
  },

  'GET /api/company/members/': { kind: 'admin', call: () => ({ path: '/api/company/members/' }) },
  'GET /api/company/download_link_hours/': { kind: 'user', call: () => ({ path: '/api/company/download_link_hours/' }) },
  'POST /api/company/download_link_hours/': { kind: 'admin', call: () => ({ path: '/api/company/download_link_hours/', opts: { json: { hours: 24 } } }) },
  'POST /api/company/members/{userId}/approve/': { kind: 'admin', call: (c) => ({ path: `/api/company/members/${c.who.reader.userId}/approve/` }) },
  'POST /api/company/members/{userId}/reject/': { kind: 'admin', call: () => ({ path: `/api/company/members/2147483000/reject/` }) },
  'GET /api/v2/own_layers/': { kind: 'user', call: () => ({ path: '/api/v2/own_layers/' }) },
  'POST /api/v2/own_layers/': {
    kind: 'admin',
    call: () => ({
      path: '/api/v2/own_layers/',
      opts: { multipart: { hazard: 'extreme_heat', file: { filename: 'x.tif', data: Buffer.from('not a tiff') } } },
    }),
  },
  'DELETE /api/v2/own_layers/{id}/': { kind: 'admin', call: () => ({ path: '/api/v2/own_layers/2147483000/' }) },
  'GET /api/v2/published_datasets/': { kind: 'operator', call: () => ({ path: '/api/v2/published_datasets/' }) },
  'POST /api/v2/published_datasets/': {
    kind: 'operator',
    call: () => ({ path: '/api/v2/published_datasets/', opts: { json: { directory: '/nonexistent/flood-maps', name: 'none' } } }),
  },
  'DELETE /api/v2/published_datasets/{name}/': { kind: 'operator', call: () => ({ path: '/api/v2/published_datasets/none/' }) },
  // Any member may ask (a second ask of the same company is a 409, still not an access error); only operators grant.
  'POST /api/v2/upgrade_requests/': { kind: 'user', call: () => ({ path: '/api/v2/upgrade_requests/', opts: { json: { tier: 'professional' } } }) },
  'GET /api/v2/upgrade_requests/': { kind: 'user', call: () => ({ path: '/api/v2/upgrade_requests/' }) },
  'POST /api/v2/upgrade_requests/{id}/grant/': { kind: 'operator', call: () => ({ path: '/api/v2/upgrade_requests/2147483000/grant/' }) },
  'GET /api/user/api_tokens/': { kind: 'user', call: () => ({ path: '/api/user/api_tokens/' }) },
  'POST /api/user/api_tokens/': {
    kind: 'user',
    call: () => ({ path: '/api/user/api_tokens/', opts: { json: { name: 'authorization walk', expires_in_days: 30 } } }),
  },
  // Someone else's (or no) token: 404 for every role; the owner/admin rules are in api-tokens.test.ts.
  'POST /api/user/api_tokens/{tokenId}/revoke/': { kind: 'user', call: () => ({ path: '/api/user/api_tokens/2147483000/revoke/' }) },
  'GET /api/company/api_tokens/': { kind: 'admin', call: () => ({ path: '/api/company/api_tokens/' }) },
  'GET /api/v2/audit_log/': { kind: 'admin', call: () => ({ path: '/api/v2/audit_log/?page=1&page_size=5&action=login' }) },

  'GET /api/v2/projects/{projectId}/status/': { kind: 'read', call: (c) => ({ path: `/api/v2/projects/${c.projectId}/status/` }) },
  'GET /api/v2/projects/{projectId}/progress/': { kind: 'read', call: (c) => ({ path: `/api/v2/projects/${c.projectId}/progress/` }) },
  'POST /api/v2/dashboard/': { kind: 'read', call: (c) => ({ path: '/api/v2/dashboard/', opts: { json: { project_id: c.projectId } } }) },
  'POST /api/v2/dashboard/detail/': {
    kind: 'read',
    call: (c) => ({ path: '/api/v2/dashboard/detail/', opts: { json: { project: c.projectName, project_id: c.projectId } } }),
  },
  'POST /api/v2/dashboard/assets/': { kind: 'read', call: (c) => ({ path: '/api/v2/dashboard/assets/', opts: { json: { project_id: c.projectId } } }) },
  'POST /api/v2/dashboard/heatmap/': { kind: 'read', call: (c) => ({ path: '/api/v2/dashboard/heatmap/', opts: { json: { project_id: c.projectId } } }) },
  'POST /api/v2/dashboard/map/': { kind: 'read', call: (c) => ({ path: '/api/v2/dashboard/map/', opts: { json: { project_id: c.projectId } } }) },
  'POST /api/v2/download_csv_report/': {
    kind: 'read',
    call: (c) => ({ path: '/api/v2/download_csv_report/', opts: { json: { project_name: c.projectName, project_id: c.projectId } } }),
  },
  'POST /api/v2/summary_report/': {
    kind: 'read',
    call: (c) => ({ path: '/api/v2/summary_report/', opts: { json: { project_name: c.projectName, project_id: c.projectId } } }),
  },
  'POST /api/v2/asset_results/': {
    kind: 'read',
    call: (c) => ({ path: '/api/v2/asset_results/', opts: { json: { project_id: c.projectId, years: [2050], scenarios: ['45'] } } }),
  },
  'GET /api/v2/projects/{projectId}/assets_gis/': { kind: 'read', call: (c) => ({ path: `/api/v2/projects/${c.projectId}/assets_gis/?format=gpkg` }) },
  'POST /api/v2/generate_pdf_report/': { kind: 'read', call: (c) => ({ path: '/api/v2/generate_pdf_report/', opts: { json: { project_id: c.projectId } } }) },
  'POST /api/v2/building_damage/': {
    kind: 'read',
    call: (c) => ({ path: '/api/v2/building_damage/', opts: { json: { project_name: c.projectName, project_id: c.projectId, asset_name: 'Hong Kong HQ' } } }),
  },
  'GET /api/asset/{userId}/': { kind: 'read', call: (c, _r, me) => ({ path: `/api/asset/${uid(me)}/?project_id=${c.projectId}` }) },
  // Renewing a link works on one's own files only: each role renews a file it made itself.
  'POST /api/report/get_link/{userId}/': {
    kind: 'self',
    call: async (c, role, me) => {
      let url = c.fileUrl;
      if (me && role !== 'stranger' && me !== c.who.owner) {
        const own = await c.s.api.post('/api/v2/summary_report/', { token: me.token, json: { project_name: c.projectName, project_id: c.projectId } });
        url = own.body.url;
      }
      return { path: `/api/report/get_link/${uid(me)}/`, opts: form({ url }) };
    },
  },

  'GET /api/report/carbon_template/': { kind: 'user', call: () => ({ path: '/api/report/carbon_template/' }) },
  'GET /api/report/carbon_factors/': { kind: 'user', call: () => ({ path: '/api/report/carbon_factors/' }) },
  'GET /api/report/get_carbon_project_list/{userId}/': { kind: 'self', call: (_c, _r, me) => ({ path: `/api/report/get_carbon_project_list/${uid(me)}/` }) },
  'POST /api/report/create_carbon_analysis/{userId}/': {
    kind: 'self',
    call: (_c, _r, me) => ({
      path: `/api/report/create_carbon_analysis/${uid(me)}/`,
      opts: { json: { portfolio_name: fresh('Carbon'), portfolio_value: 10_000_000, companies_data: COMPANIES } },
    }),
  },
  'POST /api/report/get_carbon_analysis/{userId}/': {
    kind: 'read',
    call: (c, _r, me) => ({ path: `/api/report/get_carbon_analysis/${uid(me)}/`, opts: { json: { portfolio_name: c.carbonName } } }),
  },
  'POST /api/report/get_carbon_analysis_data/{userId}/': {
    kind: 'read',
    call: (c, _r, me) => ({ path: `/api/report/get_carbon_analysis_data/${uid(me)}/`, opts: { json: { portfolio_name: c.carbonName } } }),
  },
  'POST /api/report/get_carbon_analysis/{userId}/download/': {
    kind: 'read',
    call: (c, _r, me) => ({ path: `/api/report/get_carbon_analysis/${uid(me)}/download/`, opts: { json: { portfolio_name: c.carbonName, format: 'xlsx' } } }),
  },
  'POST /api/report/modify_carbon_analysis/{userId}/': {
    kind: 'write',
    call: (c, _r, me) => ({
      path: `/api/report/modify_carbon_analysis/${uid(me)}/`,
      opts: { json: { portfolio_name: c.carbonName, portfolio_value: 10_000_000, companies_data: COMPANIES } },
    }),
  },
  'POST /api/report/delete_carbon_analysis/{userId}/': {
    kind: 'owner',
    call: async (c, _r, me) => ({ path: `/api/report/delete_carbon_analysis/${uid(me)}/`, opts: { json: { portfolio_name: await c.carbonScratch() } } }),
  },

  'GET /api/v2/property_risk/projects/': { kind: 'user', call: () => ({ path: '/api/v2/property_risk/projects/' }) },
  'POST /api/v2/property_risk/': {
    kind: 'user',
    call: () => ({
      path: '/api/v2/property_risk/',
      opts: { json: { project_name: fresh('Homes'), data: [{ name: 'Flat', latitude: 22.3, longitude: 114.17 }] } },
    }),
  },
  'POST /api/v2/property_risk/fetch/': {
    kind: 'read',
    call: (c) => ({ path: '/api/v2/property_risk/fetch/', opts: { json: { project_name: c.propertyName } } }),
  },

  'POST /api/v2/map_datasets/': { kind: 'user', call: () => ({ path: '/api/v2/map_datasets/', opts: { json: { latitude: 22.3, longitude: 114.2 } } }) },
  'POST /api/v2/create_map_project/': { kind: 'user', call: () => ({ path: '/api/v2/create_map_project/', opts: form({ ...MAP, name: fresh('Map') }) }) },
  'POST /api/v2/map_value/': {
    kind: 'user',
    call: () => ({ path: '/api/v2/map_value/', opts: { json: { latitude: 22.3, longitude: 114.2, variable: 'Rainfall Flood' } } }),
  },
  'GET /api/v2/map_country/': { kind: 'user', call: () => ({ path: '/api/v2/map_country/?q=Japan' }) },
  'GET /api/v2/map_projects/': { kind: 'user', call: () => ({ path: '/api/v2/map_projects/' }) },
  'GET /api/v2/map_tiles/{layer}/{x}/{y}/{z}': { kind: 'user', call: () => ({ path: '/api/v2/map_tiles/wildfire/0/0/0?scenario_year=85_2050' }) },
  'GET /api/v2/hazard_layers/{hazard}/cog/': { kind: 'user', call: () => ({ path: '/api/v2/hazard_layers/typhoon/cog/?bbox=113,22,115,23' }) },
  'GET /api/v2/xyz_tiles/{layer}/{z}/{x}/{y}': { kind: 'user', call: () => ({ path: '/api/v2/xyz_tiles/wildfire/0/0/0.png?scenario_year=85_2050' }) },
  'POST /api/v2/generate_map/': { kind: 'read', call: (c) => ({ path: '/api/v2/generate_map/', opts: form({ name: c.mapName }) }) },
  'POST /api/v2/download_map/': { kind: 'read', call: (c) => ({ path: '/api/v2/download_map/', opts: form({ project_name: c.mapName }) }) },

  'GET /api/v2/tcfd_narrative/{projectId}/': { kind: 'read', call: (c) => ({ path: `/api/v2/tcfd_narrative/${c.projectId}/` }) },
  'PUT /api/v2/tcfd_narrative/{projectId}/': {
    kind: 'write',
    call: (c) => ({ path: `/api/v2/tcfd_narrative/${c.projectId}/`, opts: { json: { targets: 'Residual CVaR below 2 % of value by 2030.' } } }),
  },
  'POST /api/project/update_default_filter/': {
    kind: 'write',
    call: (c) => ({
      path: '/api/project/update_default_filter/',
      opts: form({ project_id: String(c.projectId), data: { year: 2050, scenario: '45', analysis_type: 'ssp' } }),
    }),
  },
  'POST /api/v2/update_assets/': {
    kind: 'write',
    call: async (c) => {
      const a = await assetsOf(c, c.projectId);
      return {
        path: '/api/v2/update_assets/',
        opts: { json: { project_id: c.projectId, assets: [{ id: a[0]!.id, revenue: 3e7 + Math.round(Math.random() * 1000) }] } },
      };
    },
  },
  'POST /api/v2/modify-bulk-asset/': {
    kind: 'write',
    call: async (c) => {
      const a = await assetsOf(c, c.projectId);
      return {
        path: '/api/v2/modify-bulk-asset/',
        opts: { json: { project_id: c.projectId, assets: [{ id: a[0]!.id, valuation: 2e8 + Math.round(Math.random() * 1000) }] } },
      };
    },
  },
  'POST /api/project/update/{userId}/': {
    kind: 'write',
    call: async (c, _r, me) => {
      const p = await c.scratch();
      return { path: `/api/project/update/${uid(me)}/`, opts: form({ oldname: p.name, name: `${p.name} renamed` }) };
    },
  },
  'POST /api/asset/delete/{userId}/': {
    kind: 'write',
    call: async (c, _r, me) => {
      const p = await c.scratch();
      const a = await assetsOf(c, p.id);
      return { path: `/api/asset/delete/${uid(me)}/`, opts: form({ project_id: String(p.id), asset_ids: [a[0]!.id] }) };
    },
  },

  'POST /api/project/delete/{userId}/': {
    kind: 'owner',
    call: async (c, _r, me) => {
      const p = await c.scratch();
      return { path: `/api/project/delete/${uid(me)}/`, opts: form({ name: p.name }) };
    },
  },
  'POST /api/v2/share_project/': {
    kind: 'owner',
    call: (c) => ({ path: '/api/v2/share_project/', opts: form({ project_id: String(c.projectId), share_with: [c.who.reader.userId], permission: 'read' }) }),
  },
  'POST /api/v2/unshare_project/': {
    kind: 'owner',
    call: async (c) => {
      const p = await c.scratch();
      return { path: '/api/v2/unshare_project/', opts: form({ project_id: String(p.id), user_id: String(c.who.reader.userId) }) };
    },
  },
};

async function assetsOf(c: Ctx, projectId: number): Promise<{ id: number }[]> {
  return c.s.db.selectFrom('assets').select('id').where('project_id', '=', projectId).orderBy('id').execute();
}

const ok = (st: number) => st >= 200 && st < 300;

/** What each kind allows each role; `true` means a 2xx answer, a number that exact refusal. */
function expected(kind: Kind, role: Role): true | number | 'not-auth-error' {
  if (kind === 'public') return 'not-auth-error';
  if (kind === 'link') return 'not-auth-error';
  if (role === 'none') return 401;
  if (kind === 'user' || kind === 'self') return 'not-auth-error';
  if (kind === 'operator') return 403;
  if (kind === 'admin') return role === 'owner' ? 'not-auth-error' : role === 'stranger' ? 'not-auth-error' : 403;
  if (role === 'stranger') return 404;
  if (kind === 'read') return true;
  if (kind === 'write') return role === 'reader' ? 403 : true;
  return role === 'owner' ? true : 403; // owner-only
}

describe('authorization: every route of the OpenAPI document, as every role', () => {
  let s: TestServer;
  let c: Ctx;
  let routes: string[] = [];

  before(async () => {
    s = await startServer({}, { jobs: true });
    const owner = await registerAndLogin(s.api);
    const member = async () => {
      const u = newUser({ company_code: owner.company_code });
      const reg = await s.api.post('/api/user/register/', { json: u });
      await s.api.post(`/api/company/members/${reg.body.user.id}/approve/`, { token: owner.token });
      const login = await s.api.post('/api/user/rest_login/', { form: { username: u.username, password: u.password, company_code: owner.company_code } });
      return { token: login.body.token as string, userId: reg.body.user.id as number };
    };
    const reader = await member();
    const writer = await member();
    const stranger = await registerAndLogin(s.api);
    const who = { owner: { token: owner.token, userId: owner.userId }, reader, writer, stranger: { token: stranger.token, userId: stranger.userId } };
    const create = async (name: string) => {
      const data = [
        { name: 'Hong Kong HQ', latitude: 22.28, longitude: 114.16, property_type: 'Office', valuation: 2e8, revenue: 3e7 },
        { name: 'Miami branch', latitude: 25.77, longitude: -80.19, property_type: 'Retail', valuation: 5e7, revenue: 1e7 },
      ];
      const res = await s.api.post('/api/v2/create_project/', {
        token: owner.token,
        json: { portfolio_name: name, data, portfolio_variables: ['Extreme Heat'] },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const id = res.body.project.project_id as number;
      for (const [u, permission] of [
        [reader, 'read'],
        [writer, 'write'],
      ] as const) {
        const sh = await s.api.post('/api/v2/share_project/', {
          token: owner.token,
          form: { project_id: String(id), share_with: JSON.stringify([u.userId]), permission },
        });
        assert.equal(sh.status, 201, JSON.stringify(sh.body));
      }
      return { id, name };
    };
    const main = await create('Shared flagship');
    await waitForAnalysis(s, owner.token, main.id);
    const csv = await s.api.post('/api/v2/summary_report/', { token: owner.token, json: { project_name: main.name } });
    assert.equal(csv.status, 200, JSON.stringify(csv.body));
    const carbon = async (name: string) => {
      const res = await s.api.post(`/api/report/create_carbon_analysis/${owner.userId}/`, {
        token: owner.token,
        json: { portfolio_name: name, portfolio_value: 10_000_000, companies_data: COMPANIES },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const id = (await s.db.selectFrom('projects').select('id').where('name', '=', name).where('owner_id', '=', owner.userId).executeTakeFirstOrThrow()).id;
      for (const [u, permission] of [
        [reader, 'read'],
        [writer, 'write'],
      ] as const) {
        const sh = await s.api.post('/api/v2/share_project/', {
          token: owner.token,
          form: { project_id: String(id), share_with: JSON.stringify([u.userId]), permission },
        });
        assert.equal(sh.status, 201, JSON.stringify(sh.body));
      }
      return name;
    };
    c = {
      s,
      who,
      projectId: main.id,
      projectName: main.name,
      scratch: () => create(fresh('Scratch')),
      fileUrl: csv.body.url ?? csv.body.file_url ?? csv.body.link,
      carbonName: await carbon('Shared carbon'),
      carbonScratch: () => carbon(fresh('Carbon scratch')),
      propertyName: 'Shared homes',
      mapName: 'Shared map',
    };
    const map = await s.api.post('/api/v2/create_map_project/', { token: owner.token, form: { ...MAP, name: c.mapName } as unknown as Record<string, string> });
    assert.equal(map.status, 201, JSON.stringify(map.body));
    const mapId = (await s.db.selectFrom('projects').select('id').where('name', '=', c.mapName).executeTakeFirstOrThrow()).id;
    for (const [u, permission] of [
      [reader, 'read'],
      [writer, 'write'],
    ] as const) {
      const sh = await s.api.post('/api/v2/share_project/', {
        token: owner.token,
        form: { project_id: String(mapId), share_with: JSON.stringify([u.userId]), permission },
      });
      assert.equal(sh.status, 201, JSON.stringify(sh.body));
    }
    const homes = await s.api.post('/api/v2/property_risk/', {
      token: owner.token,
      json: { project_name: c.propertyName, data: [{ name: 'Flat', latitude: 22.3, longitude: 114.17 }] },
    });
    assert.equal(homes.status, 202, JSON.stringify(homes.body));
    for (const [u, permission] of [
      [reader, 'read'],
      [writer, 'write'],
    ] as const) {
      const sh = await s.api.post('/api/v2/share_project/', {
        token: owner.token,
        form: { project_id: String(homes.body.project.project_id), share_with: JSON.stringify([u.userId]), permission },
      });
      assert.equal(sh.status, 201, JSON.stringify(sh.body));
    }
    assert.ok(c.fileUrl, `summary_report answers a link: ${JSON.stringify(csv.body)}`);
    const doc = JSON.parse(await generateOpenApi());
    routes = openApiRoutes(doc).map((r) => r.key);
  });
  after(() => s?.close());

  test('every route in the OpenAPI document has an access rule (a new route must say who may call it)', () => {
    const missing = routes.filter((r) => !ACCESS[r]);
    assert.deepEqual(missing, [], `add these routes to ACCESS in authorization.test.ts: ${missing.join(', ')}`);
    const stale = Object.keys(ACCESS).filter((r) => !routes.includes(r));
    assert.deepEqual(stale, [], 'rules for routes that no longer exist');
  });

  test('each role gets exactly what the rule allows', async () => {
    const failures: string[] = [];
    for (const route of routes) {
      const rule = ACCESS[route];
      if (!rule) continue;
      const method = route.split(' ')[0]!;
      for (const role of ROLES) {
        if (role !== 'none' && rule.skip?.includes(role)) continue;
        const me = role === 'none' ? null : c.who[role];
        const call = await rule.call(c, role, me);
        const res = await s.api.request(method, call.path, { ...call.opts, ...(me ? { token: me.token } : {}) });
        const want = expected(rule.kind, role);
        const good =
          want === true ? ok(res.status) : want === 'not-auth-error' ? res.status !== 401 && res.status !== 403 && res.status < 500 : res.status === want;
        if (!good) failures.push(`${route} as ${role}: ${res.status} (want ${want === true ? '2xx' : want}) ${JSON.stringify(res.body).slice(0, 160)}`);
      }
    }
    assert.deepEqual(failures, []);
  });

  test("a path with another user's id is refused for every /{userId}/ route", async () => {
    const failures: string[] = [];
    for (const route of routes.filter((r) => r.includes('{userId}') && !r.includes('/company/members/'))) {
      const rule = ACCESS[route]!;
      const method = route.split(' ')[0]!;
      // The reader addresses the owner's id (same company) and the stranger the owner's id (other company).
      for (const role of ['reader', 'stranger'] as const) {
        const call = await rule.call(c, role, c.who.owner);
        const res = await s.api.request(method, call.path, { ...call.opts, token: c.who[role].token });
        if (res.status !== 403 && res.status !== 404) failures.push(`${route} as ${role} with the owner's id: ${res.status}`);
      }
    }
    assert.deepEqual(failures, []);
  });

  test('a stranger gets 404 for every project id of another company, whatever the route', async () => {
    const failures: string[] = [];
    for (const route of routes.filter((r) => ['read', 'write', 'owner'].includes(ACCESS[r]?.kind ?? ''))) {
      const call = await ACCESS[route]!.call(c, 'stranger', c.who.stranger);
      const res = await s.api.request(route.split(' ')[0]!, call.path, { ...call.opts, token: c.who.stranger.token });
      if (res.status !== 404) failures.push(`${route}: ${res.status}`);
    }
    assert.deepEqual(failures, []);
    // Nothing the stranger tried changed the shared project.
    const p = await s.db.selectFrom('projects').select(['name']).where('id', '=', c.projectId).executeTakeFirstOrThrow();
    assert.equal(p.name, c.projectName);
  });
});
