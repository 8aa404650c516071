import { App, Button, Empty, Input, List, Tooltip } from 'antd';
import { CopyOutlined, DeleteOutlined, LoadingOutlined } from '@ant-design/icons';
import { copyText } from '../../lib/clipboard';
import { formatCoord, truncateName } from '../../lib/format';
import { duplicateNames, type MapMarker } from './useMapMarkers';

export const COPIED_TEXT = 'Latitude and Longitude copied to clipboard!';

export function MarkerList({
  markers,
  onRemove,
  onRename,
}: {
  markers: MapMarker[];
  onRemove: (id: string) => void;
  onRename: (id: string, name: string) => void;
}) {
  const { message } = App.useApp();
  const duplicates = duplicateNames(markers);
  if (markers.length === 0) {
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="Click the map to add asset locations." />;
  }
  return (
    <List
      className="crp-marker-list"
      data-testid="marker-list"
      dataSource={markers}
      renderItem={(m, i) => (
        <List.Item
          data-testid="marker-item"
          actions={[
            <Tooltip title="Copy coordinates" key="copy">
              <Button
                size="small"
                type="text"
                icon={<CopyOutlined />}
                aria-label={`Copy coordinates of location ${i + 1}`}
                onClick={() => void copyText(`${m.latitude}, ${m.longitude}`).then(() => message.success(COPIED_TEXT))}
              />
            </Tooltip>,
            <Tooltip title="Remove" key="remove">
              <Button size="small" type="text" danger icon={<DeleteOutlined />} aria-label={`Remove location ${i + 1}`} onClick={() => onRemove(m.id)} />
            </Tooltip>,
          ]}
        >
          <div className="crp-marker-row">
            <span className="crp-marker-index">{i + 1}</span>
            <div className="crp-marker-text">
              {m.status === 'loading' ? (
                <span className="crp-muted" data-testid="marker-name">
                  <LoadingOutlined /> Loading...
                </span>
              ) : m.status === 'failed' || m.typed || !m.name ? (
                <>
                  <Input
                    size="small"
                    placeholder="Type a name"
                    value={m.name}
                    onChange={(e) => onRename(m.id, e.target.value)}
                    aria-label={`Name of location ${i + 1}`}
                    status={!m.name.trim() ? 'warning' : duplicates.has(m.name.trim().toLowerCase()) ? 'error' : undefined}
                  />
                  {duplicates.has(m.name.trim().toLowerCase()) && (
                    <div className="crp-small crp-error-text" role="alert">
                      Another location has this name: names must differ within a portfolio.
                    </div>
                  )}
                </>
              ) : (
                <Tooltip title={m.name}>
                  <span className="crp-strong" data-testid="marker-name">
                    {truncateName(m.name)}
                  </span>
                </Tooltip>
              )}
              <div className="crp-muted crp-small">
                {formatCoord(m.latitude)}, {formatCoord(m.longitude)}
              </div>
            </div>
          </div>
        </List.Item>
      )}
    />
  );
}
