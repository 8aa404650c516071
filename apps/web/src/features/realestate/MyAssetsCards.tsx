import { Button, Card, Col, Row, Typography } from 'antd';
import { EnvironmentOutlined, PlusOutlined } from '@ant-design/icons';

export interface SavedAsset {
  name: string;
  latitude: number;
  longitude: number;
  property_type?: string | null;
}

/** Parses the assets handed over in navigation state (My Assets): only rows with a name and valid coordinates. */
export function savedAssetsOf(state: unknown): SavedAsset[] {
  const list = (state as { assets?: unknown } | null)?.assets;
  if (!Array.isArray(list)) return [];
  return list.flatMap((a) => {
    const o = (a ?? {}) as Record<string, unknown>;
    const lat = Number(o.latitude ?? o.lat);
    const lon = Number(o.longitude ?? o.long ?? o.lon);
    const name = typeof o.name === 'string' ? o.name.trim() : '';
    if (!name || !Number.isFinite(lat) || !Number.isFinite(lon) || Math.abs(lat) > 90 || Math.abs(lon) > 180) return [];
    return [
      {
        name,
        latitude: lat,
        longitude: lon,
        property_type: typeof o.property_type === 'string' ? o.property_type : typeof o.type === 'string' ? o.type : null,
      },
    ];
  });
}

/** My Assets: cards of the assets carried by the navigation state, each addable to the selection. */
export function MyAssetsCards({ assets, onAdd }: { assets: SavedAsset[]; onAdd: (a: SavedAsset[]) => void }) {
  return (
    <Card
      className="crp-card crp-gap-bottom"
      title="My Assets"
      size="small"
      extra={
        <Button size="small" icon={<PlusOutlined />} onClick={() => onAdd(assets)}>
          Add All
        </Button>
      }
      data-testid="my-assets"
    >
      <Row gutter={[12, 12]}>
        {assets.slice(0, 24).map((a, i) => (
          <Col key={`${a.name}-${i}`} xs={24} sm={12} md={8} xl={6}>
            <Card
              size="small"
              className="crp-re-asset-card"
              actions={[
                <Button key="add" type="link" size="small" onClick={() => onAdd([a])}>
                  Add
                </Button>,
              ]}
            >
              <Typography.Text strong title={a.name}>
                {a.name.length > 20 ? `${a.name.slice(0, 20)}...` : a.name}
              </Typography.Text>
              <div className="crp-muted">
                <EnvironmentOutlined /> {a.latitude.toFixed(5)}, {a.longitude.toFixed(5)}
              </div>
              {a.property_type && <div className="crp-muted">{a.property_type}</div>}
            </Card>
          </Col>
        ))}
      </Row>
      {assets.length > 24 && (
        <Typography.Paragraph className="crp-muted crp-gap-top">and {assets.length - 24} more (Add All adds every one).</Typography.Paragraph>
      )}
    </Card>
  );
}
