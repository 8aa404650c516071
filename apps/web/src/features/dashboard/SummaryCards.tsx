import { Card, Progress } from 'antd';
import { CLIMATE_SCORE_COLOURS, climateScoreLevel } from '@crp/contracts';
import type { DashboardData, Unit } from '../../api/dashboard';
import { byUnit, money } from '../../lib/format';
import { INFO } from './infoTexts';
import { InfoButton, UpgradePlaceholder } from './Section';

const LEVEL_LABEL = { low: 'Low risk', medium: 'Medium risk', high: 'High risk' } as const;

/** Climate Score, a score out of 100 (never a percentage), with its label and a 0-100 progress bar (spec 001 §2.1, §4). */
export function ClimateScore({ score, compact }: { score: number | null; compact?: boolean }) {
  if (score === null)
    return (
      <div className="crp-muted" data-testid="climate-score">
        No score: no asset has data for these hazards.
      </div>
    );
  const level = climateScoreLevel(score);
  const colour = CLIMATE_SCORE_COLOURS[level];
  return (
    <div className={compact ? 'crp-dash-score crp-dash-score-compact' : 'crp-dash-score'} data-testid="climate-score" data-level={level}>
      <div className="crp-dash-score-line">
        <span className="crp-dash-score-value" style={{ color: colour }}>
          {score.toFixed(1)}
          <span className="crp-dash-score-of"> / 100</span>
        </span>
        <span className="crp-dash-score-label" style={{ color: colour, borderColor: colour }}>
          {LEVEL_LABEL[level]}
        </span>
      </div>
      <Progress percent={Math.max(0, Math.min(100, score))} showInfo={false} strokeColor={colour} aria-label={`Climate score ${score.toFixed(1)} of 100`} />
      <div className="crp-dash-scale" aria-hidden>
        <span>0</span>
        <span>20</span>
        <span>60</span>
        <span>100</span>
      </div>
    </div>
  );
}

function Kpi({ label, info, value, sub, testId }: { label: string; info: keyof typeof INFO; value: string; sub?: string; testId: string }) {
  return (
    <Card className="crp-card crp-dash-kpi" data-testid={testId}>
      <div className="crp-dash-kpi-label">
        {label}
        <InfoButton title={INFO[info]!.title}>{INFO[info]!.body}</InfoButton>
      </div>
      <div className="crp-dash-kpi-value">{value}</div>
      {sub && <div className="crp-dash-kpi-sub">{sub}</div>}
    </Card>
  );
}

/** The four KPI cards (Maximum Exposure, 20-year expected loss, Residual 20-year expected loss, Avoided Loss) and the supporting totals. */
export function KpiCards({ data, unit }: { data: DashboardData; unit: Unit }) {
  const c = data.climate_risk_card_data;
  if (!c) {
    return (
      <Card className="crp-card">
        <UpgradePlaceholder />
      </Card>
    );
  }
  const pctOf = (v: number | null) => (v !== null && c.total_asset_value ? (100 * v) / c.total_asset_value : null);
  const show = (usd: number | null, pct: number | null) => (unit === 'dollar' ? money(usd) : byUnit(pct, 'percentage'));
  const other = (usd: number | null, pct: number | null) => (unit === 'dollar' ? byUnit(pct, 'percentage') : money(usd));
  return (
    <div className="crp-dash-kpis">
      <div className="crp-dash-kpi-grid">
        <Kpi
          testId="kpi-max-exposure"
          label="Maximum Exposure"
          info="maxExposure"
          value={show(c.max_exposure, c.max_exposure_percentage)}
          sub={other(c.max_exposure, c.max_exposure_percentage)}
        />
        <Kpi
          testId="kpi-cvar"
          label="20-year expected loss"
          info="cvar"
          value={show(c.climate_value_at_risk, c.climate_value_at_risk_percentage)}
          sub={other(c.climate_value_at_risk, c.climate_value_at_risk_percentage)}
        />
        <Kpi
          testId="kpi-rcvar"
          label="Residual 20-year expected loss"
          info="rcvar"
          value={show(c.residual_climate_value_at_risk, c.residual_climate_value_at_risk_percentage)}
          sub={other(c.residual_climate_value_at_risk, c.residual_climate_value_at_risk_percentage)}
        />
        <Kpi
          testId="kpi-avoided"
          label="Avoided Loss"
          info="avoidedLoss"
          value={show(c.avoided_loss, pctOf(c.avoided_loss))}
          sub={other(c.avoided_loss, pctOf(c.avoided_loss))}
        />
      </div>
      <div className="crp-dash-totals">
        <span>
          Total Asset Value <strong>{money(c.total_asset_value)}</strong>
          <InfoButton title={INFO.totalAssetValue!.title}>{INFO.totalAssetValue!.body}</InfoButton>
          {c.assets_valued_at_construction_cost > 0 && (
            <span className="crp-muted crp-dash-value-basis" data-testid="value-basis">
              {' '}
              (construction cost: no valuation given for {c.assets_valued_at_construction_cost}{' '}
              {c.assets_valued_at_construction_cost === 1 ? 'asset' : 'assets'})
            </span>
          )}
        </span>
        <span>
          Expected Annual Loss <strong>{show(c.expected_annual_loss, pctOf(c.expected_annual_loss))}</strong>
        </span>
        <span>
          Technical Insurance Premium <strong>{show(c.technical_insurance_premium, pctOf(c.technical_insurance_premium))}</strong>
          <InfoButton title={INFO.premium!.title}>{INFO.premium!.body}</InfoButton>
        </span>
        <span data-testid="tail-losses">
          1-in-100 / 1-in-250-year loss{' '}
          <strong>
            {c.loss_100_year === null || c.loss_250_year === null
              ? 'analyse again to see'
              : `${show(c.loss_100_year, pctOf(c.loss_100_year))} / ${show(c.loss_250_year, pctOf(c.loss_250_year))}`}
          </strong>
          <InfoButton title={INFO.tailLoss!.title}>{INFO.tailLoss!.body}</InfoButton>
        </span>
      </div>
    </div>
  );
}
