import { useEffect, useState } from 'react';
import { Checkbox, Modal } from 'antd';
import { ASSET_FIELDS, type AssetFieldKey } from '@crp/contracts';

const label = (k: AssetFieldKey) => {
  const f = ASSET_FIELDS.find((x) => x.key === k)!;
  return 'unit' in f && f.unit ? `${f.label} (${f.unit})` : f.label;
};

/** The optional-input confirmation dialog: optional columns are kept only when chosen (spec 000 §5). */
export function OptionalColumnsDialog({
  columns,
  onConfirm,
  onCancel,
}: {
  columns: AssetFieldKey[] | null;
  onConfirm: (keep: AssetFieldKey[]) => void;
  onCancel: () => void;
}) {
  const [keep, setKeep] = useState<AssetFieldKey[]>([]);
  useEffect(() => setKeep(columns ?? []), [columns]);
  return (
    <Modal
      open={columns !== null}
      title="Optional inputs"
      okText="Continue"
      onOk={() => onConfirm(keep)}
      onCancel={onCancel}
      cancelText="Choose another file"
      data-testid="optional-columns-dialog"
    >
      <p>Your file has these optional columns. Keep the ones to use in the analysis; the others are treated as not available (NA).</p>
      <Checkbox.Group
        className="crp-column-choice"
        value={keep}
        onChange={(v) => setKeep(v as AssetFieldKey[])}
        options={(columns ?? []).map((k) => ({ value: k, label: label(k) }))}
      />
    </Modal>
  );
}
