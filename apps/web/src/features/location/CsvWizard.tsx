import { useState } from 'react';
import { Alert, App, Button, Card, Space, Steps, Upload } from 'antd';
import { WizardNav } from './WizardNav';
import { DownloadOutlined, EditOutlined, InboxOutlined } from '@ant-design/icons';
import { unknownColumnsWarning, type AssetFieldKey } from '@crp/contracts';
import { fetchUploadTemplate } from '../../api/locations';
import { saveBlob } from '../../lib/openFileLink';
import { AnalysisProgress } from './AnalysisProgress';
import { AssetPreviewTable } from './AssetPreviewTable';
import { applyOptionalChoice, isAcceptedFile, parseAssetFile, rowProblems, rowsToSubmission, type AssetRow, type ParsedUpload } from '../../lib/assetRows';
import { portfolioVariables } from './HazardPicker';
import { OptionalColumnsDialog } from '../../ui/OptionalColumnsDialog';
import { PortfolioDetailsForm, type PortfolioDetails } from './PortfolioDetailsForm';
import { SubmitProblemDialog } from './SubmitProblemDialog';
import { useCreatePortfolio } from './useCreatePortfolio';
import { useLeaveWarning } from './useLeaveWarning';

const STEPS = [{ title: 'Upload CSV' }, { title: 'Portfolio Name and Hazard' }, { title: 'Review and Submit' }];
export const SAVED_TEXT = 'Changes saved successfully!';
const EMPTY_DETAILS: PortfolioDetails = { name: '', hazards: [], analysisType: 'ssp' };

function timestamp(): string {
  return new Date().toISOString().replace(/[-:]/g, '').replace('T', '_').slice(0, 15);
}

