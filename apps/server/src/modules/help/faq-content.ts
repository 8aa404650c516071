/**
 * The built-in FAQ content (spec 001 §2.8), kept as data and written to the database at start-up by
 * FaqService.seed() (insert or update by `key`). Every answer is taken from our own documentation:
 * docs/methodology/hazards.md, docs/methodology/engine.md, docs/validation.md, docs/decisions.md, docs/geocoding.md,
 * docs/dashboard.md and the upload rules in @crp/contracts (assets.ts). Change the answer here when those change.
 */

import { PERILS_NOT_MODELLED, PERILS_NOT_MODELLED_SHARE } from '@crp/contracts';

export interface FaqCategory {
  name: string;
  children: string[];
}

export interface FaqItemContent {
  /** Stable key: the upsert identity. Never reuse a key for a different question. */
  key: string;
  title: string;
  /** HTML (sanitised on write and on read). */
  content: string;
  /** Keyword names (categories or children) the item is filed under. */
  keywords: string[];
  /** Image URLs shown with the answer. */
  attachments?: string[];
}

export const FAQ_CATEGORIES: readonly FaqCategory[] = [
  { name: 'Risk metrics', children: ['20-year expected loss', 'Scores and bands', 'Losses and premium'] },
  { name: 'Hazards', children: ['Floods', 'Typhoon and coast', 'Heat, cold and snow', 'Wildfire, landslide and drought', 'Model quality'] },
  { name: 'Scenarios and data', children: ['Scenarios and years', 'Data sources and licences', 'Bring your own data'] },
  { name: 'Portfolios and uploads', children: ['Uploading assets', 'Asset fields', 'Asset limits'] },
  { name: 'Adaptation', children: ['Adaptation measures'] },
  { name: 'Account and security', children: ['Company codes', 'Two-factor authentication', 'Subscription tiers'] },
  { name: 'Sharing, exports and API', children: ['Sharing projects', 'Exports', 'API access'] },
];

const METHODOLOGY = '<a href="/methodology">Climate Methodology</a>';
const TOOLKIT = '<a href="/toolkit">Adaptation Methodology</a>';

