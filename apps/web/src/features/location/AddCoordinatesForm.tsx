import { useState } from 'react';
import { Button, InputNumber, Space } from 'antd';
import { PlusOutlined } from '@ant-design/icons';

/** Adds a location by typing its coordinates: the keyboard alternative to clicking the map. */
export function AddCoordinatesForm({ onAdd }: { onAdd: (lat: number, lon: number) => void }) {
  const [lat, setLat] = useState<number | null>(null);
  const [lon, setLon] = useState<number | null>(null);
  const valid = lat !== null && lon !== null && lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180;
  const add = () => {
    if (!valid) return;
    onAdd(lat, lon);
    setLat(null);
    setLon(null);
  };
  return (
    <form
      className="crp-add-coords"
      aria-label="Add a location by coordinates"
      onSubmit={(e) => {
        e.preventDefault();
        add();
      }}
    >
      <div className="crp-field-label">Or type coordinates</div>
      <Space.Compact className="crp-full-width">
        <InputNumber<number>
          aria-label="Latitude"
          placeholder="Latitude"
          min={-90}
          max={90}
          step={0.001}
          value={lat}
          onChange={setLat}
          className="crp-coord-input"
        />
        <InputNumber<number>
          aria-label="Longitude"
          placeholder="Longitude"
          min={-180}
          max={180}
          step={0.001}
          value={lon}
          onChange={setLon}
          className="crp-coord-input"
        />
        <Button htmlType="submit" icon={<PlusOutlined />} disabled={!valid}>
          Add
        </Button>
      </Space.Compact>
    </form>
  );
}
