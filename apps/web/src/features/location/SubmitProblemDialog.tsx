import { Modal, Typography } from 'antd';
import type { SubmitProblem } from './useCreatePortfolio';

/**
 * The asset-limit dialog (titled Error) and the upload-errors dialog with red lines (spec 000 §2, §8). `fileRows`: the
 * file itself was sent (a large upload), so the server's rows are the file's rows, the header being row 1.
 */
export function SubmitProblemDialog({ problem, onClose, fileRows }: { problem: SubmitProblem | null; onClose: () => void; fileRows?: boolean }) {
  return (
    <Modal
      open={problem !== null}
      title={problem?.kind === 'limit' ? 'Error' : problem?.title}
      onCancel={onClose}
      onOk={onClose}
      okText="OK"
      cancelButtonProps={{ style: { display: 'none' } }}
      data-testid="submit-problem"
    >
      {problem?.kind === 'limit' && <Typography.Paragraph data-testid="asset-limit-message">{problem.message}</Typography.Paragraph>}
      {problem?.kind === 'rows' && problem.lines.some((l) => /^Row \d+:/.test(l)) && (
        <Typography.Paragraph className="crp-muted" data-testid="upload-errors-rows">
          {fileRows
            ? 'Rows are the rows of your file as a spreadsheet numbers them (with a header row, Row 2 is the first asset). Fix them in the file and upload it again.'
            : 'Rows count the assets in the order of the preview (Row 1 is the first asset). Fix them and submit again.'}
        </Typography.Paragraph>
      )}
      {problem?.kind === 'rows' && (
        <ul className="crp-error-lines" data-testid="upload-errors">
          {problem.lines.slice(0, 100).map((l, i) => (
            <li key={i}>{l}</li>
          ))}
          {problem.lines.length > 100 && <li>... and {problem.lines.length - 100} more</li>}
        </ul>
      )}
    </Modal>
  );
}
