/**
 * Release notes, kept as data (spec 001 §2.9). The server announces every release it has not announced yet
 * to every user as a notification that opens /changelog.
 */
export interface Release {
  version: string;
  /** ISO date. */
  date: string;
  title: string;
  items: string[];
}

export const RELEASES: readonly Release[] = [
  {
    version: '4.75',
    date: '2025-04-16',
    title: 'Adaptation measures and building age',
    // issue 37 item 7: each line checked against the code (the spec's 'coming soon' measures exist for every hazard)
    items: [
      'Adaptation measures for every hazard: flood-proofing heights and protection standards for river flood, rainfall flood and storm surge, damage reductions for typhoon, wildfire, heat, drought and the others.',
      'Building age as an asset attribute (stored and editable in the asset table; the models do not use it).',
      'Residual 20-year expected loss after adaptation.',
    ],
  },
  {
    version: '4.8',
    date: '2025-08-27',
    title: 'Asset table, bulk edit and multi-step portfolio creation',
    items: [
      'Asset table with bulk edit.',
      'Multi-step portfolio creation.',
      'Total asset value.',
      'Yearly inventory value per asset, entered in the asset table (not a column of the upload file).',
      'Two-factor authentication.',
    ],
  },
  {
    version: '4.9',
    date: '2025-10-17',
    title: 'Extreme heat',
    items: [
      'Extreme heat as working hours lost to heat stress.',
      'Not in this platform: the urban heat index, global building heights and finer national hazard resolutions of the earlier hosted product; every hazard here is read from the global open layers described in the methodology.',
    ],
  },
  {
    version: '5.0',
    date: '2026-11-22',
    title: 'New open platform foundation',
    items: [
      'Accounts with company codes: colleagues join a company only after an administrator approves them.',
      'Two-factor authentication by authenticator app or e-mail code, with replay protection.',
      'Runs on an embedded PostgreSQL (PGlite) or on a PostgreSQL server.',
      'Eleven hazards modelled from open data for SSP1-2.6, SSP2-4.5 and SSP5-8.5 to 2100, with a point API and a layer catalogue.',
      'Portfolios from map clicks, CSV, XLSX or XLS files, listed companies and benchmark indices, with offline geocoding.',
      'Project list with sharing (read or write), renaming, exports to Excel and the physical-risk dashboard.',
      'Help centre, climate methodology and adaptation measures documents.',
    ],
  },
  {
    version: '5.1',
    date: '2026-11-28',
    title: 'Loss figures recalibrated (methodology 2026.11-2)',
    items: [
      'Heat is business interruption costed at the wage bill of the lost work hours, not at revenue.',
      'Drought of water-intensive firms follows water-supply outages; ordinary buildings lose nothing to drought.',
      'Wind damage by construction class (concrete, steel, masonry, wood, manufactured) from the FEMA Hazus hurricane curves.',
      'Cold and snow futures follow the regional winter warming; landslide rates corrected for under-reporting outside Hong Kong.',
      'Relative sea level everywhere, with glacial land motion and subsiding cities; wider floodplains on flat land.',
      'Uploaded files are read in a sandboxed process with memory and time limits.',
    ],
  },
];
