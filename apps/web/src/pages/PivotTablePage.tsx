import { Card } from 'antd';
import { safeFileName } from '@crp/contracts';
import { useLocation } from 'react-router-dom';
import { useDocumentTitle } from '../lib/useDocumentTitle';
import { NeedsStateCard } from '../ui/NeedsStateCard';
import { PageHeader } from '../ui/PageHeader';
import { PivotTable } from '../features/pivot/PivotTable';
import type { Row } from '../features/pivot/pivot';

/** What the Download XLSX dialog (the spec's Download CSV) hands over in navigation state (spec 001 §2: /pivottable opens with CSV data in state). */
export interface PivotState {
  rows: Row[];
  project_name: string;
  /** Rows in the full export; more than `rows.length` when the inline rows were cut. */
  total_rows: number;
  analysis_type: string;
  /** The scenario label and year the pivot opens on (the project's default filters), when the rows have them. */
  scenario_label?: string;
  year?: number;
}

function stateOf(v: unknown): PivotState | null {
  const s = v as Partial<PivotState> | null;
  return s && Array.isArray(s.rows) && s.rows.length > 0 && typeof s.rows[0] === 'object' ? (s as PivotState) : null;
}

export function PivotTablePage() {
  useDocumentTitle('Pivot table');
  const state = stateOf(useLocation().state);
  if (!state) {
    return (
      <div className="crp-page">
        <PageHeader title="Pivot table" subtitle="Slice the analysis results of a portfolio by hazard, scenario, year and asset." />
        <NeedsStateCard description="Open the pivot table from a project card: Download XLSX, choose hazards, years and scenarios, then Open in Pivot Table." />
      </div>
    );
  }
  const cut = state.total_rows > state.rows.length;
  return (
    <div className="crp-page crp-page-wide">
      <PageHeader
        title="Pivot table"
        subtitle={`${state.project_name} · ${state.analysis_type.toUpperCase()} · ${state.rows.length.toLocaleString('en-US')} rows${cut ? ` (the first of ${state.total_rows.toLocaleString('en-US')}: narrow the Download XLSX choice for all of them)` : ''}`}
      />
      <Card className="crp-card">
        <PivotTable rows={state.rows} fileName={safeFileName(`${state.project_name}_pivot`)} prefer={{ scenario: state.scenario_label, year: state.year }} />
      </Card>
    </div>
  );
}
