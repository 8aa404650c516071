// Every module's HTTP routes, registered by buildApp (app.ts). Kept apart from compose.ts so a job worker (worker.ts),
// which builds the services but serves no HTTP, does not load the route modules.
import type { FastifyInstance } from 'fastify';
import { accountRoutes } from './modules/accounts/accounts.routes.js';
import { carbonRoutes } from './modules/carbon/carbon.routes.js';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes.js';
import { geoRoutes } from './modules/geo/geo.routes.js';
import { hazardRoutes } from './modules/hazards/hazards.routes.js';
import { typhoonTrackRoutes } from './modules/hazards/typhoon-track.routes.js';
import { faqRoutes } from './modules/help/faq.routes.js';
import { basemapRoutes, basemapSettingsRoutes } from './modules/maps/basemap.routes.js';
import { mapRoutes } from './modules/maps/maps.routes.js';
import { tileRoutes } from './modules/maps/tiles.routes.js';
import { ownLayerRoutes } from './modules/own-layers/own-layers.routes.js';
import { publishedDatasetRoutes } from './modules/published/published-datasets.routes.js';
import { assetRoutes } from './modules/projects/assets.routes.js';
import { portfolioAssetRoutes } from './modules/projects/portfolio-assets.routes.js';
import { projectListRoutes } from './modules/projects/project-list.routes.js';
import { projectRoutes } from './modules/projects/projects.routes.js';
import { buildingDamageRoutes } from './modules/realestate/building-damage.routes.js';
import { realEstateRoutes } from './modules/realestate/realestate.routes.js';
import { exportRoutes } from './modules/results/exports.routes.js';
import { resultRoutes } from './modules/results/results.routes.js';
import { systemRoutes } from './modules/system/system.routes.js';
import { tcfdRoutes } from './modules/tcfd/tcfd.routes.js';
import { upgradeRequestRoutes } from './modules/upgrades/upgrade-requests.routes.js';
/** Registers every module's HTTP routes, in this order (the order of the OpenAPI document). */
export async function registerRoutes(app: FastifyInstance): Promise<void> {
  await app.register(systemRoutes);
  await app.register(basemapRoutes);
  await app.register(basemapSettingsRoutes);
  await app.register(accountRoutes);
  await app.register(upgradeRequestRoutes);
  await app.register(projectRoutes);
  await app.register(hazardRoutes);
  await app.register(projectListRoutes);
  await app.register(exportRoutes);
  await app.register(resultRoutes);
  await app.register(buildingDamageRoutes);
  await app.register(dashboardRoutes);
  await app.register(assetRoutes);
  await app.register(geoRoutes);
  await app.register(portfolioAssetRoutes);
  await app.register(faqRoutes);
  await app.register(carbonRoutes);
  await app.register(realEstateRoutes);
  await app.register(mapRoutes);
  await app.register(tileRoutes);
  await app.register(typhoonTrackRoutes);
  await app.register(ownLayerRoutes);
  await app.register(publishedDatasetRoutes);
  await app.register(tcfdRoutes);
}
