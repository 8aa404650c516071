import { Alert, Progress } from 'antd';
import type { AssetFieldKey } from '@crp/contracts';
import type { UploadProgress } from '../../api/http';
import { rowProblems } from '../../lib/assetRows';
import type { LargeUpload } from '../../lib/largeUpload';
import { AssetPreviewTable } from './AssetPreviewTable';

const n = (v: number) => v.toLocaleString('en-US');

/** "12,345 rows", or "about 12,300 rows (counting...)" while the rows are counted. */
export function largeRowsText(large: LargeUpload): string {
  return large.rows !== null ? `${n(large.rows)} rows` : `about ${n(large.estimate)} rows (counting...)`;
}

/** "3 points shown ..." or "the first 100 of 2,400 points shown ..." for a GIS file. */
function gisTitle(large: LargeUpload, shown: number): string {
  const total = large.rows ?? large.estimate;
  const which = shown < total ? `the first ${n(shown)} of ${n(total)} points are` : `${n(total)} ${total === 1 ? 'point is' : 'points are'}`;
  return `GIS file: ${which} shown, latitude and longitude from their geometry (WGS 84); edit the file itself to change them.`;
}

/**
 * The read-only preview of a large upload (docs/decisions.md "Large uploads are sent as the file"): the first rows,
 * the count, and why it cannot be edited here.
 */
export function LargeUploadPreview({ large, columns, testId }: { large: LargeUpload; columns: AssetFieldKey[]; testId?: string }) {
  const shown = large.preview.length;
  const problems = large.preview.filter((r) => rowProblems(r).length > 0).length;
  return (
    <div className="crp-mt" data-testid="large-upload" data-rows={large.rows ?? ''}>
      <Alert
        className="crp-mb"
        type="info"
        showIcon
        title={
          large.gis ? gisTitle(large, shown) : `Large file: the first ${n(shown)} of ${largeRowsText(large)} are shown; edit the file itself to change rows.`
        }
        description={
          large.gis
            ? 'Attributes are read by the template column names (name, valuation, floors, property type, ...). The file is sent as it is and the server checks every point; problems are listed after Create Portfolio, and nothing is stored until the file has none.'
            : 'The file is sent as it is and the server checks every row; row problems are listed after Create Portfolio, and nothing is stored until the file has none.'
        }
        data-testid="large-upload-note"
      />
      {problems > 0 && (
        <Alert
          className="crp-mb"
          type="warning"
          showIcon
          title={`${problems} of the first ${n(shown)} rows ${problems === 1 ? 'has' : 'have'} problems (marked in red). Fix them in the file, or the server will refuse the upload.`}
        />
      )}
      <AssetPreviewTable rows={large.preview} columns={columns} testId={testId} totalText={(t) => `first ${n(t)} of ${largeRowsText(large)}`} />
    </div>
  );
}

/** A file size for people: below 1 MB in whole KB ("41 KB", "820 KB"), from 1 MB in MB with one decimal ("6.2 MB"). */
export function formatBytes(bytes: number): string {
  const kb = bytes / 1024;
  if (Math.round(kb) < 1024) return `${n(Math.round(kb))} KB`;
  return `${(kb / 1024).toFixed(1)} MB`;
}

/** The bytes of the file sent so far, then "Validating and storing" while the server reads and stores the rows. */
export function UploadProgressBar({ upload }: { upload: UploadProgress }) {
  const sent = upload.total > 0 && upload.sent >= upload.total;
  const percent = upload.total > 0 ? Math.floor((upload.sent / upload.total) * 100) : 0;
  return (
    <div className="crp-mt" data-testid="upload-progress" data-phase={sent ? 'storing' : 'uploading'} data-sent={upload.sent} data-total={upload.total}>
      <Progress percent={percent} status="active" aria-label="Upload progress" />
      <div className="crp-muted crp-small" data-testid="upload-progress-text">
        {sent
          ? 'Validating and storing: the server checks every row and stores the assets.'
          : `Uploading: ${formatBytes(upload.sent)} of ${formatBytes(upload.total)} sent`}
      </div>
    </div>
  );
}
