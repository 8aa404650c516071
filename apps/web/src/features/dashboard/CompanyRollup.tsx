import { useMemo } from 'react';
import { Table } from 'antd';
import type { AssetRow, DashboardData, Unit } from '../../api/dashboard';
import { money, percent } from '../../lib/format';
import { Section } from './Section';

export interface CompanyRow {
  company: string;
  locations: number;
  score: number | null;
  cvar: number;
  rcvar: number;
  value: number;
}

/** The company an asset belongs to: its name up to a " - " or " (" suffix that names the site. */
export function companyOf(name: string): string {
  return name.split(/\s+[-–]\s+|\s+\(/)[0]!.trim() || name;
}

/** Per-company roll-up of the asset rows: locations, mean climate score, summed 20-year expected loss and residual 20-year expected loss. */
export function rollUpByCompany(rows: AssetRow[]): CompanyRow[] {
  const m = new Map<string, CompanyRow & { scored: number; scoreSum: number }>();
  for (const r of rows) {
    const k = companyOf(r.name);
    const c = m.get(k) ?? { company: k, locations: 0, score: null, cvar: 0, rcvar: 0, value: 0, scored: 0, scoreSum: 0 };
    c.locations += 1;
    c.cvar += r.cvar ?? 0;
    c.rcvar += r.overall_loss ?? 0;
    c.value += r.valuation ?? 0;
    if (r.climatic_score !== null) {
      c.scored += 1;
      c.scoreSum += r.climatic_score;
    }
    m.set(k, c);
  }
  return [...m.values()]
    .map(({ scored, scoreSum, ...c }) => ({ ...c, score: scored ? Math.round((10 * scoreSum) / scored) / 10 : null }))
    .sort((a, b) => b.rcvar - a.rcvar);
}

/** /company-dashboard: the same metrics rolled up per company of the portfolio. */
export function CompanyRollup({ data, unit }: { data: DashboardData; unit: Unit }) {
  const rows = useMemo(() => rollUpByCompany(data.asset_table ?? []), [data.asset_table]);
  const pct = (v: number, r: CompanyRow) => (r.value > 0 ? percent((100 * v) / r.value) : '—');
  return (
    <Section testId="section-company-rollup" title="By company" locked={!data.asset_table} empty={rows.length === 0}>
      <Table<CompanyRow>
        className="crp-dash-company-table"
        size="small"
        rowKey="company"
        dataSource={rows}
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        columns={[
          { title: 'Company', dataIndex: 'company' },
          { title: 'Locations', dataIndex: 'locations', width: 100 },
          { title: 'Climate Score', dataIndex: 'score', width: 120, render: (v: number | null) => v ?? '—' },
          { title: '20-year expected loss', key: 'cvar', render: (_, r) => (unit === 'dollar' ? money(r.cvar) : pct(r.cvar, r)) },
          { title: 'Residual 20-year expected loss', key: 'rcvar', render: (_, r) => (unit === 'dollar' ? money(r.rcvar) : pct(r.rcvar, r)) },
          { title: 'Valuation', key: 'value', render: (_, r) => money(r.value) },
        ]}
      />
    </Section>
  );
}
