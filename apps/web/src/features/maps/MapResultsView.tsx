import { useRef, useState } from 'react';
import { Alert, Button, Card, Form, Modal, Segmented, Select, Skeleton, Space, Switch, Table, message } from 'antd';
import { CameraOutlined, DownloadOutlined, FilterOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { MAP_VARIABLE_KEYS, type MapResponse, type MapVariable } from '@crp/contracts';
import { downloadMap, generateMap } from '../../api/maps';
import { firstErrorMessage } from '../../api/http';
import { queryKeys } from '../../api/queryKeys';
import { HazardMap, type HazardMapHandle } from './HazardMap';
import type { MapView } from './mapStyles';

const two = (v: number | null | undefined) => (v === null || v === undefined ? 0 : v).toFixed(2);

/** Results table rows (spec 001 §3.12): one per dataset; values 2 decimals, 0 where empty. */
export function resultRows(r: MapResponse) {
  const hazard = MAP_VARIABLE_KEYS[r.portfolio_variables[0] as MapVariable];
  const stats = r[hazard];
  return r.duration_values.map((d) => ({
    key: d.value,
    country_code: r.country_code ?? '',
    population: two(r.population),
    dataset: d.key,
    average: two(stats.average[d.value]),
    max: two(stats.max[d.value]),
    min: two(stats.min[d.value]),
  }));
}

/** /map (spec 001 §2.7): the generated map of a map project. */
export function MapResultsView({ name }: { name: string }) {
  const q = useQuery({ queryKey: queryKeys.mapResponse(name), queryFn: () => generateMap(name), staleTime: 5 * 60_000 });
  const [view, setView] = useState<MapView>('satellite');
  const [is3D, setIs3D] = useState(false);
  const [showTable, setShowTable] = useState(true);
  const [dataset, setDataset] = useState<string | null>(null);
  const [filterOpen, setFilterOpen] = useState(false);
  const [downloading, setDownloading] = useState(false);
  const [exporting, setExporting] = useState(false);
  const mapRef = useRef<HazardMapHandle>(null);

  if (q.isPending) return <Skeleton active />;
  if (q.isError)
    return <Alert type="error" showIcon title="The map could not be generated" description={firstErrorMessage(q.error, 'Try again in a moment.')} />;
  const r = q.data;
  const variable = r.portfolio_variables[0] as MapVariable;
  const hazard = MAP_VARIABLE_KEYS[variable];
  const current = dataset ?? r.duration_data[0]!;
  const label = r.duration_values.find((d) => d.value === current)?.key ?? current;
  const unit = hazard === 'wildfire' ? '% per year' : 'm';

  const download = async () => {
    setDownloading(true);
    try {
      const { url } = await downloadMap(r.name);
      const a = document.createElement('a');
      a.href = url;
      a.rel = 'noopener';
      document.body.appendChild(a);
      a.click();
      a.remove();
    } catch (e) {
      void message.error(firstErrorMessage(e, 'The download could not be prepared.'));
    } finally {
      setDownloading(false);
    }
  };

  const exportImage = async () => {
    setExporting(true);
    try {
      await mapRef.current?.exportImage();
    } finally {
      setExporting(false);
    }
  };

  return (
    <>
      <div className="crp-maps-toolbar" style={{ justifyContent: 'space-between' }}>
        <Space wrap>
          <Button icon={<FilterOutlined />} onClick={() => setFilterOpen(true)} data-testid="filter-options">
            Filter Options
          </Button>
          <Button icon={<DownloadOutlined />} onClick={download} loading={downloading} data-testid="download-map">
            Download
          </Button>
          <Button icon={<CameraOutlined />} onClick={exportImage} loading={exporting} data-testid="export-image">
            Export Image
          </Button>
        </Space>
        <Space wrap size="large">
          <Segmented
            value={view}
            onChange={(v) => setView(v as MapView)}
            options={[
              { value: 'street', label: 'Street View' },
              { value: 'satellite', label: 'Satellite View' },
            ]}
            aria-label="Map view"
          />
          {view === 'street' && (
            <Segmented value={is3D ? '3D' : '2D'} onChange={(v) => setIs3D(v === '3D')} options={['2D', '3D']} aria-label="3D or 2D" data-testid="toggle-3d" />
          )}
          <Space>
            <Switch checked={showTable} onChange={setShowTable} aria-label="Show table" data-testid="toggle-table" />
            <span>{showTable ? 'Hide Table' : 'Show Table'}</span>
          </Space>
        </Space>
      </div>
      <HazardMap ref={mapRef} response={r} dataset={current} datasetLabel={label} view={view} is3D={is3D} />
      {showTable && (
        <Card className="crp-card" style={{ marginTop: 16 }} title={`${variable} inside ${r.distance} km x ${r.distance} km around ${r.address}`}>
          <Table
            size="small"
            pagination={false}
            dataSource={resultRows(r)}
            data-testid="map-results-table"
            columns={[
              { title: 'Country Code', dataIndex: 'country_code' },
              { title: 'Population Density (people/sqkm)', dataIndex: 'population' },
              { title: 'Dataset', dataIndex: 'dataset' },
              { title: `${variable} Average (${unit})`, dataIndex: 'average' },
              { title: `${variable} Max (${unit})`, dataIndex: 'max' },
              { title: `${variable} Min (${unit})`, dataIndex: 'min' },
            ]}
          />
          <p className="crp-muted" style={{ marginTop: 8 }}>
            Statistics over the {r.cells} hazard grid cell{r.cells === 1 ? '' : 's'} the box overlaps (area-weighted average). Resolution: {r.resolution}.
            {r.gdp !== null && ` GDP of the country: US$${(r.gdp / 1e9).toFixed(1)}B (World Bank, ${r.gdp_year}).`} Population density: GPW v4 2020, 1° cell.
          </p>
        </Card>
      )}
      <Modal open={filterOpen} title="Filter Options" onCancel={() => setFilterOpen(false)} onOk={() => setFilterOpen(false)} okText="Apply">
        <Form layout="vertical">
          <Form.Item label="Dataset">
            <Select value={current} onChange={setDataset} aria-label="Dataset" options={r.duration_values.map((d) => ({ value: d.value, label: d.key }))} />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
