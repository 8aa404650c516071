import { Checkbox, Tooltip } from 'antd';
import { LockOutlined } from '@ant-design/icons';
import { DEFAULT_HAZARD_LABELS, OPTIONAL_HAZARD_LABELS, type AnalysisType } from '@crp/contracts';

/**
 * Hazard choice: River Flood, Typhoon and Storm Surge always on and locked; the optional ones free.
 * With `analysisType`, Extreme Cold is offered only for ssp (spec 000 §5, CSV picker).
 */
export function HazardPicker({ value, onChange, analysisType }: { value: string[]; onChange: (v: string[]) => void; analysisType?: AnalysisType }) {
  const optional = OPTIONAL_HAZARD_LABELS.filter((h) => !(analysisType === 'rcp' && h === 'Extreme Cold'));
  return (
    <div className="crp-hazards" role="group" aria-label="Hazards">
      <div className="crp-hazard-group">
        <div className="crp-field-label">Default hazards (always included)</div>
        {DEFAULT_HAZARD_LABELS.map((h) => (
          <Tooltip key={h} title="Always included">
            <Checkbox checked disabled>
              {h} <LockOutlined className="crp-muted" aria-label="locked" />
            </Checkbox>
          </Tooltip>
        ))}
      </div>
      <div className="crp-hazard-group">
        <div className="crp-field-label">Optional hazards</div>
        <Checkbox.Group
          value={value.filter((v) => optional.includes(v as (typeof optional)[number]))}
          onChange={(v) => onChange(v as string[])}
          options={optional.map((h) => ({ value: h, label: h }))}
        />
        {analysisType === 'rcp' && <div className="crp-muted crp-small crp-mt-sm">Extreme Cold is available for SSP analysis only.</div>}
      </div>
    </div>
  );
}

/** The portfolio_variables list: defaults plus the chosen optional hazards (Extreme Cold dropped for rcp). */
export function portfolioVariables(optional: string[], analysisType?: AnalysisType): string[] {
  const chosen = optional.filter((h) => !(analysisType === 'rcp' && h === 'Extreme Cold'));
  return [...DEFAULT_HAZARD_LABELS, ...chosen];
}