export const FAQ_ITEMS: readonly FaqItemContent[] = [
  // ---------------------------------------------------------------- Risk metrics
  {
    key: 'metric-cvar',
    title: 'What is the 20-year expected loss?',
    keywords: ['20-year expected loss'],
    content: `<p>The 20-year expected loss is the expected physical-climate loss of an asset or portfolio accumulated over a 20-year window around the year you choose, in USD and undiscounted:</p>
<pre>L20(Y) = Σ EAL(t) for t = Y−9 … Y+10   (for 2100: t = 2081 … 2100)</pre>
<p>EAL(t) is the expected annual loss of year t for the chosen hazards, analysis type and scenario. Between the stored scenario years it is interpolated linearly, after the last stored year it is held flat (for example RCP after 2050), and before 2020 the 2020 value is used.</p>
<ul>
<li>An asset's 20-year expected loss is capped at its exposed value plus 20 years of revenue.</li>
<li>A portfolio's 20-year expected loss is the sum of its assets': no diversification between assets is assumed.</li>
<li><strong>20-year expected loss %</strong> = 20-year expected loss / exposed value, where exposed value = (building [+ content + inventory]) × ownership.</li>
</ul>
<p>It is a sum of expected losses, not a tail measure. Earlier versions of the product and the API field names (<code>cvar_usd</code>, <code>climate_value_at_risk</code>) call it "climate value at risk"; it is not a conditional value at risk. For the loss of a rare year see the 1-in-100 and 1-in-250-year losses. See section 3.3 of the ${METHODOLOGY}.</p>`,
  },
  {
    key: 'metric-rcvar',
    title: 'What is the residual 20-year expected loss?',
    keywords: ['20-year expected loss', 'Adaptation measures'],
    content: `<p>The residual 20-year expected loss is the same 20-year sum, computed with the <em>residual</em> expected annual loss: the loss left after the asset's mitigation level (none, low, medium, high) and any adaptation measures you added have been applied.</p>
<p>Measures can never raise a loss: their parameters are clamped and the residual is capped at the unadapted value, so the residual is never above the 20-year expected loss. The dashboard's asset table shows it in $ and % per asset.</p>`,
  },
  {
    key: 'metric-avoided-loss',
    title: 'What is avoided loss?',
    keywords: ['20-year expected loss', 'Adaptation measures'],
    content: `<p><strong>Avoided loss = 20-year expected loss − residual 20-year expected loss</strong>, which is never negative. It is the part of the 20-year expected loss that the asset's mitigation level and adaptation measures take away. An asset without mitigation (level none and no measures) has an avoided loss of 0.</p>`,
  },
  {
    key: 'metric-max-exposure',
    title: 'What is maximum exposure?',
    keywords: ['20-year expected loss', 'Losses and premium'],
    content: `<p>Maximum exposure is the loss in the rarest modelled event at the chosen year: the damage ratio at the largest return period (1,000 years) × the exposed value, plus the downtime caused by that damage × revenue. For chronic hazards (heat, cold, drought, snowfall, sea-level rise) the annual loss is used.</p>
<p>The portfolio's maximum exposure is the sum over its assets (no diversification), so it is a deliberately pessimistic figure.</p>`,
  },
  {
    key: 'metric-climate-score',
    title: 'What does the Climate Score mean?',
    keywords: ['Scores and bands'],
    attachments: ['/documents/faq/climate-score-bands.svg'],
    content: `<p>The Climate Score (0-100) summarises how large the expected annual loss is relative to what is at risk. For an asset it is the score of the sum of its hazards' losses; for a portfolio it is the score of the total expected annual loss divided by the total exposed value.</p>
<p>The score is shown in three bands:</p>
<table><thead><tr><th>Score</th><th>Label</th><th>Colour</th></tr></thead>
<tbody><tr><td>below 20</td><td>Low</td><td>green</td></tr><tr><td>20 to below 60</td><td>Medium</td><td>amber</td></tr><tr><td>60 and above</td><td>High</td><td>red</td></tr></tbody></table>
<p>Scores are stored with and without adaptation, so the dashboard can show both.</p>`,
  },
  {
    key: 'metric-hazard-score',
    title: 'How is a hazard score (0-100) calculated?',
    keywords: ['Scores and bands'],
    content: `<p>Hazard scores use the breakpoints of OS-Climate physrisk's generic score-based risk measures:</p>
<ul>
<li><strong>Acute hazards</strong> on the expected annual loss as a fraction of value: very low &lt; 0.01 %, low 0.01-0.2 %, medium 0.2-1 %, high 1-5 %, very high ≥ 5 %.</li>
<li><strong>Chronic hazards</strong> on disruption as a fraction of revenue: &lt; 0.01 %, 0.01-1 %, 1-5 %, 5-10 %, ≥ 10 %.</li>
</ul>
<p>The five classes map onto the score bands 0-20-40-60-80-100, log-linear inside each class; the score reaches 100 at 25 %. Below 0.01 % the score runs log-linearly from 1 (at 10⁻⁷) to 20, and 0 (No Risk) is given only for an exactly zero loss. A hazard's score is the larger of its acute score (damage plus operational loss over damageable value) and its chronic score (disruption).</p>`,
  },
  {
    key: 'metric-severity-bands',
    title: 'What do the severity bands (No Risk to Very High) mean?',
    keywords: ['Scores and bands'],
    attachments: ['/documents/faq/severity-bands.svg'],
    content: `<p>Each hazard score is given a severity band:</p>
<table><thead><tr><th>Score</th><th>Band</th></tr></thead><tbody>
<tr><td>0</td><td>No Risk</td></tr><tr><td>above 0, below 25</td><td>Low</td></tr><tr><td>25 to below 50</td><td>Medium</td></tr>
<tr><td>50 to below 75</td><td>Medium-High</td></tr><tr><td>75 to below 100</td><td>High</td></tr><tr><td>100</td><td>Very High</td></tr></tbody></table>
<p>On the hazard maps the same scores come from the hazard intensity itself, e.g. the 100-year typhoon wind against the bands 61/88/117/193 km/h and the 100-year flood depth against 0.25/0.5/1/2 m (section 4 of the hazard methodology).</p>`,
  },
  {
    key: 'metric-no-data',
    title: 'Why does a hazard show "no data" instead of zero?',
    keywords: ['Scores and bands', 'Model quality'],
    content: `<p>We never report a fake zero. When a layer has no data at a point (for example typhoon and storm surge outside every basin with tropical-cyclone tracks, such as Europe and the South Atlantic, or sea-level rise more than 50 km inland) the value is <em>null</em> and the score is stored as "no data" rather than 0.</p>
<p>A <em>modelled</em> zero is different: a point in a typhoon basin that no storm ever reached, or a cell far from any mapped river, is reported as 0.</p>`,
  },
  {
    key: 'metric-eal',
    title: 'What is expected annual loss (EAL) and what goes into it?',
    keywords: ['Losses and premium'],
    content: `<p>Per asset, hazard and scenario-year, all multiplied by ownership % / 100 (default 100 %):</p>
<pre>EAL = EAD × (building [+ content + inventory]) + disruption × revenue</pre>
<ul>
<li>Building value is the construction cost if given, otherwise the valuation.</li>
<li>EAD is the expected annual damage ratio of the hazard; disruption is the expected annual fraction of revenue lost.</li>
<li>Missing, NA or negative amounts count as 0.</li>
<li>"Add Content / Remove Content" on the dashboard switches the content and inventory terms on or off.</li>
</ul>`,
  },
  {
    key: 'metric-ead-curve',
    title: 'How do you turn a return-period curve into an expected annual damage?',
    keywords: ['Losses and premium'],
    content: `<p>For acute hazards the hazard layers give the intensity at return periods 2, 5, 10, 25, 50, 100, 250, 500 and 1000 years. Each intensity is turned into a damage ratio D<sub>i</sub> with the vulnerability curve, and the expected annual damage is the trapezoid rule over exceedance probability p<sub>i</sub> = 1/RP<sub>i</sub>:</p>
<pre>EAD = Σ (p_i − p_i+1) · (D_i + D_i+1)/2  +  p_n · D_n</pre>
<p>Events rarer than 1,000 years keep the 1,000-year damage (conservative); nothing is added for events more frequent than 2 years (the 2-year event is taken as the onset of damage). Worked example: RP 2, 10, 100 with D = 0.1, 0.3, 0.6 gives 0.08 + 0.0405 + 0.006 = 0.1265.</p>`,
  },
  {
    key: 'metric-operational-gdp',
    title: 'What are operational loss and GDP-adjusted operational loss?',
    keywords: ['Losses and premium'],
    content: `<p>Operational (business-interruption) loss = disruption × revenue. Acute damage becomes lost revenue through the physrisk generic downtime curve: a damage ratio up to 0.1 causes no downtime, 0.5 causes one year of lost revenue, linear in between and capped at one year.</p>
<p>The <strong>GDP-adjusted</strong> option grows revenue with world GDP under the scenario's SSP (2.6 → SSP1, 4.5 → SSP2, 8.5 → SSP5): relative to 2020, 2.5 / 2.2 / 3.0 in 2050 and 4.8 / 4.5 / 8.3 in 2100 for SSP1 / SSP2 / SSP5, after the OECD projections of the SSP database (Dellink et al. 2017), interpolated log-linearly. These factors are marked "to verify" in our methodology, and national growth is not used yet.</p>`,
  },
  {
    key: 'metric-premium',
    title: 'How is the technical insurance premium calculated?',
    keywords: ['Losses and premium'],
    content: `<p>With the expected value premium principle with expenses (Kaas, Goovaerts, Dhaene &amp; Denuit 2008, §5.2), over the insurable hazards:</p>
<pre>premium = (1 + θ) · EAL(insurable) / (1 − expense ratio),   θ = 0.3, expense ratio 0.25</pre>
<p>Insurable: river, rainfall and coastal flood, tropical cyclone, wildfire, landslide, snow load and freeze, with the business interruption that follows the damage. Chronic heat and drought disruption and permanent sea-level rise are gradual and not insurable, so they carry no premium (they stay in the expected loss and the 20-year expected loss). θ and the expense ratio are product parameters, not market quotes; property premiums for well-protected buildings typically come out at 0.05-0.3 % of value a year.</p>
<p>The 1-in-100 and 1-in-250-year losses shown beside the premium are the losses of those rare events (each asset's hazards added, assets added: an upper bound for a spread-out portfolio).</p>`,
  },
  {
    key: 'metric-key-findings',
    title: 'What do the key findings (value of transition policies, "increased by") mean?',
    keywords: ['20-year expected loss', 'Scenarios and years'],
    content: `<ul>
<li><strong>Value of transition policies</strong> = portfolio 20-year expected loss under 8.5 − the same under 2.6, for your analysis type and year: the loss a low-emission pathway avoids.</li>
<li><strong>Increased by 2030 / 2050 / 2100</strong> = 100 × (L20(year) − L20₂₀₂₀) / L20₂₀₂₀ for the chosen scenario, where L20 is the 20-year expected loss and L20₂₀₂₀ is 20 × the 2020 expected annual loss (today's climate held over the window).</li>
</ul>
<p>RCP analyses have no 2100, so that field is empty for them.</p>`,
  },
  {
    key: 'metric-baseline-loss',
    title: 'Why do hot, cold or dry sites already show a loss in 2020?',
    keywords: ['Losses and premium', 'Heat, cold and snow'],
    content: `<p>Heat, cold and drought are scored on absolute climate (warmest- and coldest-month temperature, aridity), so a site in a hot desert or a very cold region carries a loss already in today's climate. The climate-change signal is the increase against 2020, which the key findings ("increased by") show.</p>`,
  },

  // ---------------------------------------------------------------- Hazards
  {
    key: 'hazard-overview',
    title: 'Which hazards do you model, and how reliable is each one?',
    keywords: ['Hazards', 'Model quality'],
    content: `<p>Eleven hazards, each with an indicator and a data tier:</p>
<table><thead><tr><th>Hazard</th><th>Indicator</th><th>Tier</th></tr></thead><tbody>
<tr><td>Typhoon</td><td>1-min sustained wind at 10 m (m/s), 2-1000-year curve</td><td>observed/modelled from real data</td></tr>
<tr><td>River flood</td><td>flood depth (m), curve</td><td>model on real inputs (screening)</td></tr>
<tr><td>Rainfall flood</td><td>flood depth (m), curve</td><td>model on real inputs (screening)</td></tr>
<tr><td>Storm surge</td><td>inundation depth (m), curve</td><td>model on real inputs</td></tr>
<tr><td>Sea-level rise</td><td>relative rise since 2020 (m)</td><td>observed/modelled from real data</td></tr>
<tr><td>Extreme heat</td><td>warmest-month mean temperature (°C)</td><td>observed/modelled from real data</td></tr>
<tr><td>Extreme cold</td><td>coldest-month mean temperature (°C)</td><td>observed/modelled from real data</td></tr>
<tr><td>Snowfall</td><td>annual snowfall, water equivalent (mm/yr)</td><td>model on real inputs</td></tr>
<tr><td>Wildfire</td><td>annual burn probability</td><td>model on real inputs (screening)</td></tr>
<tr><td>Landslide</td><td>annual probability of a reported landslide within 1 km</td><td>model on real inputs (screening)</td></tr>
<tr><td>Drought</td><td>aridity index P/PET</td><td>model on real inputs</td></tr>
</tbody></table>
<p>Except for typhoon wind, temperature and sea level, these are <strong>screening-grade</strong> models on coarse inputs (9 km elevation, 2-2.5° climate grids): they rank places credibly and give order-of-magnitude intensities; they are not engineering or parcel-level flood maps.</p>`,
  },
  {
    key: 'hazard-typhoon',
    title: 'How is typhoon (tropical-cyclone) wind modelled?',
    keywords: ['Typhoon and coast'],
    content: `<p>From every staged best track (JTWC, CMA, IBTrACS/RSMC Tokyo, HURDAT2 Atlantic and NE/Central Pacific, JTWC and IMD North Indian, JTWC Southern Hemisphere; 1970s-2020s) we compute a wind field per track fix with the Holland (2008) and Holland, Belanger &amp; Fritz (2010) profiles, as CLIMADA does, anchored to the best-track maximum wind, on a 0.25° (about 28 km) grid.</p>
<p>Each cell's storm maxima give event rates; these are smoothed over 48 km and a generalised Pareto distribution is fitted above 17.5 m/s to give the 2-1000-year return levels. Future climate: the Knutson et al. (2020) median intensity change per basin at +2 °C (e.g. western Pacific +5.3 %), scaled to any warming level with Jewson (2021). Frequency changes are not applied.</p>
<p><strong>Limits:</strong> open-terrain wind without terrain or roughness effects; the field cannot exceed the best-track intensity; 40-50 years of record, so 250-1000-year levels rest on the fitted tail; no tracks for the South Atlantic or Mediterranean (no data there).</p>`,
  },
  {
    key: 'hazard-typhoon-damage',
    title: 'How does typhoon wind become damage?',
    keywords: ['Typhoon and coast', 'Losses and premium'],
    content: `<p>With the Emanuel (2011) impact function: v<sub>n</sub> = max(V − 25.7, 0) / (V<sub>half</sub> − 25.7), damage = v<sub>n</sub>³ / (1 + v<sub>n</sub>³), with V the 1-minute wind at 10 m in m/s.</p>
<p>V<sub>half</sub> depends on the region, from Eberenz, Lüthi &amp; Bresch (2021), calibrated on 473 recorded events: we use their calibration that reproduces each region's reported total damage (TDR), e.g. 89.2 m/s for the USA and Canada, 112.8 for mainland China, 64.1 for Oceania and 52.4 for the South Indian Ocean; for the Philippines (84.7) and for Hong Kong, Japan, South Korea, Macao and Taiwan (135.6) their other calibration (RMSF), because the TDR values there (188-191 m/s) are implausible. A building with a construction class uses the FEMA Hazus hurricane curve of its building type instead. Wind-energy assets use the wind-turbine fragility curve of Rose et al. (2012) instead.</p>`,
  },
  {
    key: 'hazard-storm-surge',
    title: 'How is storm surge modelled?',
    keywords: ['Typhoon and coast'],
    content: `<p>A "bathtub" model as in CLIMADA-petals: the surge height for the T-year wind is s = 0.1023·(V<sub>T</sub> − 26.8224) + 1.8288 m above 60 knots, plus the sea-level rise of that year; the depth at a site is what remains after subtracting the ground elevation (ETOPO5, about 9 km cells) and an inland decay of 0.2 m per km, for sites within 50 km of the sea.</p>
<p><strong>Limits:</strong> no dikes or protection standards, no tide, waves or bathymetric amplification, and 9 km elevation. Hong Kong's urban waterfront cell averages tens of metres, so the built-in surge there is 0: use a bring-your-own surge or elevation layer for waterfront assets. Storm surge has no data where typhoon has none.</p>`,
  },
  {
    key: 'hazard-sea-level',
    title: 'How is sea-level rise modelled?',
    keywords: ['Typhoon and coast'],
    content: `<p>Relative rise since 2020 = the IPCC AR6 central projection of global mean sea level for the scenario and year, plus a local rate from the nearest PSMSL tide gauge within 100 km that has a long, clean, well-fitted record (at least 40 annual values over at least 40 years since 1960, no PSMSL quality flags, trend standard error at most 1 mm/yr): its trend minus the global rate over the same years, capped at ±10 mm/yr. The local rate carries land subsidence and regional ocean effects. The hazard point answer also gives the AR6 likely (17-83 %) range beside the median.</p>
<p>The score measures the rise and the exposure to it: the rise (as a share of 1 m) times the site's position in the 10 m Low Elevation Coastal Zone after the rise, so no site scores before the sea has risen and high ground scores low. There is no value more than 50 km inland. <strong>Limits:</strong> observed local trends (for example past groundwater subsidence) may not continue; 9 km elevation; no coastal protection.</p>`,
  },
  {
    key: 'hazard-river-flood',
    title: 'How is river flood modelled?',
    keywords: ['Floods'],
    content: `<p>A screening model: on the 5-arc-minute (about 9 km) ETOPO5 grid we compute each land cell's height above the lowest mapped river or lake cell within about 28 km (a "HAND" proxy, Natural Earth 1:50m rivers). The 100-year flood stage is taken as 5 m above the channel (the HAND limit of the flood-prone floodplain class, Rennó et al. 2008; Nobre et al. 2011), other return periods follow the Hong Kong Observatory 5-day rainfall growth curve, and the future scales with the regional change of 5-day maximum rainfall. Depth = stage − HAND, never negative.</p>
<p><strong>Limits:</strong> no discharge, catchment area or flood protection; rivers below the 1:50m map scale are missing (depth 0); one growth curve for the world. It is a ranking value: for depths, register a flood-depth GeoTIFF such as WRI Aqueduct as your own layer.</p>`,
  },
  {
    key: 'hazard-rainfall-flood',
    title: 'How is rainfall (pluvial) flood modelled?',
    keywords: ['Floods'],
    content: `<p>The T-year daily rainfall is the local wettest-month mean daily rain (CMAP) times a ratio calibrated on the Hong Kong Observatory's 130-year daily record (e.g. 40.4 for the 100-year day), increased by the regional change of maximum 1-day rainfall. Runoff follows the SCS curve-number method (TR-55), with the curve number from MODIS land cover. The ponding depth is the runoff above that of today's 10-year storm, because urban drainage is typically sized for 2-10-year storms (FHWA HEC-22).</p>
<p><strong>Limits:</strong> one-station calibration (wet tropical and monsoon climates fit; arid climates with rare storms are underestimated), no topographic concentration of water and no real drainage data.</p>`,
  },
  {
    key: 'hazard-flood-damage',
    title: 'How does flood depth become damage?',
    keywords: ['Floods', 'Losses and premium'],
    content: `<p>With the JRC global depth-damage curves (Huizinga, de Moel &amp; Szewczyk 2017) by occupancy (residential, commercial, industrial, transport, roads, agriculture) and continent, on depths 0-6 m, flat beyond 6 m. The same curves apply to river, rainfall and storm-surge depths and cover the building with its content.</p>
<ul>
<li>The continent comes from the asset's country code, or from its coordinates when no code is given.</li>
<li>A plinth (first-floor) height, when given, is subtracted from the depth; North American assets without one use the Hazus default of 0.305 m.</li>
<li>Conservative choices: no "undamageable part" and no reduction for multi-storey buildings.</li>
</ul>`,
  },
  {
    key: 'hazard-landslide',
    title: 'How is landslide modelled?',
    keywords: ['Wildfire, landslide and drought'],
    content: `<p>From catalogues of <em>reported</em> landslides: inside Hong Kong the GEO incident catalogue 1984-2020 (a complete register, about 230 incidents a year); elsewhere the NASA Global Landslide Catalog (about 13,100 points, 2007-2018), which reports far fewer: over 2007-2018 it holds 9 points inside Hong Kong where the GEO register holds 2,472 incidents, so each NASA point stands for about 275 landslides. Slopes outside Hong Kong are also taken at Hong Kong's risk level before its slope-safety programme, which cut the risk from man-made slopes to under a quarter of the 1977 level (Ho & Cheung 2016), so 4 times the risk per landslide. The rate per km² in a window of about 100 km is redistributed by relative slope, and the result is the annual probability of at least one landslide within 1 km of the site. The future scales the number of landslides with the change in maximum 1-day rainfall.</p>
<p>For losses, the chance that a landslide reaches the building is calibrated on the Hong Kong catalogue's own consequence records: 148 incidents evacuated or damaged a building in 1984-2020, among about 43,000 private buildings, so each landslide within 1 km hits the site with a probability of about 0.02 %; 12 of those 148 damaged the building, so a hit costs 0.6 × 12/148 ≈ 5 % of the value on average. A Hong Kong office expects about 0.0006 % of its value per year in damage, a house in a hillside town with many reported landslides (Darjeeling, Pokhara, Java's Bogor) 0.002-0.008 %, flat land 0. <strong>Limits:</strong> one completeness factor (measured in Hong Kong) for the whole NASA catalogue, which reports less where media coverage is sparse, so remote steep regions with no reports still score 0; 9 km slope.</p>`,
  },
  {
    key: 'hazard-wildfire',
    title: 'How is wildfire modelled?',
    keywords: ['Wildfire, landslide and drought'],
    content: `<p>The annual burn probability combines fuel (MODIS forests, shrublands, savannas and grasslands burn; water, wetlands, croplands, cities, snow and barren land never do), the length of the fire season (dry months by Bagnouls-Gaussen, plus the fuel dryness of other months by the Monthly Drought Code of the Canadian fire-weather system), annual precipitation (fire is fuel-limited below 1000 mm/yr) and evaporative demand warmed with the scenario. One constant is set so that the global total equals the ESA FireCCI51 mean burned area 2001-2016, 3.81 million km² per year.</p>
<p>Damage = 0.7 × probability (physrisk generic fire model); disruption = 0.25 × probability. <strong>Limits:</strong> no ignition, fire weather or suppression; Mediterranean shrublands come out 3-5× too high and savannas about 2× too low; monthly climate data underestimate the dryness of boreal and temperate forests (Quebec still gets 0) and cannot tell SE Australia from lowland England. Buildings on city pixels get 0 (built-up land is non-burnable in FireCCI51); buildings on vegetated pixels get the vegetation's rate. Use a bring-your-own fire-probability layer where you have one.</p>`,
  },
  {
    key: 'hazard-heat',
    title: 'How is extreme heat modelled and what does it cost?',
    keywords: ['Heat, cold and snow'],
    content: `<p>The indicator is the warmest-month mean 2 m air temperature of the NCEP/NCAR Reanalysis 1991-2020, plus the regional CMIP6 change of the hottest day (TXx) at the scenario's warming level. The score is the area-weighted percentile of the 2020 value among land cells.</p>
<p>Heat causes disruption, not damage: 0 at 25 °C or below, 0.25 % of revenue at 28, 1 % at 31, 2.5 % at 34, 5 % at 37 and 8 % at 40 °C or above, times a property-type sensitivity of 0.5-2 (a rule anchored to ILO 2019 working-hour losses). <strong>Limits:</strong> about 200 km cells blur coasts and mountains; no daily extremes or humidity.</p>`,
  },
  {
    key: 'hazard-cold',
    title: 'How is extreme cold modelled?',
    keywords: ['Heat, cold and snow'],
    content: `<p>The indicator is the coldest-month mean temperature (NCEP/NCAR Reanalysis 1991-2020) plus the regional CMIP6 change of the winter-mean temperature at the scenario's warming level (AR6 WGI Atlas regional data; not the change of the coldest night, TNn, which warms faster than the winter mean). Lower is worse. The score follows the Köppen-Geiger thresholds: a coldest month of 18 °C or more scores 0, 0 °C scores 25 and −38 °C scores 100, linear between.</p>
<p>Losses (a documented rule for freeze damage and outages): damage 0 at 0 °C or above, 0.05 % at −10, 0.1 % at −20 and 0.2 % at −30 °C or below; disruption 0.2 %, 0.5 % and 1 % at the same temperatures.</p>`,
  },
  {
    key: 'hazard-snow',
    title: 'How is snowfall modelled?',
    keywords: ['Heat, cold and snow'],
    content: `<p>Monthly CMAP precipitation times the snow fraction of the monthly temperature (all snow at 0 °C or below, all rain at 2 °C or above, linear between, after the NWS Snow-17 guidance), summed over the year as water equivalent, with temperatures warmed by the scenario. The score is the percentile among snowy land cells.</p>
<p>Damage starts above 150 mm/yr (0.02 % at 300, 0.1 % at 800, 0.3 % at 1500, 0.5 % at 3000 mm or more), because roofs are designed for the local snow load; disruption is 3 × damage. <strong>Limits:</strong> monthly means miss some snow; 2.5° precipitation misses mountain snow (Sapporo and the Alps are underestimated); no snow-load data.</p>`,
  },
  {
    key: 'hazard-drought',
    title: 'How is drought modelled?',
    keywords: ['Wildfire, landslide and drought'],
    content: `<p>With the UNEP aridity index AI = P/PET: annual CMAP precipitation over Thornthwaite potential evapotranspiration from NCEP temperatures warmed by the scenario. Precipitation is held at the baseline, so only evaporative demand grows and drought never lessens with warming. Scores follow the UNEP classes: hyper-arid below 0.05 (100), arid 0.05-0.2, semi-arid 0.2-0.5, dry sub-humid 0.5-0.65, humid above.</p>
<p>The loss is business interruption (lost revenue), never damage to the building, and it is keyed to the change of the water balance, not to the aridity: a business is taken as adapted to its climate, so drought costs nothing today and in regions that get wetter. The drying is the CMIP6 multi-model soil-moisture change of the AR6 region since 2020 (Seneviratne et al. 2021), in standard deviations; the extra share of the year in severe drought follows the WRI / EBRD thermal-power drought curve (SPEI-12 below −2.5). Only water-intensive types lose: thermal and hydro power, water supply and agriculture lose that share of their revenue (the curve is calibrated on their capacity); Food &amp; Chemicals, Mining &amp; Metals and Oil &amp; Gas lose 8 % of revenue per year of failing water supply (World Bank 2017, <em>Uncharted Waters</em>), costed at the value added of the lost sales (food 0.285, mining 0.466), so at most 2.3 % and 3.7 % of revenue a year. Other types, offices and ordinary factories included, lose nothing. <strong>Limits:</strong> one regional soil-moisture change per AR6 region; one revenue loss for three sectors; no adaptation (storage, recycling, desalination).</p>`,
  },
  {
    key: 'hazard-resolution',
    title: 'What resolution are the hazard data?',
    keywords: ['Model quality', 'Data sources and licences'],
    content: `<ul>
<li>Typhoon wind: 0.25° (about 28 km).</li>
<li>River flood, storm surge, landslide and coastal elevation: 5 arc-minutes (about 9 km), from ETOPO5.</li>
<li>Land cover (wildfire fuel, runoff curve numbers): 0.1°.</li>
<li>Temperature, precipitation, snow, aridity and regional climate change: 0.5° grids built from 1.9-2.5° reanalysis and CMIP6 data.</li>
</ul>
<p>Every answer of the hazard API names its resolution, data tier and source. Where you have finer data, register it as your own GeoTIFF layer.</p>`,
  },
  {
    key: 'perils-not-modelled',
    title: 'Which perils are not modelled?',
    keywords: ['Model quality'],
    content: `<ul>
${PERILS_NOT_MODELLED.map((p) => `<li>${p.name} (${p.note})</li>`).join('\n')}
</ul>
<p>${PERILS_NOT_MODELLED_SHARE}</p>
<p>The losses on the dashboard, in the reports and in the exports leave these perils out, so a low figure for a European portfolio is not an all-peril figure.</p>`,
  },
  {
    key: 'hazard-validation',
    title: 'How have the models been validated, and where are they known to be wrong?',
    keywords: ['Model quality'],
    content: `<p>Each model is checked against published or observed reference values, and the differences are stated in our validation document. Examples:</p>
<ul>
<li>Warming levels and AR6 global sea-level medians are reproduced (sea level to ±0.01 m).</li>
<li>Typhoon Mangkhut (2018) at Waglan Island: the model gives about 40 % less than the observed wind, because the best-track maximum near Hong Kong was already below the station measurement; Hong Kong return levels are probably about 10 % low.</li>
<li>Hong Kong storm surge is a known miss (0 m) because of the 9 km elevation grid.</li>
<li>Wildfire: savannas about 2× low, Mediterranean 3-5× high, boreal forests missed.</li>
<li>Climate grids underestimate continental extremes (Yakutsk by about 7 °C) and mountain snow.</li>
</ul>`,
  },

  // ---------------------------------------------------------------- Scenarios and data
  {
    key: 'scenario-options',
    title: 'Which scenarios and years can I analyse?',
    keywords: ['Scenarios and years'],
    content: `<p>58 scenario-years are computed for every asset:</p>
<ul>
<li>the 2020 baseline;</li>
<li><strong>RCP</strong> 2.6, 4.5 and 8.5 for 2020, 2030 and 2050;</li>
<li><strong>SSP</strong> 1-2.6, 2-4.5 and 5-8.5 for 2025 to 2100 in steps of 5 years.</li>
</ul>
<p>RCPs map onto SSPs by the common convention: RCP 2.6 → SSP1-2.6, RCP 4.5 → SSP2-4.5, RCP 8.5 → SSP5-8.5. RCP analyses have no 2100: a request for 2100 with RCP is answered for 2050.</p>`,
  },
  {
    key: 'scenario-warming',
    title: 'How do scenarios change the hazards (warming levels)?',
    keywords: ['Scenarios and years'],
    content: `<p>Each scenario and year is turned into a global warming level: the CMIP6 multi-model mean warming against 1850-1900 (the data behind IPCC AR6 WGI chapter 11), interpolated smoothly between decades. About 1.2-1.3 °C in 2020.</p>
<p>For each of the IPCC AR6 reference regions, the CMIP6 median change of the hottest day, coldest night and 1- and 5-day maximum rainfall at 1.5, 2, 3 and 4 °C is interpolated to that warming level and applied relative to the baseline. Rainfall increases are floored at 0, so warming-driven hazards never decrease from SSP1-2.6 to SSP5-8.5 in the same year (tested on a global grid). Note that the raw CMIP6 mean runs 0.2-0.6 °C warmer than the AR6 assessed values, while staying inside the AR6 very likely ranges.</p>`,
  },
  {
    key: 'scenario-baseline',
    title: 'What is the baseline ("today") climate?',
    keywords: ['Scenarios and years'],
    content: `<p>The climatologies (NCEP 1991-2020 temperatures, CMAP 1981-2010 precipitation) and the tropical-cyclone track period (1970s-2020s) are taken to sit at a warming of 0.85 °C above 1850-1900 (the IPCC AR6 value for 1995-2014). All future changes are computed relative to that level. Sea-level rise is counted from 2020.</p>`,
  },
  {
    key: 'data-sources',
    title: 'Which data sources do you use?',
    keywords: ['Data sources and licences'],
    content: `<ul>
<li>Elevation: NOAA ETOPO5. Rivers: Natural Earth 1:50m.</li>
<li>Climate: NCEP/NCAR Reanalysis 1 temperatures (Kalnay et al. 1996), CMAP precipitation (Xie &amp; Arkin 1997), CMIP6 regional extremes of IPCC AR6 (Seneviratne et al. 2021) and AR6 reference regions (Iturbide et al. 2020).</li>
<li>Sea level: IPCC AR6 global projections (Fox-Kemper et al. 2021; Garner et al. 2021) and PSMSL tide gauges.</li>
<li>Tropical cyclones: JTWC, CMA, IBTrACS (NOAA NCEI), HURDAT2 (NOAA NHC/CPHC) and IMD best tracks.</li>
<li>Land cover: MODIS IGBP (NASA). Landslides: NASA Global Landslide Catalog and the Hong Kong GEO incident catalogue. Rainfall extremes: Hong Kong Observatory daily rainfall.</li>
<li>Vulnerability: JRC global flood depth-damage curves, FEMA Hazus / USACE curves, Emanuel (2011) with Eberenz et al. (2021) for wind, and OS-Climate physrisk tables.</li>
</ul>
<p>The ${METHODOLOGY} lists every data set with its publisher, licence and citation.</p>`,
  },
  {
    key: 'data-licences',
    title: 'Are there licence conditions on the data behind the results?',
    keywords: ['Data sources and licences'],
    content: `<p>Most inputs are public domain or open (US government data, Natural Earth, NASA, IPCC AR6 under CC BY 4.0). Points to know:</p>
<ul>
<li>The CMIP6 regional-extremes tables are <strong>CC BY-SA 4.0</strong>: share-alike applies to the derived AR6-region layer and regional-change tables.</li>
<li>CMA best tracks (free with credit to tcdata.typhoon.org.cn) and IMD best tracks (free download, credit IMD) have <strong>no formal open licence</strong>; they are kept replaceable.</li>
<li>The Hong Kong GEO landslide incidents and Hong Kong Observatory rainfall are under DATA.GOV.HK terms with attribution.</li>
<li>Place names come from GeoNames (CC BY 4.0); country names and aliases from world-countries (ODbL 1.0).</li>
</ul>
<p>Exports carry an "About" sheet naming the data sources.</p>`,
  },
  {
    key: 'data-geocoding',
    title: 'Where do place names and company locations come from?',
    keywords: ['Data sources and licences', 'Uploading assets'],
    content: `<p>Geocoding runs offline on open data: GeoNames places (cities with 1,000+ people), Natural Earth country borders and a list of Hong Kong places for districts. Hong Kong districts are a nearest-place approximation, so near a district boundary the answer can be the neighbouring district.</p>
<p>Index constituents come from public lists. Only S&amp;P 500 companies have headquarters cities; other companies are placed at their headquarters country's capital or at their listing exchange's city and are flagged <em>approximate</em>. Replace an approximate location with the real asset coordinates before relying on its results.</p>`,
  },
  {
    key: 'byo-geotiff',
    title: 'Can I use my own hazard maps (bring-your-own GeoTIFF)?',
    keywords: ['Bring your own data'],
    content: `<p>Yes. Your company administrator uploads them on the <em>Data</em> page, card <em>Own hazard layers</em>: a GeoTIFF or Cloud-Optimized GeoTIFF with one band, in EPSG:4326, EPSG:3857 or a UTM zone, for a hazard, a scenario (or every scenario), a year (or every year) and, for floods, surge and typhoon, a return period. The file is checked on upload (coordinate system, extent, unit, nodata, plausible values, size) and refused with the reason if something is wrong.</p>
<p>Where a layer has a valid pixel at an asset's location its value replaces ours (with several return periods, the whole curve) in your company's analyses only; other companies never see or use it. Your portfolios are re-analysed after each upload or deletion. Such values are marked <em>own data</em> in the dashboard, the exports and the reports. This is the recommended route for flood depths (e.g. WRI Aqueduct or a national flood map), waterfront surge and boreal wildfire.</p>`,
  },

  // ---------------------------------------------------------------- Portfolios and uploads
  {
    key: 'upload-how',
    title: 'How do I upload a portfolio of assets?',
    keywords: ['Uploading assets'],
    content: `<p>On the portfolio creation page (/location), upload a <strong>CSV, XLSX or XLS</strong> file (the first sheet is read), or add locations on the map. Download the template first: it has the columns in the expected order, their units, an example row and instructions.</p>
<p>From a GIS, upload a <strong>GeoJSON</strong>, a <strong>GeoPackage</strong> (.gpkg) or a <strong>zipped Shapefile</strong> (.zip with the .shp, .dbf and .prj) with one point per asset: the point gives latitude and longitude (converted to WGS 84 from the file's coordinate system), and the attributes are read like the template's columns (name, valuation, floors, property type, ...). Polygons and lines are refused naming the features: convert them to points (e.g. centroids) first.</p>
<ul>
<li>With a header row, columns are matched by name in any order (common spellings such as "latitude", "lon", "asset value" are recognised). Without one, the template's column order is assumed.</li>
<li>Files up to 20 MB and 100,000 rows per upload.</li>
<li>The file type is recognised from its content, whatever its name says.</li>
</ul>`,
  },
  {
    key: 'upload-columns',
    title: 'Which columns are required, and which are optional?',
    keywords: ['Asset fields', 'Uploading assets'],
    content: `<p><strong>Required:</strong> name, lat, long (asset name and location).</p>
<p><strong>Other columns</strong> in template order: revenue (USD/yr), construction cost (USD), property type, area (m²), valuation (USD), floors, solar, wind, hydro (GWh/yr), wheat, rice, maize, fruit, veg (kg/yr) and ownership (%). An optional ISO country code column is accepted too.</p>
<p>Optional columns (construction cost, area, valuation, floors, production and ownership) are kept only when you choose them in the confirmation dialog. Building value for losses is the construction cost when given, else the valuation.</p>`,
  },
  {
    key: 'upload-na-vs-zero',
    title: 'What is the difference between NA and 0 in my file?',
    keywords: ['Asset fields'],
    content: `<p><strong>NA means "not known"</strong> and is stored as empty, never as zero. Empty cells and the texts NA, N/A, null, none, nan, - and -- all count as NA. <strong>0 means a known zero.</strong></p>
<p>The difference matters: an asset with ownership NA is counted at 100 %, while ownership 0 means you hold none of it and it has no loss. Money amounts that are NA count as 0 in the loss arithmetic, and the score of a hazard without data stays "no data" rather than 0.</p>`,
  },
  {
    key: 'upload-number-formats',
    title: 'How should I write amounts in the file?',
    keywords: ['Asset fields'],
    content: `<p>Amounts are in USD. Numbers written by people are understood: <code>1,250,000</code>, <code>2 500</code>, <code>USD 1.2M</code>, <code>$3.5bn</code>, <code>12.5%</code> and the suffixes k, m/mn/million, b/bn/billion and t/tn/trillion. Negative amounts and accounting brackets such as <code>(1,000)</code> are refused with the row and column named.</p>
<p>Ownership must be between 0 and 100 %, floors a whole number from 0 to 300, latitude between −90 and 90 and longitude between −180 and 180.</p>`,
  },
  {
    key: 'upload-errors',
    title: 'My upload was rejected: what do the row errors mean?',
    keywords: ['Uploading assets'],
    content: `<p>Every problem is listed as "Row N: …" with the spreadsheet row, so you can fix them all in one go (at most 100 are listed; fix those first). Common ones:</p>
<ul>
<li>name is empty, longer than 200 characters, or already used in another row (names must be unique within the file);</li>
<li>latitude or longitude empty, not a number or out of range;</li>
<li>latitude and longitude both 0 (a point in the Gulf of Guinea, usually a missing location);</li>
<li>a negative amount, ownership outside 0-100 %, or a country code that is not an ISO 3166 code.</li>
</ul>
<p>Nothing is saved until the whole file is valid.</p>`,
  },
  {
    key: 'upload-property-types',
    title: 'Which property types are recognised, and why do they matter?',
    keywords: ['Asset fields'],
    content: `<p>About 37 types, for example Apartments, Residential, Home, Hotel, Office, Retail, Warehouse, Data Centre, Healthcare, Education, Government, Industrial, Manufacture, Food &amp; Chemicals, Mining &amp; Metals, Energy (Solar, Wind, Hydro, Thermal, Transmission &amp; Distribution), Oil &amp; Gas, Water Supply, Wastewater, Telecommunication, Agriculture, Roads, Railway, Airport and Port. Common synonyms (house, factory, hospital, solar …) are recognised; an unknown or empty type is treated as Commercial.</p>
<p>The type selects the flood damage curve (residential, commercial, industrial, transport, roads or agriculture), the Hazus occupancy used by the building-damage explorer, and the heat and drought sensitivity (outdoor work up to 2×, offices with cooling 0.5×, water-dependent operations up to 3×).</p>`,
  },
  {
    key: 'upload-country-code',
    title: 'Should I give a country code for each asset?',
    keywords: ['Asset fields'],
    content: `<p>You may. The country code (ISO 3166 alpha-2 or alpha-3) selects the continent of the flood damage curve and the region of the typhoon damage curve. When you leave it empty, the country is found from the coordinates (the nearest country within 50 km for coastal sites); where no country is found, continent and region come from documented latitude/longitude box rules.</p>`,
  },
  {
    key: 'limits-assets',
    title: 'How many assets can I analyse?',
    keywords: ['Asset limits', 'Subscription tiers'],
    content: `<p>It depends on your company's tier: <strong>free</strong> 100 assets, <strong>professional</strong> 2,000 and <strong>enterprise</strong> 100,000. Above the limit you see "You are only allowed to add {n} assets for Analysis". Separately, one upload may hold up to 100,000 rows and 20 MB.</p>
<p>Large portfolios are analysed in the background and their progress is shown; a re-run after editing assets recomputes only the assets whose inputs changed.</p>`,
  },

  // ---------------------------------------------------------------- Adaptation
  {
    key: 'adaptation-levels',
    title: 'What do the mitigation levels (none, low, medium, high) do?',
    keywords: ['Adaptation measures'],
    content: `<p>Each asset has a mitigation level that applies a default adaptation measure per hazard:</p>
<table><thead><tr><th>Hazard</th><th>low</th><th>medium</th><th>high</th></tr></thead><tbody>
<tr><td>River, rainfall and coastal flood</td><td>depth − 0.3 m</td><td>depth − 0.6 m, 10-year protection</td><td>depth − 0.9 m, 25-year protection</td></tr>
<tr><td>Typhoon</td><td>damage × 0.85</td><td>× 0.7</td><td>× 0.55</td></tr>
<tr><td>Wildfire</td><td>damage × 0.8</td><td>× 0.6</td><td>× 0.45</td></tr>
<tr><td>Extreme heat</td><td>disruption × 0.8</td><td>× 0.6</td><td>× 0.4</td></tr>
<tr><td>Other hazards</td><td>× 0.9</td><td>× 0.8</td><td>× 0.7</td></tr></tbody></table>
<p>The flood values follow FEMA guidance that dry flood-proofing and barriers are effective up to about 0.9 m; the other factors are documented, conservative product rules. Details in the ${TOOLKIT}.</p>`,
  },
  {
    key: 'adaptation-model',
    title: 'How are adaptation measures modelled in the residual 20-year expected loss?',
    keywords: ['Adaptation measures'],
    content: `<p>As CLIMADA measures (Aznar-Siguan &amp; Bresch 2019): an <em>intensity change</em> I' = max(a·I − b, 0) (for example flood-proofing lowers the depth that reaches the building), a <em>damage change</em> MDD' = max(c·MDD + e, 0) (for example hurricane shutters), and a <em>standard of protection</em>: events more frequent than the protection return period cause no damage.</p>
<p>Parameters are clamped so a measure can never raise a loss, the residual is capped at the unadapted value, and when an asset's mitigation level and your own measures overlap, the stronger parameter wins. For chronic hazards only the damage change applies, to both damage and disruption.</p>`,
  },

  // ---------------------------------------------------------------- Account and security
  {
    key: 'account-company-code',
    title: 'What is a company code, and how do I join my company?',
    keywords: ['Company codes'],
    content: `<p>Registering without a company code creates a new company with a random code (shown as <code>XXXXX-XXXXX</code>) and makes you its administrator. Share that code with colleagues.</p>
<p>Registering <em>with</em> a company code creates your account as <strong>pending</strong>: you cannot log in until an administrator of that company approves you in Settings (administrators are notified in the app). So knowing or guessing a code never gives access to a company's data. You log in with username, password and company code.</p>`,
  },
  {
    key: 'account-login-errors',
    title: 'Why can I not log in?',
    keywords: ['Company codes', 'Two-factor authentication'],
    content: `<ul>
<li>A wrong password, unknown username and unknown company code all give the same message, "Unable to log in with the provided credentials.", so the answer never reveals which part was wrong.</li>
<li>If you registered with a company code, your account stays pending until an administrator approves it; rejected requests cannot log in.</li>
<li>After 5 failures for one username (or 50 from one network address) within 15 minutes, further logins are refused for a while (status 429 with a Retry-After time). A wrong 2FA code counts as a failure.</li>
</ul>`,
  },
  {
    key: 'account-2fa',
    title: 'How do I set up two-factor authentication (2FA)?',
    keywords: ['Two-factor authentication'],
    content: `<p>Two methods are offered:</p>
<ul>
<li><strong>Authenticator app</strong>: scan the QR code with an app that supports RFC 6238 codes (6 digits, 30 seconds). One step of clock drift either way is accepted, and each code works only once.</li>
<li><strong>E-mail</strong>: a 6-digit code valid for 10 minutes, single use, with 5 tries. At login it is e-mailed once your password was right.</li>
</ul>
<p>Starting a new setup does not turn off your existing 2FA until the new method is verified.</p>`,
  },
  {
    key: 'account-2fa-lost',
    title: 'I lost the phone with my authenticator app. What now?',
    keywords: ['Two-factor authentication'],
    content: `<p>Use one of your <strong>recovery codes</strong>. When you turn on two-factor authentication you get ten codes (like <code>ABCD-EFGH-JKMN-PQRS</code>), shown once, to copy, download or print. At login, type one in the 2FA code field instead of the 6-digit code: each code works once. Once signed in, go to Settings and set up 2FA again on your new phone (a recovery code also confirms the change).</p>
<ul>
<li>Settings shows how many codes you have left. <em>Generate new recovery codes</em> (with a current code of your app or e-mail) makes ten new ones; the old ones stop working.</li>
<li>We keep only a salted fingerprint of each code, so nobody, not even us, can show them to you again. Turning 2FA off deletes them.</li>
<li>Every login with a recovery code is e-mailed to you and recorded in your company's activity log.</li>
</ul>
<p>No codes left and no phone? Your company administrator can ask the operator of your installation to reset your two-factor authentication.</p>`,
  },
  {
    key: 'account-password-reset',
    title: 'I forgot my password. How do I choose a new one?',
    keywords: ['Company codes', 'Two-factor authentication'],
    content: `<p>On the login page click <em>Forgot password?</em> and give your username and company code, or your e-mail address. If an account matches, we e-mail a link to choose a new password; the page answers the same either way, so it never tells anyone whether an account exists.</p>
<ul>
<li>The link works once, for 30 minutes; asking again replaces the earlier link.</li>
<li>The new password follows the same rules as at registration (at least 12 characters, not a common or breached password, not too easy to guess).</li>
<li>Setting it ends every session of your account (on every device). Two-factor authentication stays on: the next login still asks for your code or a recovery code.</li>
<li>You get an e-mail when the password was changed. Five requests for one account within 15 minutes are the limit.</li>
</ul>`,
  },
  {
    key: 'account-session-timeout',
    title: 'Why was I signed out?',
    keywords: ['Company codes'],
    content: `<p>A session ends after 30 minutes without activity and 12 hours after you signed in, however much it is used (your installation may set other times). Two minutes before the idle time-out the page asks <em>Are you still there?</em>: <em>Stay signed in</em> keeps the session. When a session ended, the login page says so; log in again and you return to where you were. A password reset or <em>Sign out everywhere</em> also ends every session.</p>`,
  },
  {
    key: 'account-tiers',
    title: 'What do the subscription tiers include?',
    keywords: ['Subscription tiers'],
    content: `<table><thead><tr><th>Tier</th><th>Modules</th><th>Assets</th><th>What you see</th></tr></thead><tbody>
<tr><td>free (self-registration)</td><td>Physical Risk, Map Module</td><td>100</td><td>climate and hazard scores and bands, hazard intensities, the asset risk map, the heat map, climate variable intensity and the asset table. <strong>No money figure anywhere</strong>: the KPI cards (maximum exposure, 20-year expected loss and its residual, avoided loss, expected annual loss, premium, 1-in-100 and 1-in-250-year losses), the loss charts, losses by hazard, country, scenario and year, and the asset table's loss columns show "Please upgrade tier to see content"; the project card shows <em>Locked</em> for maximum exposure and residual 20-year expected loss; the CSV report, the summary workbook, the GIS export and the results API leave every loss column empty (the results API says so in <code>money_withheld</code>); the slide report and the TCFD report show the placeholder instead of the figures. Transition Risk is not included.</td></tr>
<tr><td>professional</td><td>all modules</td><td>2,000</td><td>everything, money figures included</td></tr>
<tr><td>enterprise</td><td>all modules</td><td>100,000</td><td>everything</td></tr></tbody></table>
<p><strong>Upgrading.</strong> Every locked panel has a <em>Request upgrade</em> button: any member may press it, once per company until it is answered. Your company's administrators and the operators of your installation get a notification and an e-mail; an operator grants it (on the setup page, or on the server with <code>npm run admin -- grant-tier --company CODE</code>), and every member of the company is notified. Reload the page to see the figures. There is no trial period: an upgrade lasts until an operator changes it.</p>
<p>The tier belongs to the company; when it changes, the company's users are notified. Column editing permissions in the asset table are per user and all allowed by default.</p>`,
  },

  // ---------------------------------------------------------------- Sharing, exports and API
  {
    key: 'share-roles',
    title: 'How do I share a project, and what can each role do?',
    keywords: ['Sharing projects'],
    content: `<p>The owner of a project can share it with users of the same company, with <strong>read</strong> or <strong>write</strong> access, and remove access again.</p>
<table><thead><tr><th>Action</th><th>owner</th><th>write</th><th>read</th></tr></thead><tbody>
<tr><td>view, download</td><td>yes</td><td>yes</td><td>yes</td></tr>
<tr><td>edit assets, rename</td><td>yes</td><td>yes</td><td>no</td></tr>
<tr><td>delete, share</td><td>yes</td><td>no</td><td>no</td></tr></tbody></table>
<p>An action your role does not allow is refused with a message naming your access.</p>`,
  },
  {
    key: 'export-files',
    title: 'What can I export?',
    keywords: ['Exports'],
    content: `<ul>
<li><strong>CSV report</strong>: one row per asset × hazard × scenario × year with intensity, score and losses, delivered as an Excel (.xlsx) file, up to 1,000,000 rows. Its rows also feed the pivot table.</li>
<li><strong>Summary report</strong>: a portfolio summary workbook (.xlsx).</li>
</ul>
<p>Every workbook has an "About" sheet with the portfolio, analysis type, methodology version, dates, definitions (expected annual loss, 20-year expected loss and its residual, maximum exposure, score bands) and the data sources. Download links expire after 24 hours; the link itself is the secret, so do not forward it.</p>`,
  },
  {
    key: 'export-template',
    title: 'Where do I get the upload template?',
    keywords: ['Exports', 'Uploading assets'],
    content: `<p>From the portfolio creation page, or with <code>GET /api/v2/download_upload_csv_template/</code>. It is an .xlsx file with an Assets sheet (the columns in order with their units and one example row to replace) and an Instructions sheet.</p>`,
  },
  {
    key: 'api-access',
    title: 'Can I use the platform through an API?',
    keywords: ['API access'],
    content: `<p>Yes: every screen is built on the same documented API. The API reference (OpenAPI) opens from <strong>API Docs</strong> in the sidebar, at <a href="/docs">/docs</a>, and the machine-readable document is at <code>/openapi.json</code>.</p>
<ul>
<li>Log in with <code>POST /api/user/rest_login/</code> and send <code>Authorization: Token &lt;token&gt;</code> on every other call (Bearer is accepted too). Tokens expire after 30 days and are revoked by logout.</li>
<li>Errors answer <code>{detail, errors: [{field, message}]}</code>, naming the field at fault.</li>
<li>The FAQ calls (search, keyword items, keyword list) work without a token.</li>
</ul>`,
  },
  {
    key: 'api-hazard-point',
    title: 'Can I query hazard values for a single point?',
    keywords: ['API access', 'Hazards'],
    content: `<p>Yes: <code>GET /api/v2/hazard/point/</code> returns all eleven hazards at one latitude/longitude for one scenario and year: value and unit (null where there is no data), score 0-100 and band, the return-period curve for acute hazards, resolution, data tier and source. <code>GET /api/v2/hazard/catalog/</code> lists every layer with its indicator, grid, resolution, scenarios, years, sources, licence and checksum.</p>`,
  },
  {
    key: 'changelog-where',
    title: 'Where can I see what changed in each release?',
    keywords: ['Sharing, exports and API'],
    content: `<p>On the <a href="/changelog">Change log</a> page (Documents → Change logs in the sidebar). When a new release is published you also get a notification; clicking it opens the change log.</p>`,
  },
];
