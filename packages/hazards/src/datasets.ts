/** Attribution of every staged dataset the layers are built from (copied into manifest.json by the build). */
export interface DatasetInfo {
  name: string;
  publisher: string;
  license: string;
  citation: string;
  origin: string;
}

export const DATASETS: Record<string, DatasetInfo> = {
  'etopo5-global-dem': {
    name: 'ETOPO5 5-minute global relief',
    publisher: 'NOAA National Geophysical Data Center (via Debian ferret-datasets 7.6.0-5)',
    license: 'US Government work, public domain',
    citation: 'NOAA NGDC (1988) ETOPO5 Data Announcement 88-MGG-02, Digital relief of the Surface of the Earth.',
    origin: 'ferret-datasets etopo5.cdf',
  },
  'natural-earth': {
    name: 'Natural Earth 1:50m rivers and lake centre lines',
    publisher: 'Natural Earth',
    license: 'Public domain',
    citation: 'Natural Earth (naturalearthdata.com), ne_50m_rivers_lake_centerlines.',
    origin: 'NelisV/ne_geojson@7baddf96',
  },
  'gshhg-wdbii-rivers': {
    name: 'GSHHG 2.3.7 WDBII rivers, full resolution (levels 0-7: double-lined, permanent and intermittent rivers)',
    publisher: 'P. Wessel & W. H. F. Smith (SOEST, University of Hawaii / NOAA); WDBII from the CIA World Data Bank II',
    license: 'GNU LGPL v3',
    citation: 'Wessel, P. & Smith, W. H. F. (1996) A global, self-consistent, hierarchical, high-resolution shoreline database. JGR 101(B4), 8741-8743.',
    origin: 'Debian package gmt-gshhg-full 2.3.7-6, /usr/share/gmt-gshhg/binned_river_f.nc',
  },
  'natural-earth-10m-land': {
    name: 'Natural Earth 1:10m land polygons (coastline), world-atlas land-10m TopoJSON (Natural Earth 4.1.0)',
    publisher: 'Natural Earth; TopoJSON by M. Bostock (world-atlas, ISC)',
    license: 'Public domain (Natural Earth); world-atlas packaging ISC',
    citation: 'Natural Earth (naturalearthdata.com) 1:10m land; world-atlas@2.0.2 land-10m.json.',
    origin: 'npm world-atlas@2.0.2 land-10m.json',
  },
  'ncep-reanalysis1-ltm': {
    name: 'NCEP/NCAR Reanalysis 1, 2 m air temperature monthly LTM 1991-2020',
    publisher: 'NOAA PSL',
    license: 'US Government work, public domain; acknowledge "NCEP-NCAR Reanalysis data provided by the NOAA PSL, Boulder, Colorado, USA"',
    citation: 'Kalnay, E. et al. (1996) The NCEP/NCAR 40-year reanalysis project. BAMS 77, 437-471.',
    origin: 'PSL air.2m.mon.ltm.1991-2020.nc',
  },
  'cmap-precip-ltm': {
    name: 'CMAP precipitation monthly LTM 1981-2010',
    publisher: 'NOAA CPC / PSL',
    license: 'US Government work, public domain; acknowledge "CMAP Precipitation data provided by the NOAA PSL, Boulder, Colorado, USA"',
    citation: 'Xie, P. & Arkin, P. A. (1997) Global precipitation: a 17-year monthly analysis... BAMS 78, 2539-2558.',
    origin: 'PSL cmap/std/precip.mon.ltm.nc',
  },
  cmip6_regional_extremes_ar6: {
    name: 'CMIP6 regional extreme indices at warming levels (AR6 regions) and GSAT by SSP',
    publisher: 'M. Hauser (ETH Zurich), data behind IPCC AR6 WGI Ch. 11',
    license: 'CC BY-SA 4.0 (share-alike applies to derived layers); regions CC BY 4.0',
    citation:
      'Seneviratne, S. I. et al. (2021) IPCC AR6 WGI Ch. 11; Hauser, M. cmip_indices_regional / cmip_temperatures; Iturbide, M. et al. (2020) ESSD 12, 2959 (AR6 regions).',
    origin: 'mathause/cmip_indices_regional@b8239f50, mathause/cmip_temperatures@937855de, SantanderMetGroup/ATLAS@425d4e4f',
  },
  'ipcc-ar6-gmsl-projections': {
    name: 'IPCC AR6 global mean sea-level projections (SPM Fig. 8d central values)',
    publisher: 'IPCC AR6 WGI',
    license: 'CC BY 4.0 (CEDA figure data)',
    citation: 'Fox-Kemper, B. et al. (2021) IPCC AR6 WGI Ch. 9; Garner, G. G. et al. (2021) AR6 Sea Level Projections, doi:10.5281/zenodo.6382554.',
    origin: 'bitEarth01/atlantis@769c4ff9 global_sea_level_projected.csv',
  },
  'psmsl-rlr-annual': {
    name: 'PSMSL RLR annual mean sea level',
    publisher: 'Permanent Service for Mean Sea Level (NOC Liverpool)',
    license: 'Free, without restriction; cite PSMSL',
    citation:
      'PSMSL (2023) Tide Gauge Data, retrieved 09 Oct 2023; Holgate, S. J. et al. (2013) J. Coastal Res. 29(3), 493-504. GIA rates: Peltier, W. R. (2004) Annu. Rev. Earth Planet. Sci. 32, 111-149 (ICE-5G VM2 v1.3, distributed by PSMSL).',
    origin: 'JohannaHillebrand/global-connected-tide-gauge-station-clustering@0fb37cf5',
  },
  'jtwc-besttrack-wp': {
    name: 'JTWC western North Pacific best track 1945-2021',
    publisher: 'U.S. Navy Joint Typhoon Warning Center',
    license: 'US Government work, public domain',
    citation: 'JTWC best-track data, https://www.metoc.navy.mil/jtwc/jtwc.html?western-pacific',
    origin: 'atsuyaourt/jtwc_best_track_wp@1f246546',
  },
  'cma-besttrack-wnp': {
    name: 'CMA tropical cyclone best track 1949-2024',
    publisher: 'China Meteorological Administration, Shanghai Typhoon Institute (tcdata.typhoon.org.cn)',
    license: 'Free to use with credit to tcdata.typhoon.org.cn; not a formal open licence (keep replaceable)',
    citation: 'Ying, M. et al. (2014) JAOT 31, 287-301; Lu, X. Q. et al. (2021) Adv. Atmos. Sci. 38, 690-699.',
    origin: 'lzcapp/TropicalCyclone-Data@62f35da8',
  },
  'ibtracs-wp-v04r01': {
    name: 'IBTrACS v04r01 western Pacific (WMO wind)',
    publisher: 'NOAA NCEI',
    license: 'Open access (NOAA), cite',
    citation: 'Knapp, K. R. et al. (2010) BAMS 91, 363-376; Gahtan, J. et al. (2024) IBTrACS v04r01, doi:10.25921/82ty-9e16.',
    origin: 'baracoma/ibtracs-wp@e27ce6f1',
  },
  'hurdat2-atlantic-1970-2016': {
    name: 'HURDAT2 Atlantic 1970-2016',
    publisher: 'NOAA National Hurricane Center',
    license: 'US Government work, public domain',
    citation: 'Landsea, C. W. & Franklin, J. L. (2013) MWR 141, 3576-3592.',
    origin: 'apatel726/HurricaneDissertation@e42db8ea',
  },
  'hurdat2-nepac-1949-2019': {
    name: 'HURDAT2 NE and Central Pacific 1949-2019',
    publisher: 'NOAA NHC / CPHC',
    license: 'US Government work, public domain',
    citation: 'Landsea, C. W. & Franklin, J. L. (2013) MWR 141, 3576-3592.',
    origin: 'yihsuanliao/Tropical_Storm_Tracking_Analysis_1@fb3496a1',
  },
  'tc-besttrack-north-indian': {
    name: 'North Indian Ocean best tracks 1982-2023 (JTWC b-decks, IMD)',
    publisher: 'U.S. Navy JTWC; India Meteorological Department (RSMC New Delhi)',
    license: 'JTWC public domain; IMD free download without a formal open licence (credit IMD/RSMC New Delhi)',
    citation: 'JTWC North Indian Ocean best tracks; IMD RSMC New Delhi Best Tracks Data 1982-2024.',
    origin: 'sreevathsagolla/NIO-TC-MHW-Intensification@6fc0cfe2',
  },
  'jtwc-besttrack-southern-hemisphere': {
    name: 'JTWC Southern Hemisphere best track 1982-2019',
    publisher: 'U.S. Navy JTWC',
    license: 'US Government work, public domain',
    citation: 'JTWC Southern Hemisphere best tracks (bsh files).',
    origin: 'sydney-machine-learning/cyclonedatasets@223d6f41 (hemisphere signs corrected in staging)',
  },
  'modis-landcover-igbp-0.1deg': {
    name: 'MODIS MCD12C1 land cover (IGBP) 2011, 0.1°',
    publisher: 'NASA Earth Observations / MODIS Land Cover Team',
    license: 'NASA data, not copyrighted; credit NASA NEO',
    citation: 'Friedl, M. A. et al. (2010) Remote Sens. Environ. 114, 168-182 (MCD12); NASA NEO MCD12C1_T1.',
    origin: 'mhallwor/mhallwor.github.io@503e1420',
  },
  'nasa-global-landslide-catalog-points': {
    name: 'NASA Global Landslide Catalog / COOLR point locations',
    publisher: 'NASA GSFC',
    license: 'NASA GLC open grant (permission to use, reproduce and distribute)',
    citation: 'Kirschbaum, D. B. et al. (2010) Nat. Hazards 52, 561-575; Kirschbaum, D. B. et al. (2015) Geomorphology 249, 4-15.',
    origin: 'CLIMADA-project/climada_python test data',
  },
  'hk-geo-landslide-incidents-1984-2020': {
    name: 'Hong Kong reported landslide incidents 1984-2020',
    publisher: 'Geotechnical Engineering Office, CEDD, HKSAR Government',
    license: 'DATA.GOV.HK terms: free reuse incl. commercial with attribution (check before redistribution)',
    citation: 'GEO/CEDD, Landslide data for public (2022-03-15).',
    origin: 'henrychan1862/rainfall@04f3cb30',
  },
  'hko-daily-rainfall': {
    name: 'Hong Kong Observatory daily rainfall 1884-2022',
    publisher: 'Hong Kong Observatory',
    license: 'DATA.GOV.HK terms: free reuse with attribution ("Source: Hong Kong Observatory")',
    citation: 'Hong Kong Observatory, Daily total rainfall at HKO Headquarters.',
    origin: 'henrychan1862/rainfall@04f3cb30',
  },
};
