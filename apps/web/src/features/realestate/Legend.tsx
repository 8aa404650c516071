import { Space } from 'antd';

/** A row of colour swatches with their band labels. */
export function Legend({
  title,
  bands,
  colours,
  unit,
  testId,
}: {
  title: string;
  bands: readonly string[];
  colours: Record<string, string>;
  unit: string;
  testId?: string;
}) {
  return (
    <div className="crp-re-legend" data-testid={testId}>
      <span className="crp-re-legend-title">{title}</span>
      <Space size={10} wrap>
        {bands.map((b) => (
          <span key={b} className="crp-re-legend-item">
            <span className="crp-re-swatch" style={{ background: colours[b] }} />
            {b} {unit}
          </span>
        ))}
      </Space>
    </div>
  );
}
