import { useCallback, useEffect, useRef, useState } from 'react';
import { AutoComplete, Button, Card, Input, Segmented, Select, Space, Table, Tooltip } from 'antd';
import { DeleteOutlined, SearchOutlined } from '@ant-design/icons';
import { ADDRESS_SEARCH_MAX_RESULTS, ADDRESS_SEARCH_MIN_CHARS, ADDRESS_SEARCH_PLACEHOLDER, MAP_DISTANCES_KM, STORAGE_KEYS } from '@crp/contracts';
import { reverseGeocode } from '../../api/locations';
import { detectCountry, searchPlaces, type PlaceHit } from '../../api/maps';
import { CreateMapDialog } from './CreateMapDialog';
import { searchAddress } from './addressSearch';
import { PickLocationMap, type PickedLocation } from './PickLocationMap';
import type { MapView } from './mapStyles';

function storedDistance(): number {
  try {
    const d = Number(window.localStorage.getItem(STORAGE_KEYS.distance));
    return (MAP_DISTANCES_KM as readonly number[]).includes(d) ? d : 1;
  } catch {
    return 1;
  }
}

/** /create-map (spec 001 §2.6): mark one location by click or address search, then PROCEED to the Create Map dialog. */
export function CreateMapView() {
  const [location, setLocation] = useState<PickedLocation | null>(null);
  const [view, setView] = useState<MapView>('street');
  const [distance, setDistance] = useState<number>(storedDistance);
  const [dialog, setDialog] = useState(false);
  const [query, setQuery] = useState('');
  const [hits, setHits] = useState<PlaceHit[]>([]);
  const [searchNote, setSearchNote] = useState<string | null>(null);
  const reverseCtrl = useRef<AbortController | null>(null);

  // address search: 2+ characters, up to 5 results, debounced
  useEffect(() => {
    const q = query.trim();
    if (q.length < ADDRESS_SEARCH_MIN_CHARS) {
      setHits([]);
      setSearchNote(null);
      return;
    }
    const ctrl = new AbortController();
    const t = window.setTimeout(() => {
      searchAddress(q, (text) => searchPlaces(text, ctrl.signal))
        .then((r) => {
          setHits(r.hits.slice(0, ADDRESS_SEARCH_MAX_RESULTS));
          setSearchNote(r.note);
        })
        .catch(() => {
          if (ctrl.signal.aborted) return;
          setHits([]);
          setSearchNote('The search failed. Try again in a moment.');
        });
    }, 250);
    return () => {
      window.clearTimeout(t);
      ctrl.abort();
    };
  }, [query]);

  const pick = useCallback((lat: number, lng: number) => {
    reverseCtrl.current?.abort();
    const ctrl = new AbortController();
    reverseCtrl.current = ctrl;
    setLocation({ latitude: lat, longitude: lng, address: 'Loading...' });
    reverseGeocode(lat, lng, ctrl.signal)
      .then((r) =>
        setLocation((cur) =>
          cur && cur.latitude === lat && cur.longitude === lng ? { ...cur, address: r.district ? `${r.district}, ${r.label}` : r.label || r.name } : cur,
        ),
      )
      .catch((e: unknown) => {
        if ((e as Error)?.name === 'AbortError') return;
        setLocation((cur) => (cur && cur.latitude === lat && cur.longitude === lng ? { ...cur, address: 'Unknown Location' } : cur));
      });
  }, []);

  const choose = (label: string) => {
    const h = hits.find((x) => x.label === label);
    if (!h) return;
    setSearchNote(null);
    reverseCtrl.current?.abort();
    setLocation({ latitude: h.lat, longitude: h.lng, address: h.label });
    setQuery(h.label);
  };

  /** Enter: the first suggestion, or, when there is none and the text names a country, that country (spec 001 §5). */
  const enter = () => {
    const q = query.trim();
    if (q.length < ADDRESS_SEARCH_MIN_CHARS) return;
    if (hits.length > 0) {
      choose(hits[0]!.label);
      return;
    }
    detectCountry(q)
      .then((c) => {
        if (!c) return;
        reverseCtrl.current?.abort();
        setLocation({ latitude: c.latitude, longitude: c.longitude, address: c.name });
      })
      .catch(() => undefined);
  };

  return (
    <>
      <Card className="crp-card">
        <div className="crp-maps-toolbar">
          <AutoComplete
            className="crp-maps-search"
            value={query}
            onChange={setQuery}
            onSelect={choose}
            options={hits.map((h) => ({
              value: h.label,
              label: (
                <span data-testid="address-option">
                  {h.label} <span className="crp-muted">({h.type})</span>
                </span>
              ),
            }))}
          >
            <Input prefix={<SearchOutlined />} placeholder={ADDRESS_SEARCH_PLACEHOLDER} aria-label="Search address" allowClear onPressEnter={enter} />
          </AutoComplete>
          <Space>
            <span>View</span>
            <Segmented
              value={view}
              onChange={(v) => setView(v as MapView)}
              options={[
                { value: 'satellite', label: 'Satellite' },
                { value: 'street', label: 'Street' },
              ]}
              aria-label="View"
            />
          </Space>
          <Space>
            <span>Distance</span>
            <Select
              value={distance}
              onChange={setDistance}
              aria-label="Distance"
              style={{ width: 110 }}
              options={MAP_DISTANCES_KM.map((d) => ({ value: d, label: `${d} km` }))}
            />
          </Space>
        </div>
        {searchNote && (
          <div className="crp-maps-search-note" role="status" data-testid="address-search-note">
            {searchNote}
          </div>
        )}
        <div className="crp-maps-frame">
          <PickLocationMap location={location} distance={distance} view={view} onPick={pick} />
        </div>
      </Card>
      {location && (
        <Card className="crp-card" style={{ marginTop: 16 }}>
          <Table
            size="small"
            pagination={false}
            rowKey={() => 'location'}
            dataSource={[location]}
            data-testid="create-map-table"
            columns={[
              { title: 'Address', dataIndex: 'address' },
              { title: 'Latitude', dataIndex: 'latitude', render: (v: number) => v.toFixed(5) },
              { title: 'Longitude', dataIndex: 'longitude', render: (v: number) => v.toFixed(5) },
              {
                title: 'Delete',
                key: 'delete',
                width: 80,
                render: () => (
                  <Tooltip title="Remove the location">
                    <Button type="text" danger icon={<DeleteOutlined />} aria-label="Delete location" onClick={() => setLocation(null)} />
                  </Tooltip>
                ),
              },
            ]}
          />
        </Card>
      )}
      <div style={{ marginTop: 16, display: 'flex', justifyContent: 'flex-end' }}>
        <Button type="primary" size="large" disabled={!location || location.address === 'Loading...'} onClick={() => setDialog(true)} data-testid="proceed">
          PROCEED
        </Button>
      </div>
      {location && dialog && (
        <CreateMapDialog open={dialog} location={location} distance={distance} onDistance={setDistance} onClose={() => setDialog(false)} />
      )}
    </>
  );
}
