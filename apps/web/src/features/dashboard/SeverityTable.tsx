import { Switch, Table, Tag } from 'antd';
import { severityBand, type SeverityBand } from '@crp/contracts';
import type { DashboardData, HazardValue } from '../../api/dashboard';
import { amount } from '../../lib/format';
import { Section } from './Section';

export const BAND_COLOUR: Record<SeverityBand | 'No data', string> = {
  'No Risk': 'default',
  Low: 'green',
  Medium: 'gold',
  'Medium-High': 'orange',
  High: 'red',
  'Very High': 'magenta',
  'No data': 'default',
};

function Impact({ v }: { v: HazardValue | undefined }) {
  if (!v) return <span className="crp-muted">—</span>;
  const [amt, unit, score] = v;
  return (
    <span>
      {amount(amt, unit, 3)} <span className="crp-muted">· score {score ?? '—'}</span>
    </span>
  );
}

export function BandTag({ score }: { score: number | null }) {
  const band = score === null ? 'No data' : severityBand(score);
  return <Tag color={BAND_COLOUR[band]}>{band}</Tag>;
}

/**
 * Hazard severity (climate variable intensity): Hazard, 2020 baseline impact, projected impact and Severity band,
 * with or without adaptation.
 */
export function SeverityTable({ data, adaptation, onAdaptation }: { data: DashboardData; adaptation: boolean; onAdaptation: (v: boolean) => void }) {
  const now = adaptation ? data.hazard_values : data.hazard_values_without_adaptation;
  const base = adaptation ? data.hazard_values_2020 : data.hazard_values_2020_without_adaptation;
  const rows = Object.keys(now ?? {}).map((hazard) => ({ hazard, base: base?.[hazard], now: now?.[hazard] }));
  return (
    <Section
      testId="section-severity"
      title="Hazard severity"
      locked={!now}
      extra={
        <label className="crp-dash-switch">
          Adaptation{' '}
          <Switch
            size="small"
            checked={adaptation}
            onChange={onAdaptation}
            checkedChildren="On"
            unCheckedChildren="Off"
            aria-label="Adaptation in the severity table"
          />
        </label>
      }
      empty={rows.length === 0}
    >
      <Table
        size="small"
        rowKey="hazard"
        pagination={false}
        dataSource={rows}
        columns={[
          { title: 'Hazard', dataIndex: 'hazard' },
          { title: '2020 baseline impact', key: 'base', render: (_, r) => <Impact v={r.base} /> },
          { title: `Projected impact (${data.filters.year})`, key: 'now', render: (_, r) => <Impact v={r.now} /> },
          { title: 'Severity', key: 'band', render: (_, r) => <BandTag score={r.now?.[2] ?? null} /> },
        ]}
      />
    </Section>
  );
}
