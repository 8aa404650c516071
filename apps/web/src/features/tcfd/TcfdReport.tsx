import { Button, Input, Space, Table, Tag } from 'antd';
import { UPGRADE_TEXT, UpgradePanel } from '../../ui/UpgradePanel';
import { PrinterOutlined } from '@ant-design/icons';
import { type TcfdNoteKey, CLIMATE_SCORE_COLOURS, SCENARIO_LABELS, SCENARIOS, markerColour } from '@crp/contracts';
import type { DashboardData } from '../../api/dashboard';
import { Chart } from '../../ui/charts/Chart';
import { NotModelledNote } from '../../ui/NotModelledNote';
import { money, percent } from '../../lib/format';
import { TcfdCarbonMetrics } from './TcfdCarbonMetrics';
import { useTcfdNarrative, type SaveState } from './useTcfdNarrative';
import './tcfd.css';

/** Hazards scoring above this at the report year are called material in the Strategy section. */
const MATERIAL_SCORE = 50;

type NoteKey = TcfdNoteKey;
const NOTE_PROMPTS: Record<NoteKey, string> = {
  governance_board: "Describe the board's oversight of climate-related risks and opportunities (who, how often, which decisions).",
  governance_management: "Describe management's role in assessing and managing climate-related risks (positions, committees, reporting lines).",
  risk_integration: "Describe how these processes are integrated into the organisation's overall risk management.",
  targets:
    'Describe the targets used to manage climate-related risks (for example residual 20-year expected loss below a share of value, adaptation of the highest-scoring assets by a year) and progress against them.',
};

const SAVE_TEXT: Record<SaveState, string> = {
  idle: '',
  saving: 'Saving…',
  saved: 'Saved for everyone with access to this portfolio',
  'read-only': 'You have read access: your changes are not saved',
  failed: 'Not saved: the server could not be reached. It is tried again with your next change.',
};

function Note({ id, notes, set, loading }: { id: NoteKey; notes: Partial<Record<NoteKey, string>>; set: (k: NoteKey, v: string) => void; loading: boolean }) {
  const text = notes[id] ?? '';
  return (
    <div className="crp-tcfd-note">
      <Input.TextArea
        className="crp-screen-only"
        disabled={loading}
        autoSize={{ minRows: 3 }}
        value={text}
        onChange={(e) => set(id, e.target.value)}
        placeholder={NOTE_PROMPTS[id]}
        aria-label={NOTE_PROMPTS[id]}
        data-testid={`tcfd-note-${id}`}
      />
      <p className="crp-print-only crp-tcfd-note-text">{text.trim() || `To be completed by the organisation: ${NOTE_PROMPTS[id]}`}</p>
    </div>
  );
}

function Section({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <section className="crp-tcfd-section" data-testid={`tcfd-${id}`} aria-labelledby={`tcfd-h-${id}`}>
      <h2 id={`tcfd-h-${id}`}>{title}</h2>
      {children}
    </section>
  );
}

function Recommended({ children }: { children: React.ReactNode }) {
  return <h3 className="crp-tcfd-disclosure">{children}</h3>;
}

/**
 * A portfolio's physical climate risk laid out along the four TCFD recommendations (Governance, Strategy, Risk
 * Management, Metrics and Targets), filled from the dashboard answer; what only the organisation can say is typed in
 * and printed with it. Print / Save as PDF gives an A4 document.
 */
