import { HAZARDS } from '@crp/contracts';

export const AUDIENCES = [
  {
    key: 'corporations',
    title: 'Corporations',
    text: 'Screen plants, warehouses and suppliers for flood, typhoon and heat, and report the results in TCFD and ISSB disclosures.',
  },
  {
    key: 'investors',
    title: 'Investors',
    text: 'Compare holdings by 20-year expected loss, add listed companies or an index in one step, and track the carbon footprint of a portfolio.',
  },
  {
    key: 'banks',
    title: 'Banks and insurers',
    text: 'Stress-test collateral and underwriting books under RCP and SSP pathways, with loss estimates per asset and per hazard.',
  },
  {
    key: 'realestate',
    title: 'Real-estate owners',
    text: 'Property-level flood and typhoon scores, building-damage curves and the adaptation measures that cut expected losses.',
  },
  {
    key: 'communities',
    title: 'Communities',
    text: 'Hazard maps around schools, hospitals and infrastructure to plan adaptation where the future risk is highest.',
  },
] as const;

export const HAZARD_LIST = HAZARDS.map((h) => ({ key: h.key, label: h.label, kind: h.kind }));

export const HORIZONS = [
  { year: 2020, label: 'Baseline', text: 'Observed climate and historical events' },
  { year: 2040, label: 'Near term', text: 'The horizon of today’s loans and leases' },
  { year: 2060, label: 'Mid-century', text: 'Where pathways start to diverge' },
  { year: 2080, label: 'Late century', text: 'Asset lives of infrastructure' },
  { year: 2100, label: 'End of century', text: 'Full physical consequences of each pathway' },
] as const;

export const DATA_SOURCES = [
  { group: 'Tropical cyclone tracks', items: ['IBTrACS', 'JTWC', 'CMA', 'HURDAT2'] },
  { group: 'Elevation and terrain', items: ['ETOPO global relief'] },
  { group: 'Climate baselines', items: ['NCEP reanalysis', 'CMAP precipitation'] },
  { group: 'Future extremes', items: ['CMIP6', 'IPCC AR6 regional extremes'] },
  { group: 'Sea level', items: ['IPCC AR6 sea-level projections', 'PSMSL tide gauges'] },
  { group: 'Land cover', items: ['MODIS land cover'] },
  { group: 'Landslides', items: ['NASA Global Landslide Catalog'] },
  { group: 'Economy and boundaries', items: ['World Bank indicators', 'Natural Earth'] },
] as const;

export const STEPS = [
  { title: 'Add your assets', text: 'Click them on a map, upload a CSV or spreadsheet, search listed companies, or add a benchmark index.' },
  { title: 'Choose hazards and pathways', text: 'River flood, typhoon and storm surge by default, plus up to eight more, under RCP or SSP scenarios.' },
  { title: 'Act on the results', text: 'Dashboards, heat maps, loss tables, TCFD and slide reports, and CSV downloads for your own models.' },
] as const;
