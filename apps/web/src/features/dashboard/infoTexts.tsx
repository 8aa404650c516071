import type { ReactNode } from 'react';

/** Texts of the dashboard's info modals (spec 001 §2.1). Meanings follow docs/dashboard.md. */
export const INFO: Record<string, { title: string; body: ReactNode }> = {
  advancedFilter: {
    title: 'Advance Filter',
    body: (
      <>
        <p>
          Choose the analysis type (RCP or SSP), the scenario and the year the whole dashboard shows, the hazard (Total for every hazard of the project), a
          property type and how many of the highest-risk assets to include.
        </p>
        <p>RCP offers 2020, 2030 and 2050; SSP offers 2025 to 2100 every 5 years. With RCP a year after 2050 becomes 2050 when you apply.</p>
        <p>“Save as default” stores analysis type, scenario and year as your defaults for the next visit.</p>
      </>
    ),
  },
  climateScore: {
    title: 'Climate Score',
    body: (
      <p>
        The mean climate score of the selected assets with data: a score out of 100 (not a percentage), from the summed expected losses of the chosen hazards.
        Below 20 is low risk, 20 to below 60 medium, 60 or more high.
      </p>
    ),
  },
  maxExposure: {
    title: 'Maximum Exposure',
    body: (
      <p>
        The largest loss the selected assets can suffer from the chosen hazards at the scenario and year: the value exposed to the most severe modelled event
        (building, content and inventory, times ownership).
      </p>
    ),
  },
  cvar: {
    title: '20-year expected loss',
    body: (
      <>
        <p>
          The expected losses from physical climate hazards summed over the 20-year window around the chosen year (year-9 to year+10; 2100: 2081-2100), without
          adaptation and without discounting. Shown in USD or as a percentage of the Total Asset Value of the selected assets.
        </p>
        <p>
          It is a sum of expected losses, not a tail measure such as a conditional value at risk: for the loss of a rare year see the 1-in-100 and 1-in-250-year
          losses below the cards.
        </p>
      </>
    ),
  },
  tailLoss: {
    title: '1-in-100 and 1-in-250-year loss',
    body: (
      <p>
        The loss of the event that happens on average once in 100 (or 250) years at each asset, its hazards added together (at most the asset's value plus a
        year's revenue), summed over the selected assets. Adding assets assumes their rare years coincide, so for a spread-out portfolio this is an upper bound.
        Flood losses count only events rarer than the site's standard of flood protection.
      </p>
    ),
  },
  rcvar: {
    title: 'Residual 20-year expected loss',
    body: <p>The 20-year expected loss that remains after the adaptation measures of each asset (its mitigation level: No, Low, Medium or High).</p>,
  },
  avoidedLoss: {
    title: 'Avoided Loss',
    body: <p>20-year expected loss minus residual 20-year expected loss: the loss the adaptation measures avoid. Zero when no asset has a mitigation level.</p>,
  },
  totalAssetValue: {
    title: 'Total Asset Value',
    body: (
      <p>
        The value you gave for the selected assets: each building's valuation (its construction cost where no valuation was given), content (when added) and
        inventory, times ownership. Every percentage on this page is of this value. The damage itself is of the building's construction cost where you gave one
        (a building is rebuilt at its cost; a valuation may also hold the land).
      </p>
    ),
  },
  premium: {
    title: 'Technical Insurance Premium',
    body: (
      <p>
        The expected annual loss of the insurable hazards (floods, storm surge, tropical cyclone, wildfire, landslide, snow and freeze damage, with the business
        interruption that follows) with a 30 % safety loading, grossed up for an insurer's expenses: premium = 1.3 x EAL / (1 - 0.25). Chronic heat and drought
        disruption and permanent sea-level rise are not insurable and carry no premium. A technical price of the modelled risk, before profit and market
        conditions.
      </p>
    ),
  },
  keyFindings: {
    title: 'Key Findings',
    body: (
      <p>
        20-year expected loss under the high-emission (8.5) and low-emission (2.6) scenarios, the value of transition policies (their difference), and how much
        20-year expected loss grows by 2030, 2050 and 2100 against the 2020 window (year-9 to year+10; for 2100, year-19 to year).
      </p>
    ),
  },
  transitionPolicies: {
    title: 'Value of Transition Policies',
    body: <p>20-year expected loss under 8.5 minus 20-year expected loss under 2.6: the loss a low-emission pathway would avoid for this portfolio.</p>,
  },
  assetTable: {
    title: 'Asset Table',
    body: (
      <>
        <p>
          Every selected asset with its inputs and results. Edit All makes the editable cells inputs; Save All checks every cell and saves all rows, then the
          analysis re-runs for the changed assets and the dashboard refreshes.
        </p>
        <p>
          Gross Area, climate score, residual 20-year expected loss (% and amount) and the location cannot be edited. Columns your data-edit permissions do not
          allow stay locked.
        </p>
      </>
    ),
  },
  adaptation: {
    title: 'Adaptation Toolkits',
    body: (
      <p>
        Mitigation level per asset: 0 No, 1 Low, 2 Medium, 3 High. Each level applies the default adaptation measure of each hazard (for floods: fewer or more
        distant measures protect less; measures farther than 20 m have no effect). With adaptation on, figures after adaptation are shown.
      </p>
    ),
  },
  heatmap: {
    title: 'Hazard Heat Map',
    body: (
      <p>
        Severity score (0-100) of each hazard at each asset for the scenario and year. 0 no risk, below 25 low, below 50 medium, below 75 medium-high, below 100
        high, 100 very high.
      </p>
    ),
  },
};
