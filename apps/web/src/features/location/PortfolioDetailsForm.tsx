import { Input, Radio } from 'antd';
import { PROJECT_NAME_MAX_LENGTH, type AnalysisType } from '@crp/contracts';
import { HazardPicker } from './HazardPicker';

export interface PortfolioDetails {
  name: string;
  hazards: string[];
  analysisType: AnalysisType;
}

/** Step 2 of both wizards: portfolio name (required) and hazards; the CSV wizard adds the analysis type. */
export function PortfolioDetailsForm({
  value,
  onChange,
  withAnalysisType,
  onEnter,
}: {
  value: PortfolioDetails;
  onChange: (v: PortfolioDetails) => void;
  withAnalysisType?: boolean;
  onEnter?: () => void;
}) {
  const missing = value.name.trim() === '';
  return (
    <div className="crp-details-form">
      <label className="crp-field-label" htmlFor="portfolio-name">
        Portfolio Name <span className="crp-danger">*</span>
      </label>
      <Input
        id="portfolio-name"
        value={value.name}
        onChange={(e) => onChange({ ...value, name: e.target.value })}
        onPressEnter={onEnter}
        placeholder="e.g. Hong Kong logistics sites"
        maxLength={PROJECT_NAME_MAX_LENGTH}
        status={missing ? 'warning' : undefined}
        autoFocus
        aria-required
      />
      {missing && <div className="crp-muted crp-small crp-mt-sm">A portfolio name is required.</div>}
      {withAnalysisType && (
        <div className="crp-mt">
          <div className="crp-field-label">Analysis type</div>
          <Radio.Group
            value={value.analysisType}
            onChange={(e) => onChange({ ...value, analysisType: e.target.value as AnalysisType })}
            options={[
              { value: 'ssp', label: 'SSP (CMIP6)' },
              { value: 'rcp', label: 'RCP (CMIP5)' },
            ]}
          />
        </div>
      )}
      <div className="crp-mt">
        <HazardPicker
          value={value.hazards}
          onChange={(hazards) => onChange({ ...value, hazards })}
          analysisType={withAnalysisType ? value.analysisType : undefined}
        />
      </div>
    </div>
  );
}
