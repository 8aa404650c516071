import { useRef, useState } from 'react';
import { Alert, App, Button, Card, Space, Steps, Upload } from 'antd';
import { WizardNav } from './WizardNav';
import { DownloadOutlined, EditOutlined, InboxOutlined } from '@ant-design/icons';
import { OPTIONAL_ASSET_FIELDS, unknownColumnsWarning, type AssetFieldKey } from '@crp/contracts';
import { fetchUploadTemplate, previewUpload } from '../../api/locations';
import { saveBlob } from '../../lib/openFileLink';
import { AnalysisProgress } from './AnalysisProgress';
import { AssetPreviewTable } from './AssetPreviewTable';
import { LargeUploadPreview, UploadProgressBar, largeRowsText } from './LargeUploadPreview';
import {
  countCsvAssetRows,
  csvWithoutColumns,
  isCountableCsv,
  isLargeBySize,
  isLargeParsed,
  largeFromParsed,
  readLargeCsvHead,
  type LargeUpload,
} from '../../lib/largeUpload';
import {
  applyOptionalChoice,
  isAcceptedFile,
  isGisFile,
  parseAssetFile,
  recordsFromTable,
  rowProblems,
  rowsToSubmission,
  type AssetRow,
  type ParsedUpload,
} from '../../lib/assetRows';
import { ApiError } from '../../api/http';
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
  // A large file (docs/decisions.md): its first rows read-only, the file itself submitted; `rows` stays empty.
  const [large, setLarge] = useState<LargeUpload | null>(null);
  // The optional columns a large CSV's header offers, while the optional-columns dialog asks about them.
  const [pendingLarge, setPendingLarge] = useState<AssetFieldKey[] | null>(null);
  const latestFile = useRef<File | null>(null);
  const create = useCreatePortfolio();
  const editing = draft !== null;
  const assetCount = large ? (large.rows ?? 0) : rows.length;

  useLeaveWarning((rows.length > 0 || large !== null) && !create.created, 'the uploaded assets and your edits');

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

  /**
   * A large file's preview. A CSV with a header row gets the optional-columns dialog as a small file does: the header
   * and the rows read are all it needs, and the columns left out are emptied in the header sent (csvWithoutColumns).
   * An XLSX/XLS is sent as it is (docs/decisions.md "Large uploads are sent as the file").
   */
  const showLarge = (f: File, upload: LargeUpload, csv: boolean) => {
    setFile(f);
    setRows([]);
    setDraft(null);
    setColumns(upload.columns);
    setUnknownColumns(upload.unknownColumns);
    setLarge(upload);
    setPendingLarge(csv && upload.optionalPresent.length > 0 ? upload.optionalPresent : null);
  };

  const acceptLarge = (keep: AssetFieldKey[]) => {
    const offered = pendingLarge ?? [];
    const drop = offered.filter((c) => !keep.includes(c));
    setColumns((cols) => cols.filter((c) => !drop.includes(c)));
    setLarge((l) => (l ? { ...l, preview: applyOptionalChoice(l.preview, keep.concat(OPTIONAL_ASSET_FIELDS.filter((c) => !offered.includes(c)))), drop } : l));
  };

  /** A CSV above LARGE_UPLOAD_BYTES: the first rows are parsed, the rest only counted (quote-aware, streaming). */
  const onLargeCsv = async (f: File) => {
    const { upload, hasHeader } = await readLargeCsvHead(f);
    if (upload.preview.length === 0) {
      setParseError(`'${f.name}' has no asset rows. Fill in at least one asset with its name, latitude and longitude.`);
      return;
    }
    showLarge(f, upload, true);
    if (upload.rows !== null) return;
    const counted = await countCsvAssetRows(f, hasHeader);
    if (latestFile.current === f) setLarge((l) => (l ? { ...l, rows: counted } : l));
  };

  /** A GeoJSON, GeoPackage or zipped Shapefile: the server reads it (points, attributes by the template names) for the preview. */
  const onGisFile = async (f: File) => {
    try {
      const read = await previewUpload(f);
      if (latestFile.current !== f) return;
      if (read.records === 0) {
        setParseError(`'${f.name}' has no points. It needs one point per asset with its name.`);
        return;
      }
      const parsed = recordsFromTable([read.header, ...read.rows]);
      showLarge(f, { ...largeFromParsed(parsed), rows: read.records, estimate: read.records, optionalPresent: [], gis: true }, false);
    } catch (err) {
      console.error('GIS upload could not be read', err);
      if (latestFile.current !== f) return;
      // nothing of an earlier file stays loaded behind the refusal (Next would send that file)
      setLarge(null);
      setRows([]);
      setFile(null);
      setUnknownColumns([]);
      setParseError(err instanceof ApiError && err.detail ? err.detail.replace(/^upload_file: /, '') : `'${f.name}' could not be read.`);
    }
  };

  const onFile = async (f: File) => {
    setParseError(null);
    latestFile.current = f;
    if (isGisFile(f.name)) return onGisFile(f);
    if (!isAcceptedFile(f.name)) {
      console.warn('Unsupported file type', f.name);
      setParseError(`'${f.name}' is not a supported file. Upload a .csv, .xlsx or .xls file, or a GeoJSON, GeoPackage or zipped Shapefile of points.`);
      return;
    }
    try {
      if (isLargeBySize(f) && (await isCountableCsv(f))) return await onLargeCsv(f);
      const parsed = await parseAssetFile(f);
      if (parsed.rows.length === 0) {
        setParseError(`'${f.name}' has no asset rows. Fill in at least one asset with its name, latitude and longitude.`);
        return;
      }
      if (isLargeParsed(f, parsed)) return showLarge(f, largeFromParsed(parsed), await isCountableCsv(f));
      setLarge(null);
      setPendingLarge(null);
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
        rows={assetCount}
        onStartOver={() => {
          create.reset();
          setRows([]);
          setLarge(null);
          setFile(null);
          setUnknownColumns([]);
          setDetails(EMPTY_DETAILS);
          setStep(0);
        }}
      />
    );
  }

  const problemRows = rows.filter((r) => rowProblems(r).length > 0).length;
  const canNext = step === 0 ? assetCount > 0 && !editing && file !== null : step === 1 ? details.name.trim() !== '' : false;
  const canSubmit = details.name.trim() !== '' && file !== null && assetCount > 0 && !editing && !create.submitting;

  const submit = async () => {
    if (!canSubmit) return;
    const portfolio_variables = portfolioVariables(details.hazards, details.analysisType);
    if (large) {
      const sent = await csvWithoutColumns(file, large.drop);
      create.submit({ portfolio_name: details.name.trim(), portfolio_variables, file: sent, rows: assetCount }, details.analysisType);
      return;
    }
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
              Upload a .csv, .xlsx or .xls file with one asset per row, or a GeoJSON, GeoPackage or zipped Shapefile with one point per asset.{' '}
              <strong>Asset name and location (latitude, longitude) are mandatory</strong>; the other columns (attributes) are optional. Amounts in USD, areas
              in square metres, power in GWh, crops in kg.
            </p>
            <Button icon={<DownloadOutlined />} onClick={() => void downloadTemplate()} loading={templateLoading}>
              Download template
            </Button>
          </div>
          <Upload.Dragger
            accept=".csv,.xlsx,.xls,.geojson,.json,.gpkg,.zip"
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
            <p className="ant-upload-hint">
              {file
                ? `Loaded: ${file.name} (${large ? largeRowsText(large) : `${pending?.rows.length ?? rows.length} assets`})`
                : 'CSV, XLSX or XLS; GeoJSON, GeoPackage or zipped Shapefile'}
            </p>
          </Upload.Dragger>
          {parseError && <Alert className="crp-mt" type="error" showIcon title={parseError} data-testid="upload-refused" />}
          {!parseError && unknownColumns.length > 0 && (
            <Alert className="crp-mt" type="warning" showIcon title={unknownColumnsWarning(unknownColumns)} data-testid="upload-unknown-columns" />
          )}
          {large && <LargeUploadPreview large={large} columns={columns} />}
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
            {assetCount.toLocaleString('en-US')} assets from {file?.name}
          </p>
          {large ? (
            <LargeUploadPreview large={large} columns={columns} testId="review-table" />
          ) : (
            <AssetPreviewTable rows={rows} columns={columns} testId="review-table" />
          )}
          {create.upload && <UploadProgressBar upload={create.upload} />}
        </div>
      )}
      <WizardNav step={step} setStep={setStep} canNext={canNext} canSubmit={canSubmit} submitting={create.submitting} onSubmit={() => void submit()} />
      <OptionalColumnsDialog
        columns={pending?.optionalPresent ?? pendingLarge}
        onConfirm={(keep) => {
          if (pending) accept(pending, keep);
          else if (pendingLarge) acceptLarge(keep);
          setPending(null);
          setPendingLarge(null);
        }}
        onCancel={() => {
          if (pendingLarge) {
            latestFile.current = null;
            setLarge(null);
            setUnknownColumns([]);
          }
          setPending(null);
          setPendingLarge(null);
          setFile(null);
        }}
      />
      <SubmitProblemDialog problem={create.problem} onClose={create.clearProblem} fileRows={large !== null} />
    </Card>
  );
}
