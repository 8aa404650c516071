import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Form, Input, Modal, Select, Spin } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import {
  MAP_DISTANCES_KM,
  MAP_NAME_MIN_CHARS,
  PROJECT_NAME_MAX_LENGTH,
  STORAGE_KEYS,
  MAP_VARIABLES,
  MAP_VARIABLE_KEYS,
  NO_DATASETS_MESSAGE,
  WILDFIRE_DISTANCE_KM,
  type MapVariable,
} from '@crp/contracts';
import { createMap, fetchDatasets } from '../../api/maps';
import { firstErrorMessage } from '../../api/http';
import { queryKeys } from '../../api/queryKeys';
import type { PickedLocation } from './PickLocationMap';

/** The 'Create Map' dialog (spec 001 §2.6, §4 "Create-map flow", §5 "Create-map Submit is enabled only when ..."). */
export function CreateMapDialog({
  open,
  location,
  distance,
  onDistance,
  onClose,
}: {
  open: boolean;
  location: PickedLocation;
  distance: number;
  onDistance: (d: number) => void;
  onClose: () => void;
}) {
  const navigate = useNavigate();
  const datasets = useQuery({
    queryKey: queryKeys.mapDatasets(location.latitude, location.longitude),
    queryFn: ({ signal }) => fetchDatasets(location.latitude, location.longitude, signal),
    enabled: open,
  });
  const [name, setName] = useState('');
  const [variable, setVariable] = useState<MapVariable | null>(null);
  const [chosen, setChosen] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  // preselect the first hazard with datasets, in the order rainfall flood, storm surge, wildfire
  useEffect(() => {
    if (!datasets.data || variable) return;
    const first = MAP_VARIABLES.find((v) => datasets.data[MAP_VARIABLE_KEYS[v]].length > 0) ?? MAP_VARIABLES[0];
    setVariable(first);
    if (first === 'Wildfire') onDistance(WILDFIRE_DISTANCE_KM);
  }, [datasets.data, variable, onDistance]);

  const options = useMemo(() => (variable && datasets.data ? datasets.data[MAP_VARIABLE_KEYS[variable]] : []), [variable, datasets.data]);
  const noDatasets = !!datasets.data && !!variable && options.length === 0;
  const canSubmit = !!variable && chosen.length > 0 && name.trim().length >= MAP_NAME_MIN_CHARS && !noDatasets && !busy;

  const changeVariable = (v: MapVariable) => {
    setVariable(v);
    setChosen([]); // spec 001 §4: changing the hazard resets the chosen datasets
    if (v === 'Wildfire') onDistance(WILDFIRE_DISTANCE_KM);
  };

  const submit = async () => {
    if (!canSubmit || !variable) return;
    setBusy(true);
    setError(null);
    try {
      const r = await createMap({
        name,
        address: location.address,
        latitude: location.latitude,
        longitude: location.longitude,
        variable,
        distance,
        duration_data: chosen,
      });
      try {
        // spec 001 §3.13 local storage keys
        window.localStorage.setItem(STORAGE_KEYS.variables, JSON.stringify([variable]));
        window.localStorage.setItem(STORAGE_KEYS.distance, String(distance));
      } catch {
        /* storage unavailable */
      }
      navigate(`/map/${r.project_id}`);
    } catch (e) {
      setError(firstErrorMessage(e, 'The map could not be created. Try again.'));
      setBusy(false);
    }
  };

  return (
    <Modal
      open={open}
      title="Create Map"
      onCancel={busy ? undefined : onClose}
      footer={null}
      destroyOnHidden
      maskClosable={!busy}
      data-testid="create-map-dialog"
    >
      {datasets.isPending ? (
        <Spin />
      ) : datasets.isError ? (
        <Alert type="error" showIcon title={firstErrorMessage(datasets.error, 'The datasets could not be loaded.')} />
      ) : (
        <Form layout="vertical" onFinish={submit}>
          <Form.Item
            label="Portfolio Name"
            required
            help={name.length > 0 && name.trim().length < MAP_NAME_MIN_CHARS ? `At least ${MAP_NAME_MIN_CHARS} characters` : undefined}
          >
            <Input
              value={name}
              onChange={(e) => setName(e.target.value)}
              maxLength={PROJECT_NAME_MAX_LENGTH}
              placeholder="e.g. Kowloon rainfall flood"
              aria-label="Portfolio Name"
              autoFocus
            />
          </Form.Item>
          <Form.Item label="Select Variable" required>
            <Select
              value={variable ?? undefined}
              onChange={changeVariable}
              aria-label="Select Variable"
              data-testid="map-variable"
              options={MAP_VARIABLES.map((v) => ({ value: v, label: v }))}
            />
          </Form.Item>
          <Form.Item label="Available Datasets" required>
            {noDatasets ? (
              <div className="crp-maps-no-datasets" data-testid="no-datasets">
                {NO_DATASETS_MESSAGE}
              </div>
            ) : (
              <Select
                mode="multiple"
                value={chosen}
                onChange={setChosen}
                aria-label="Available Datasets"
                data-testid="map-datasets"
                placeholder="Choose one or more datasets"
                options={options.map((o) => ({ value: o.value, label: o.key }))}
              />
            )}
          </Form.Item>
          <Form.Item label="Distance (km)" required>
            <Select
              value={distance}
              onChange={onDistance}
              aria-label="Distance (km)"
              options={(variable === 'Wildfire' ? [WILDFIRE_DISTANCE_KM] : MAP_DISTANCES_KM).map((d) => ({ value: d, label: `${d}` }))}
            />
          </Form.Item>
          {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} />}
          <Button type="primary" htmlType="submit" disabled={!canSubmit} loading={busy} block data-testid="create-map-submit">
            {busy ? 'Generating Map...' : 'Submit'}
          </Button>
        </Form>
      )}
    </Modal>
  );
}
