import { useEffect, useState } from 'react';
import { App, Button, Form, Segmented, Select, Space } from 'antd';
import { FilterOutlined, SaveOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SCENARIO_LABELS, SCENARIOS, type AnalysisType } from '@crp/contracts';
import { saveDefaultFilter } from '../../api/dashboard';
import { firstErrorMessage } from '../../api/http';
import { queryKeys } from '../../api/queryKeys';
import { normaliseYear, yearsFor, type AppliedFilters } from './dashboardState';
import { INFO } from './infoTexts';
import { InfoButton } from './Section';

const COUNTS: ('All' | number)[] = ['All', 5, 10, 20, 50, 100];

/**
 * The sticky Advanced Filters (spec 001 §2.1, §4): analysis type switches the scenario and year lists; Apply sends
 * them (rcp with a year past 2050 becomes 2050); Save as default stores analysis type, scenario and year per user.
 */
export function AdvancedFilters({
  value,
  hazards,
  propertyTypes,
  onApply,
  busy,
  unavailable = [],
}: {
  value: AppliedFilters;
  hazards: string[];
  propertyTypes: string[];
  onApply: (f: AppliedFilters) => void;
  busy?: boolean;
  /** Filters the dashboard cannot serve (a large portfolio read from its dashboard store): shown disabled. */
  unavailable?: readonly string[];
}) {
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [draft, setDraft] = useState<AppliedFilters>(value);
  useEffect(() => setDraft(value), [value]);

  const save = useMutation({
    mutationFn: () => {
      const year = normaliseYear(draft.analysis_type, draft.year);
      return saveDefaultFilter({ analysis_type: draft.analysis_type, scenario: draft.scenario, year });
    },
    onSuccess: () => {
      void message.success('Default filters saved.');
      // The project cards carry the filters the dashboard opens with (dashboard_filters): reload them.
      void qc.invalidateQueries({ queryKey: queryKeys.projects });
    },
    onError: (err) => void message.error(firstErrorMessage(err, 'Could not save the default filters.')),
  });

  const setAnalysis = (at: AnalysisType) =>
    // The year list changes with the analysis type; keep the year when the new list still offers it.
    setDraft((d) => ({ ...d, analysis_type: at, year: yearsFor(at).includes(d.year) ? d.year : at === 'rcp' && d.year > 2050 ? d.year : 2050 }));

  const apply = () => onApply({ ...draft, year: normaliseYear(draft.analysis_type, draft.year) });
  // rcp offers up to 2050: a year chosen under ssp (e.g. 2100) is shown until apply forces it to 2050.
  const years = draft.analysis_type === 'rcp' && !yearsFor('rcp').includes(draft.year) ? [...yearsFor('rcp'), draft.year] : yearsFor(draft.analysis_type);
  const dirty = JSON.stringify(draft) !== JSON.stringify(value);

  return (
    <div className="crp-dash-filters" data-testid="advanced-filters" role="search" aria-label="Advanced Filters">
      <div className="crp-dash-filters-title">
        <FilterOutlined aria-hidden /> Advanced Filters
        <InfoButton title={INFO.advancedFilter!.title}>{INFO.advancedFilter!.body}</InfoButton>
      </div>
      <Form layout="inline" className="crp-dash-filters-form" onFinish={apply}>
        <Form.Item label="Analysis">
          <Segmented<AnalysisType>
            aria-label="Analysis type"
            data-testid="filter-analysis"
            value={draft.analysis_type}
            onChange={setAnalysis}
            options={[
              { label: 'RCP', value: 'rcp' },
              { label: 'SSP', value: 'ssp' },
            ]}
          />
        </Form.Item>
        <Form.Item label="Scenario">
          <Select
            aria-label="Scenario"
            data-testid="filter-scenario"
            style={{ width: 120 }}
            value={draft.scenario}
            onChange={(scenario) => setDraft((d) => ({ ...d, scenario }))}
            options={SCENARIOS.map((s) => ({ value: s, label: SCENARIO_LABELS[draft.analysis_type][s] }))}
          />
        </Form.Item>
        <Form.Item label="Year">
          <Select
            aria-label="Year"
            data-testid="filter-year"
            style={{ width: 96 }}
            virtual={false}
            listHeight={320}
            value={draft.year}
            onChange={(year) => setDraft((d) => ({ ...d, year }))}
            options={years.map((y) => ({ value: y, label: String(y) }))}
          />
        </Form.Item>
        <Form.Item label="Hazard">
          <Select
            aria-label="Hazard"
            data-testid="filter-variable"
            disabled={unavailable.includes('variable')}
            style={{ width: 150 }}
            value={draft.variable}
            onChange={(variable) => setDraft((d) => ({ ...d, variable }))}
            options={[{ value: 'Total', label: 'Total (all)' }, ...hazards.map((h) => ({ value: h, label: h }))]}
          />
        </Form.Item>
        <Form.Item label="Property type">
          <Select
            aria-label="Property type"
            data-testid="filter-property-type"
            disabled={unavailable.includes('property_type')}
            style={{ width: 150 }}
            value={draft.property_type}
            onChange={(property_type) => setDraft((d) => ({ ...d, property_type }))}
            options={[{ value: 'All', label: 'All' }, ...propertyTypes.map((t) => ({ value: t, label: t }))]}
            showSearch
          />
        </Form.Item>
        <Form.Item label="Assets">
          <Select
            aria-label="Number of assets"
            disabled={unavailable.includes('count')}
            style={{ width: 100 }}
            value={draft.count}
            onChange={(count) => setDraft((d) => ({ ...d, count }))}
            options={COUNTS.map((c) => ({ value: c, label: c === 'All' ? 'All' : `Top ${c}` }))}
          />
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" loading={busy} disabled={!dirty && !busy} data-testid="filter-apply">
            Apply
          </Button>
          <Button icon={<SaveOutlined />} onClick={() => save.mutate()} loading={save.isPending} data-testid="filter-save-default">
            Save as default
          </Button>
        </Space>
      </Form>
    </div>
  );
}