export function CsvWizard() {
  const { message } = App.useApp();
  const [step, setStep] = useState(0);
  const [file, setFile] = useState<File | null>(null);
  const [pending, setPending] = useState<ParsedUpload | null>(null);
  const [rows, setRows] = useState<AssetRow[]>([]);
  const [columns, setColumns] = useState<AssetFieldKey[]>([]);
  const [draft, setDraft] = useState<AssetRow[] | null>(null);
  const [details, setDetails] = useState<PortfolioDetails>(EMPTY_DETAILS);
  const [templateLoading, setTemplateLoading] = useState(false);
  const [parseError, setParseError] = useState<string | null>(null);
  const [unknownColumns, setUnknownColumns] = useState<string[]>([]);
  const create = useCreatePortfolio();
  const editing = draft !== null;

  useLeaveWarning(rows.length > 0 && !create.created, 'the uploaded assets and your edits');

  const downloadTemplate = async () => {
    setTemplateLoading(true);
    try {
      saveBlob(await fetchUploadTemplate(), `asset_upload_template_${timestamp()}.xlsx`);
    } catch (err) {
      console.error('Failed to fetch the CSV template.', err);
      void message.error('Failed to fetch the CSV template.');
    } finally {
      setTemplateLoading(false);
    }
  };

  const accept = (parsed: ParsedUpload, keep: AssetFieldKey[]) => {
    const optional = new Set(parsed.optionalPresent);
    setRows(applyOptionalChoice(parsed.rows, keep));
    setColumns(parsed.columns.filter((c) => !optional.has(c) || keep.includes(c)));
    setDraft(null);
  };

  const onFile = async (f: File) => {
    setParseError(null);
    if (!isAcceptedFile(f.name)) {
      console.warn('Unsupported file type', f.name);
      setParseError(`'${f.name}' is not a supported file. Upload a .csv, .xlsx or .xls file.`);
      return;
    }
    try {
      const parsed = await parseAssetFile(f);
      if (parsed.rows.length === 0) {
        setParseError(`'${f.name}' has no asset rows. Fill in at least one asset with its name, latitude and longitude.`);
        return;
      }
      setFile(f);
      setUnknownColumns(parsed.unknownColumns);
      if (parsed.optionalPresent.length > 0) setPending(parsed);
      else accept(parsed, []);
    } catch (err) {
      console.error('Upload could not be read', err);
      setParseError(`'${f.name}' could not be read: ${err instanceof Error ? err.message : 'unknown error'}.`);
    }
  };

  if (create.created) {
    return (
      <AnalysisProgress
        project={create.created}
        rows={rows.length}
        onStartOver={() => {
          create.reset();
          setRows([]);
          setFile(null);
          setUnknownColumns([]);
          setDetails(EMPTY_DETAILS);
          setStep(0);
        }}
      />
    );
  }

  const problemRows = rows.filter((r) => rowProblems(r).length > 0).length;
  const canNext = step === 0 ? rows.length > 0 && !editing && file !== null : step === 1 ? details.name.trim() !== '' : false;
  const canSubmit = details.name.trim() !== '' && file !== null && rows.length > 0 && !editing && !create.submitting;

  const submit = () => {
    if (!canSubmit) return;
    create.submit(
      { portfolio_name: details.name.trim(), portfolio_variables: portfolioVariables(details.hazards, details.analysisType), data: rowsToSubmission(rows) },
      details.analysisType,
    );
  };

  return (
    <Card className="crp-card crp-wizard" data-testid="csv-wizard">
      <Steps current={step} items={STEPS} className="crp-steps" size="small" />
      {step === 0 && (
        <div>
          <div className="crp-upload-head">
            <p className="crp-muted">
              Upload a .csv, .xlsx or .xls file with one asset per row. <strong>Asset name and location (latitude, longitude) are mandatory</strong>; the other
              columns are optional. Amounts in USD, areas in square metres, power in GWh, crops in kg.
            </p>
            <Button icon={<DownloadOutlined />} onClick={() => void downloadTemplate()} loading={templateLoading}>
              Download template
            </Button>
          </div>
          <Upload.Dragger
            accept=".csv,.xlsx,.xls"
            multiple={false}
            showUploadList={false}
            beforeUpload={(f) => {
              void onFile(f);
              return false;
            }}
            data-testid="csv-upload"
          >
            <p className="ant-upload-drag-icon">
              <InboxOutlined />
            </p>
            <p className="ant-upload-text">Click or drag a file here</p>
            <p className="ant-upload-hint">{file ? `Loaded: ${file.name} (${pending?.rows.length ?? rows.length} assets)` : 'CSV, XLSX or XLS'}</p>
          </Upload.Dragger>
          {parseError && <Alert className="crp-mt" type="error" showIcon title={parseError} data-testid="upload-refused" />}
          {!parseError && unknownColumns.length > 0 && (
            <Alert className="crp-mt" type="warning" showIcon title={unknownColumnsWarning(unknownColumns)} data-testid="upload-unknown-columns" />
          )}
          {rows.length > 0 && (
            <div className="crp-mt">
              <div className="crp-preview-head">
                <div className="crp-field-label">Preview</div>
                {editing ? (
                  <Space>
                    <Button
                      type="primary"
                      onClick={() => {
                        setRows(draft);
                        setDraft(null);
                        void message.success(SAVED_TEXT);
                      }}
                    >
                      Save
                    </Button>
                    <Button onClick={() => setDraft(null)}>Cancel</Button>
                  </Space>
                ) : (
                  <Button icon={<EditOutlined />} onClick={() => setDraft(rows.map((r) => ({ ...r })))}>
                    Edit
                  </Button>
                )}
              </div>
              {problemRows > 0 && !editing && (
                <Alert
                  className="crp-mb"
                  type="warning"
                  showIcon
                  title={`${problemRows} ${problemRows === 1 ? 'row has' : 'rows have'} problems (marked in red). Fix them with Edit, or the server will refuse the upload.`}
                />
              )}
              {editing && <Alert className="crp-mb" type="info" showIcon title="Editing: Save or Cancel your changes before going on." />}
              <AssetPreviewTable
                rows={draft ?? rows}
                columns={columns}
                editing={editing}
                onEdit={(key, field, value) => setDraft((d) => d?.map((r) => (r.key === key ? { ...r, [field]: value } : r)) ?? null)}
              />
            </div>
          )}
        </div>
      )}
      {step === 1 && <PortfolioDetailsForm value={details} onChange={setDetails} withAnalysisType onEnter={() => canNext && setStep(2)} />}
      {step === 2 && (
        <div>
          <p>
            <strong>{details.name}</strong> · {details.analysisType.toUpperCase()} · {portfolioVariables(details.hazards, details.analysisType).join(', ')} ·{' '}
            {rows.length} assets from {file?.name}
          </p>
          <AssetPreviewTable rows={rows} columns={columns} testId="review-table" />
        </div>
      )}
      <WizardNav step={step} setStep={setStep} canNext={canNext} canSubmit={canSubmit} submitting={create.submitting} onSubmit={submit} />
      <OptionalColumnsDialog
        columns={pending?.optionalPresent ?? null}
        onConfirm={(keep) => {
          if (pending) accept(pending, keep);
          setPending(null);
        }}
        onCancel={() => {
          setPending(null);
          setFile(null);
        }}
      />
      <SubmitProblemDialog problem={create.problem} onClose={create.clearProblem} />
    </Card>
  );
}
