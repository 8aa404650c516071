import { useEffect, useState } from 'react';
import { Checkbox, Modal, Radio, Typography } from 'antd';
import { SCENARIO_LABELS, SCENARIOS, YEARS, type AnalysisType, type ScenarioCode } from '@crp/contracts';
import type { PhysicalProject } from '../../api/projects';
import { csvErrorText, useProjectActions } from './useProjectActions';

/** Download CSV: choose hazards, years and scenarios; the server builds an .xlsx file (spec 000 §2, §8). */
export function DownloadCsvModal({ project, onClose }: { project: PhysicalProject | null; onClose: () => void }) {
  const { csv } = useProjectActions();
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
  const errorText = csv.isError ? csvErrorText(csv.error) : csv.data?.error ?? null;

  return (
    <Modal
      title={project ? `Download CSV: ${project.name}` : 'Download CSV'}
      open={project !== null}
      onCancel={onClose}
      onOk={() =>
        project &&
        csv.mutate(
          { project_name: project.name, climate_variables: hazards, year_list: years, scenario_list: scenarios, analysis_type: analysisType },
          { onSuccess: (res) => !res.error && onClose() },
        )
      }
      okText="Download"
      confirmLoading={csv.isPending}
      okButtonProps={{ disabled: !ready }}
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
        <Checkbox.Group value={years} onChange={(v) => setYears((v as number[]).slice().sort())} options={YEARS[analysisType].map((y) => ({ value: y, label: String(y) }))} />
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
          Analysis Result will be downloaded in excel file.
        </Typography.Paragraph>
      )}
    </Modal>
  );
}
