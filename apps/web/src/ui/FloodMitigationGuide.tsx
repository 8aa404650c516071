import { useState } from 'react';
import { Alert, Select, Table, Tag, Typography } from 'antd';
import { FLOOD_MITIGATION_LEVELS, FLOOD_MITIGATION_MAX_M, floodMitigationLevel } from '@crp/contracts';

const LEVEL_COLOURS = { High: 'green', Median: 'gold', Low: 'orange', None: 'default' } as const;

/**
 * Flood mitigation guidance (spec 001 §9): measures farther than 20 m have no effect; High, Median and Low by the count
 * of measures within 10, 15 and 20 m (counts chosen here, docs/methodology.md). A small calculator applies the rule.
 */
export function FloodMitigationGuide() {
  const [distances, setDistances] = useState<string[]>([]);
  const values = distances.map(Number).filter((d) => Number.isFinite(d) && d >= 0);
  const level = floodMitigationLevel(values);
  return (
    <div data-testid="flood-mitigation">
      <Typography.Paragraph>
        Flood barriers, flood walls, retention ponds and similar measures protect a property only when they are close to it.{' '}
        <strong>Measures farther than {FLOOD_MITIGATION_MAX_M} m from the building have no effect.</strong> The Flood Risk Reduction Level counts the measures
        by distance band:
      </Typography.Paragraph>
      <Table
        size="small"
        pagination={false}
        rowKey="level"
        dataSource={[...FLOOD_MITIGATION_LEVELS, { level: 'None', minCount: 0, withinM: FLOOD_MITIGATION_MAX_M }]}
        columns={[
          { title: 'Level', dataIndex: 'level', render: (l: keyof typeof LEVEL_COLOURS) => <Tag color={LEVEL_COLOURS[l]}>{l}</Tag> },
          {
            title: 'Rule',
            key: 'rule',
            render: (_v, r) =>
              r.level === 'None'
                ? `No measure within ${FLOOD_MITIGATION_MAX_M} m`
                : `At least ${r.minCount} measure${r.minCount > 1 ? 's' : ''} within ${r.withinM} m${r.withinM === 10 ? ' (band <=10 m)' : r.withinM === 15 ? ' (bands <=10 and 10-15 m)' : ' (bands <=10, 10-15 and 15-20 m)'}`,
          },
        ]}
      />
      <Typography.Paragraph className="crp-mt-md" strong>
        Check a property
      </Typography.Paragraph>
      <Select
        mode="tags"
        style={{ width: '100%' }}
        placeholder="Type the distance (m) of each measure from the building and press Enter"
        value={distances}
        onChange={(v) => setDistances((v as string[]).filter((x) => /^\d+(\.\d+)?$/.test(x.trim())))}
        tokenSeparators={[',', ' ']}
        open={false}
        aria-label="Distances of measures (m)"
      />
      <Alert
        className="crp-mt-md"
        type={level === 'High' ? 'success' : level === 'None' ? 'info' : 'warning'}
        showIcon
        data-testid="flood-mitigation-level"
        title={`Flood Risk Reduction Level: ${level}`}
        description={
          values.length === 0
            ? 'Add the distances of the measures around the building.'
            : `${values.filter((d) => d <= FLOOD_MITIGATION_MAX_M).length} of ${values.length} measure(s) are within ${FLOOD_MITIGATION_MAX_M} m and count; the others have no effect.`
        }
      />
    </div>
  );
}
