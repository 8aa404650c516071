import { useEffect, useState } from 'react';
import { Button, Checkbox, Modal, Radio, Space, Typography } from 'antd';
import { TableOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { SCENARIO_LABELS, SCENARIOS, YEARS, type AnalysisType, type ScenarioCode } from '@crp/contracts';
import { downloadCsvReport, type PhysicalProject } from '../../api/projects';
import type { PivotState } from '../../pages/PivotTablePage';
import { csvErrorText, useProjectActions } from './useProjectActions';

/**
 * The spec's "Download CSV" (spec 000 §2, §8): choose hazards, years and scenarios; the server builds an .xlsx workbook, so
 * the button and the dialog say XLSX (issue 37 item 7: the label and the file agree).
 */
export function DownloadCsvModal({ project, onClose }: { project: PhysicalProject | null; onClose: () => void }) {
  const { csv } = useProjectActions();
  const navigate = useNavigate();
  // The same report rows, opened in the pivot table instead of downloaded (spec: /pivottable carries the CSV data in state).
  const toPivot = useMutation({ mutationFn: downloadCsvReport });
  const [hazards, setHazards] = useState<string[]>([]);
  const [analysisType, setAnalysisType] = useState<AnalysisType>('rcp');
  const [years, setYears] = useState<number[]>([]);
  const [scenarios, setScenarios] = useState<ScenarioCode[]>([]);

  useEffect(() => {
    if (!project) return;
    const f = project.default_filters;
    setHazards(project.variables);
    setAnalysisType(f.analysis_type);
    setYears(YEARS[f.analysis_type].includes(f.year) ? [f.year] : [YEARS[f.analysis_type][0]!]);
    setScenarios([...SCENARIOS]);
    csv.reset();
    toPivot.reset();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [project]);

  const changeType = (t: AnalysisType) => {
    setAnalysisType(t);
    setYears((ys) => {
      const kept = ys.filter((y) => YEARS[t].includes(y));
      return kept.length ? kept : [YEARS[t][0]!];
    });
  };

  const ready = hazards.length > 0 && years.length > 0 && scenarios.length > 0;
  const failed = csv.isError ? csv.error : toPivot.isError ? toPivot.error : null;
  const errorText = failed ? csvErrorText(failed) : (csv.data?.error ?? toPivot.data?.error ?? null);
  const input = () => ({ project_name: project!.name, climate_variables: hazards, year_list: years, scenario_list: scenarios, analysis_type: analysisType });
  const openPivot = () =>
    project &&
    toPivot.mutate(input(), {
      onSuccess: (res) => {
        if (res.error) return;
        const f = project.default_filters;
        const state: PivotState = {
          rows: res.success as PivotState['rows'],
          project_name: project.name,
          total_rows: res.rows,
          analysis_type: analysisType,
          // the pivot opens on the scenario and year of the project card and dashboard
          ...(f.analysis_type === analysisType ? { scenario_label: SCENARIO_LABELS[analysisType][f.scenario as ScenarioCode], year: f.year } : {}),
        };
        navigate('/pivottable', { state });
      },
    });

  return (
    <Modal
      title={project ? `Download XLSX: ${project.name}` : 'Download XLSX'}
      open={project !== null}
      onCancel={onClose}
      footer={
        <Space>
          <Button onClick={onClose}>Cancel</Button>
          <Button icon={<TableOutlined />} onClick={openPivot} loading={toPivot.isPending} disabled={!ready || csv.isPending}>
            Open in Pivot Table
          </Button>
          <Button
            type="primary"
            onClick={() => project && csv.mutate(input(), { onSuccess: (res) => !res.error && onClose() })}
            loading={csv.isPending}
            disabled={!ready || toPivot.isPending}
          >
            Download
          </Button>
        </Space>
      }
      width={620}
      destroyOnHidden
    >
      <fieldset className="crp-fieldset">
        <legend className="crp-field-label">Hazards</legend>
        <Checkbox.Group value={hazards} onChange={(v) => setHazards(v as string[])} options={(project?.variables ?? []).map((v) => ({ value: v, label: v }))} />
      </fieldset>
      <fieldset className="crp-fieldset">
        <legend className="crp-field-label">Analysis type</legend>
        <Radio.Group value={analysisType} onChange={(e) => changeType(e.target.value as AnalysisType)}>
          <Radio value="rcp">RCP</Radio>
          <Radio value="ssp">SSP</Radio>
        </Radio.Group>
      </fieldset>
      <fieldset className="crp-fieldset">
        <legend className="crp-field-label">Years</legend>
        <Checkbox.Group
          value={years}
          onChange={(v) => setYears((v as number[]).slice().sort())}
          options={YEARS[analysisType].map((y) => ({ value: y, label: String(y) }))}
        />
      </fieldset>
      <fieldset className="crp-fieldset">
        <legend className="crp-field-label">Scenarios</legend>
        <Checkbox.Group
          value={scenarios}
          onChange={(v) => setScenarios(v as ScenarioCode[])}
          options={SCENARIOS.map((s) => ({ value: s, label: SCENARIO_LABELS[analysisType][s] }))}
        />
      </fieldset>
      {errorText ? (
        <Typography.Paragraph type="danger" data-testid="csv-error">
          {errorText}
        </Typography.Paragraph>
      ) : (
        <Typography.Paragraph className="crp-muted" data-testid="csv-hint">
          The analysis results are downloaded as an Excel workbook (.xlsx), with an About sheet naming the sources.
        </Typography.Paragraph>
      )}
    </Modal>
  );
}
