/**
 * @crp/hazards — eleven hazard layers built from open data, sampled for any point, scenario and year.
 * See docs/methodology/hazards.md.
 */
export {
  loadHazardLayers,
  layersPresent,
  newCurveSample,
  DEFAULT_LAYERS_DIR,
  HAZARD_META,
  CURVE_HAZARDS,
  RPS as RETURN_PERIODS_YEARS,
  type HazardLayers,
  type ScenarioYearOpts,
  type ScenarioContext,
  type CurveSample,
  type CatalogEntry,
  type Manifest,
} from './sampler.js';
export { hazardPoint, hazardCatalog, parseHazardPointQuery, HazardQueryError, defaultHazardLayers, type HazardPointResponse } from './api.js';
export { interpLogRp } from './sampler.js';
export {
  ByoRegistry,
  addToByoCatalog,
  byoCatalogPath,
  validateByoEntry,
  readGeoTiffLayer,
  geoTiffSize,
  decodedRaster,
  rasterFromDecoded,
  OwnLayerError,
  DEFAULT_BYO_CATALOG,
  type ByoEntry,
  type ByoRaster,
  type DecodedRaster,
  type ReadLimits,
} from './byo.js';
export { readNetcdfLayer, looksLikeNetcdf } from './netcdf-layer.js';
export { crsOf, crsOfWkt, SUPPORTED_CRS_TEXT, type CrsInfo } from './crs.js';
export { warmingLevelC, gmslRiseSince2020M, knutsonFactor, deltaAtGwl, pchip, type HazardParams } from './scenario.js';
export * from './scoring.js';
export { DATASETS, type DatasetInfo } from './datasets.js';
export {
  loadTrackArchive,
  defaultTrackArchive,
  trackArchiveFrom,
  trackDataSources,
  segmentDistanceKm,
  greatCircleKm,
  saffirSimpson,
  EARTH_RADIUS_KM,
  TRACKS_FILE_NAME,
  type TrackArchive,
  type TrackStorm,
  type TrackPoint,
  type NearbyStorm,
  type NearbyQuery,
  type NearbyResult,
  type SaffirSimpson,
  type TrackSourceInfo,
} from './tracks.js';
export { parseFloodFileName, FloodNameError, type FloodFileKey, type PublishedScenario } from './published/flood-names.js';
export { readTiffHeader, TiffHeaderError, BlockCache, MAX_BLOCK_BYTES, type TiffHeader } from './published/tiff-window.js';
export { PublishedDatasets, publishedBlockCache, type PublishedFile, type PublishedRegistration } from './published/dataset.js';
export { scanPublishedDirectory, type ScanResult } from './published/scan.js';