export function TcfdReport({ data }: { data: DashboardData }) {
  const f = data.filters;
  const card = data.climate_risk_card_data;
  const narrative = useTcfdNarrative(data.project.project_id);
  const notes: Partial<Record<NoteKey, string>> = narrative.narrative ?? {};
  const setNote = (k: NoteKey, v: string) => narrative.set({ [k]: v });
  const scenarioYear = `${f.scenario_label}, ${f.year}`;
  const combined = data.combined_data ?? [];
  const material = combined.filter((c) => c.score !== null && c.score > MATERIAL_SCORE);
  const byScenario = data.cvar_chart_data;
  const cone = data.cone_chart;
  const top = (data.asset_table ?? [])
    .slice()
    .sort((a, b) => (b.overall_loss ?? 0) - (a.overall_loss ?? 0))
    .slice(0, 5);
  const level = data.overall.label;
  const k = data.key_finding_data;

  return (
    <article className="crp-tcfd" data-testid="tcfd-report" data-narrative={narrative.narrative ? 'loaded' : 'loading'}>
      <header className="crp-tcfd-head">
        <div>
          <div className="crp-tcfd-kicker">TCFD climate-related financial disclosure · physical risk</div>
          <h1 data-testid="tcfd-title">{data.project.name}</h1>
          <p className="crp-tcfd-basis" data-testid="tcfd-basis">
            Scenario {scenarioYear} · {data.asset_count} assets · {data.hazard_count} hazards · with adaptation measures as recorded · methodology{' '}
            {data.project.methodology_version} · analysed {data.project.analysed_at?.slice(0, 10) ?? 'n/a'} · printed {new Date().toISOString().slice(0, 10)}
          </p>
        </div>
        <Space className="crp-screen-only">
          <Button type="primary" icon={<PrinterOutlined />} onClick={() => window.print()}>
            Print / Save as PDF
          </Button>
        </Space>
      </header>

      <Section id="governance" title="1. Governance">
        <p className="crp-muted">
          The organisation&apos;s governance around climate-related risks and opportunities. Only the organisation can describe it: the text typed here is saved
          with this portfolio, for everyone with access to it, and printed with the report.
        </p>
        {narrative.state !== 'idle' && (
          <p
            className={`crp-screen-only crp-small ${narrative.state === 'failed' || narrative.state === 'read-only' ? 'crp-error-text' : 'crp-muted'}`}
            role="status"
            data-testid="tcfd-save-state"
            data-state={narrative.state}
          >
            {SAVE_TEXT[narrative.state]}
          </p>
        )}
        <Recommended>a) Board oversight of climate-related risks and opportunities</Recommended>
        <Note id="governance_board" notes={notes} set={setNote} loading={!narrative.narrative} />
        <Recommended>b) Management&apos;s role in assessing and managing them</Recommended>
        <Note id="governance_management" notes={notes} set={setNote} loading={!narrative.narrative} />
      </Section>

      <Section id="strategy" title="2. Strategy">
        <Recommended>a) Climate-related risks identified over the short, medium and long term</Recommended>
        {data.combined_data ? (
          <>
            <Table
              size="small"
              pagination={false}
              rowKey="hazard"
              data-testid="tcfd-hazards"
              dataSource={combined}
              columns={[
                { title: 'Hazard', dataIndex: 'hazard' },
                { title: '2020 score', dataIndex: 'score_2020', render: (v: number | null, r) => (v === null ? 'n/a' : `${v} (${r.band_2020})`) },
                {
                  title: `${f.year} score`,
                  dataIndex: 'score',
                  render: (v: number | null, r) =>
                    v === null ? (
                      'n/a'
                    ) : (
                      <Tag color={markerColour(v)} className="crp-tcfd-score">
                        {v} ({r.band})
                      </Tag>
                    ),
                },
              ]}
            />
            <p>
              {material.length
                ? `Material at ${f.year} (average score above ${MATERIAL_SCORE}): ${material.map((m) => m.hazard).join(', ')}.`
                : `No hazard's average score is above ${MATERIAL_SCORE} at ${f.year}; the highest is ${[...combined].sort((a, b) => (b.score ?? 0) - (a.score ?? 0))[0]?.hazard ?? 'n/a'}.`}
            </p>
          </>
        ) : (
          <UpgradePanel />
        )}
        <Recommended>b) Impact on the business, strategy and financial planning</Recommended>
        {card ? (
          <p data-testid="tcfd-impact">
            Over the 20-year window around {f.year}, the expected climate loss of the portfolio (20-year expected loss) is{' '}
            <strong>{money(card.climate_value_at_risk)}</strong>, {percent(card.climate_value_at_risk_percentage)} of its value of{' '}
            {money(card.total_asset_value)}. After adaptation the residual 20-year expected loss is{' '}
            <strong>{money(card.residual_climate_value_at_risk)}</strong> (avoided loss {money(card.avoided_loss)}). The expected annual loss is{' '}
            {money(card.expected_annual_loss)}, and the loss in the most severe modelled event (maximum exposure) {money(card.max_exposure)}.
          </p>
        ) : (
          <UpgradePanel />
        )}
        {top.length > 0 && (
          <Table
            size="small"
            pagination={false}
            rowKey="id"
            dataSource={top}
            columns={[
              { title: 'Assets with the highest residual 20-year expected loss', dataIndex: 'name' },
              { title: 'Country', dataIndex: 'country_code' },
              { title: 'Climate score', dataIndex: 'climatic_score', render: (v: number | null) => v ?? 'n/a' },
              { title: 'Residual 20-year expected loss', dataIndex: 'overall_loss', render: (v: number | null) => money(v) },
            ]}
          />
        )}
        <Recommended>c) Resilience of the strategy under different climate scenarios</Recommended>
        {byScenario && cone ? (
          <>
            <Table
              size="small"
              pagination={false}
              rowKey="scenario"
              data-testid="tcfd-scenarios"
              dataSource={SCENARIOS.map((s, i) => ({
                scenario: SCENARIO_LABELS[f.analysis_type][s],
                cvar: byScenario.cvar.dollar.rcp_constant[i]?.value ?? null,
                rcvar: byScenario.rcvar.dollar.rcp_constant[i]?.value ?? null,
                pct: byScenario.cvar.percentage.rcp_constant[i]?.value ?? null,
              }))}
              columns={[
                { title: `Scenario (${f.year})`, dataIndex: 'scenario' },
                { title: '20-year expected loss', dataIndex: 'cvar', render: (v: number | null) => money(v) },
                { title: '20-year expected loss, % of value', dataIndex: 'pct', render: (v: number | null) => percent(v) },
                { title: 'Residual 20-year expected loss', dataIndex: 'rcvar', render: (v: number | null) => money(v) },
              ]}
            />
            <Chart
              label="Portfolio 20-year expected loss by year under the three scenarios"
              height={260}
              testId="tcfd-scenario-chart"
              option={{
                animation: false,
                legend: { top: 0 },
                grid: { left: 60, right: 16, top: 32, bottom: 28 },
                tooltip: { trigger: 'axis' },
                xAxis: { type: 'category', data: cone.map((c) => String(c.year)) },
                yAxis: { type: 'value', name: 'M USD' },
                series: (
                  [
                    ['2.6', 'low', '#16a34a'],
                    ['4.5', 'mid', '#d48806'],
                    ['8.5', 'high', '#cf1322'],
                  ] as const
                ).map(([name, key, color]) => ({
                  name,
                  type: 'line',
                  data: cone.map((c) => (c[key] === null ? null : Math.round(c[key]! / 1e4) / 100)),
                  itemStyle: { color },
                  lineStyle: { color },
                })),
              }}
            />
            {k && (
              <p>
                Following a 2.6 pathway instead of 8.5 avoids {money(k.value_of_transition_policies)} of 20-year expected loss at {f.year} (the value of
                transition policies).
                {k.increased_by_2050 !== null
                  ? ` Against 2020 the 20-year expected loss changes by ${k.increased_by_2050 >= 0 ? '+' : ''}${k.increased_by_2050.toFixed(1)} % by 2050.`
                  : ''}
              </p>
            )}
          </>
        ) : (
          <UpgradePanel />
        )}
      </Section>

      <Section id="risk-management" title="3. Risk Management">
        <Recommended>a) Processes for identifying and assessing climate-related risks</Recommended>
        <p>
          Each asset is placed on hazard layers built from open data for {data.project.hazards.length} hazards ({data.project.hazards.join(', ')}), for 2020 and
          for every scenario and year to 2100. Published vulnerability curves turn intensities into damage and disruption; losses are integrated over return
          periods and summed over a 20-year window (20-year expected loss). The full method is in Documents &gt; Climate Methodology.
        </p>
        <Recommended>b) Processes for managing them</Recommended>
        <p>
          Adaptation measures recorded per asset (mitigation level) reduce the residual 20-year expected loss
          {card ? `: ${money(card.avoided_loss)} avoided at ${f.year}` : ''}.
          {material.length
            ? ` Priority hazards for adaptation: ${material.map((m) => m.hazard).join(', ')}; the measures are in Documents > Adaptation Methodology.`
            : ' No hazard is above the adaptation threshold at this year.'}
        </p>
        <Recommended>c) Integration into overall risk management</Recommended>
        <Note id="risk_integration" notes={notes} set={setNote} loading={!narrative.narrative} />
      </Section>

      <Section id="metrics" title="4. Metrics and Targets">
        <Recommended>a) Metrics used to assess climate-related risks</Recommended>
        <table className="crp-tcfd-metrics" data-testid="tcfd-metrics-table">
          <tbody>
            <tr>
              <th>Climate score (0-100)</th>
              <td style={{ color: level ? CLIMATE_SCORE_COLOURS[level] : undefined }}>
                {data.overall.overall_risk === null ? 'n/a' : `${data.overall.overall_risk.toFixed(1)} / 100 (${level} risk)`}
              </td>
            </tr>
            <tr>
              <th>20-year expected loss (expected annual loss summed over 20 years)</th>
              <td>{card ? `${money(card.climate_value_at_risk)} (${percent(card.climate_value_at_risk_percentage)})` : UPGRADE_TEXT}</td>
            </tr>
            <tr>
              <th>Residual 20-year expected loss</th>
              <td>{card ? `${money(card.residual_climate_value_at_risk)} (${percent(card.residual_climate_value_at_risk_percentage)})` : UPGRADE_TEXT}</td>
            </tr>
            <tr>
              <th>Expected annual loss</th>
              <td>{card ? money(card.expected_annual_loss) : UPGRADE_TEXT}</td>
            </tr>
            <tr>
              <th>Technical insurance premium</th>
              <td>{card ? `${money(card.technical_insurance_premium)} per year` : UPGRADE_TEXT}</td>
            </tr>
            <tr>
              <th>1-in-100 / 1-in-250-year loss</th>
              <td>
                {card
                  ? card.loss_100_year === null || card.loss_250_year === null
                    ? 'analyse again to see'
                    : `${money(card.loss_100_year)} / ${money(card.loss_250_year)}`
                  : UPGRADE_TEXT}
              </td>
            </tr>
            <tr>
              <th>Maximum exposure</th>
              <td>{card ? `${money(card.max_exposure)} (${percent(card.max_exposure_percentage)})` : UPGRADE_TEXT}</td>
            </tr>
          </tbody>
        </table>
        <NotModelledNote testId="tcfd-not-modelled" />
        <Recommended>b) Scope 1, 2 and 3 greenhouse gas emissions and related risks</Recommended>
        <TcfdCarbonMetrics linked={narrative.narrative?.carbon_analysis ?? null} onLink={(name) => narrative.set({ carbon_analysis: name })} />
        <Recommended>c) Targets and performance against them</Recommended>
        <Note id="targets" notes={notes} set={setNote} loading={!narrative.narrative} />
      </Section>

      <footer className="crp-tcfd-sources" data-testid="tcfd-sources">
        <h3>Data sources</h3>
        <ul>
          {data.project.data_sources.map((s) => (
            <li key={s.name}>
              {s.name}: {s.publisher}. {s.license}.
            </li>
          ))}
        </ul>
        <p className="crp-muted">
          Scenario {scenarioYear}; methodology version {data.project.methodology_version}. Structure: Recommendations of the Task Force on Climate-related
          Financial Disclosures (TCFD, 2017), four core elements and eleven recommended disclosures.
        </p>
      </footer>
    </article>
  );
}
