import { useEffect, useMemo, useState } from 'react';
import { Input, Pagination, Select, Space, Switch } from 'antd';
import { SearchOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { DashboardHeatmapPage } from '@crp/contracts';
import { fetchHeatmapPage, type DashboardFiltersSent, type HeatmapData } from '../../api/dashboard';
import { Chart } from '../../ui/charts/Chart';
import { heatmapOption, VISIBLE_ROWS } from '../../ui/charts/heatmapOption';
import { INFO } from './infoTexts';
import { Section } from './Section';

/**
 * Portfolio heat map of hazards by asset (spec 001 §2.1): 900 px tall (120 px for a single asset), scale 0-100; past
 * ten rows it scrolls (wheel or the slider at the right) so any number of assets stays responsive.
 */
export function HeatMap({
  data,
  without,
  adaptation,
  onAdaptation,
}: {
  data: HeatmapData | null;
  without: HeatmapData | null;
  adaptation: boolean;
  onAdaptation: (v: boolean) => void;
}) {
  const h = adaptation ? data : without;
  const single = (h?.assets.length ?? 0) === 1;
  const height = single ? 120 : 900;
  return (
    <Section
      testId="section-heatmap"
      title="Hazard heat map"
      info={INFO.heatmap}
      locked={!h}
      empty={!!h && h.assets.length === 0}
      extra={
        <label className="crp-dash-switch">
          Adaptation{' '}
          <Switch
            size="small"
            checked={adaptation}
            onChange={onAdaptation}
            checkedChildren="On"
            unCheckedChildren="Off"
            aria-label="Adaptation in the heat map"
          />
        </label>
      }
    >
      {h && (
        <div data-rows={h.assets.length} data-scroll={h.assets.length > VISIBLE_ROWS ? 'true' : 'false'} data-testid="heatmap" style={{ height }}>
          <Chart option={heatmapOption(h, height)} height={height} label={`Hazard scores of ${h.assets.length} assets for ${h.hazards.length} hazards`} />
        </div>
      )}
    </Section>
  );
}

/** A heat-map page of the server as the chart reads it (asset-major `[hazard, row, score]` triples). */
function pageView(p: DashboardHeatmapPage): HeatmapData {
  const data: [number, number, number | null][] = [];
  for (let n = 0; n < p.names.length; n++) for (let k = 0; k < p.hazards.length; k++) data.push([k, n, p.scores[k]![n]!]);
  return { assets: p.names, hazards: p.hazards, data };
}

/**
 * The heat map of the dashboard page, read page by page of the server (api/v2/dashboard/heatmap/: 100 assets a page,
 * sortable by name, climate score or one hazard's score, searchable), so any number of assets stays responsive.
 */
export function ServerHeatMap({
  sent,
  allowed,
  adaptation,
  onAdaptation,
}: {
  sent: DashboardFiltersSent;
  allowed: boolean;
  adaptation: boolean;
  onAdaptation: (v: boolean) => void;
}) {
  const [sort, setSort] = useState<{ key: string; order: 'asc' | 'desc' }>({ key: 'position', order: 'asc' });
  const [page, setPage] = useState({ current: 1, pageSize: 100 });
  const [search, setSearch] = useState('');
  const [searched, setSearched] = useState('');
  useEffect(() => {
    const t = setTimeout(() => setSearched(search), 250);
    return () => clearTimeout(t);
  }, [search]);
  const offset = (page.current - 1) * page.pageSize;
  const q = useQuery({
    queryKey: ['dashboard', 'heatmap', sent, adaptation, sort, searched, offset, page.pageSize],
    queryFn: ({ signal }) => fetchHeatmapPage(sent, { adaptation, sort: sort.key, order: sort.order, search: searched, offset, limit: page.pageSize }, signal),
    enabled: allowed,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
    retry: false,
  });
  const h = useMemo(() => (q.data ? pageView(q.data) : null), [q.data]);
  const total = q.data?.total ?? 0;
  const single = total === 1;
  const height = single ? 120 : 900;
  const sortOptions = [
    { value: 'position|asc', label: 'Upload order' },
    { value: 'name|asc', label: 'Name' },
    { value: 'climate_score|desc', label: 'Climate score, highest first' },
    ...(q.data?.hazards ?? []).map((hz) => ({ value: `${hz}|desc`, label: `${hz}, highest first` })),
  ];
  return (
    <Section
      testId="section-heatmap"
      title="Hazard heat map"
      info={INFO.heatmap}
      locked={!allowed}
      empty={!!q.data && total === 0 && !searched}
      extra={
        <Space wrap>
          <Input
            size="small"
            allowClear
            prefix={<SearchOutlined />}
            placeholder="Search assets"
            aria-label="Search the heat map"
            value={search}
            onChange={(e) => {
              setSearch(e.target.value);
              setPage((p) => ({ ...p, current: 1 }));
            }}
            style={{ width: 160 }}
          />
          <Select
            size="small"
            aria-label="Heat map order"
            data-testid="heatmap-sort"
            style={{ width: 220 }}
            value={`${sort.key}|${sort.order}`}
            onChange={(v: string) => {
              const [key, order] = v.split('|') as [string, 'asc' | 'desc'];
              setSort({ key, order });
              setPage((p) => ({ ...p, current: 1 }));
            }}
            options={sortOptions}
          />
          <label className="crp-dash-switch">
            Adaptation{' '}
            <Switch
              size="small"
              checked={adaptation}
              onChange={onAdaptation}
              checkedChildren="On"
              unCheckedChildren="Off"
              aria-label="Adaptation in the heat map"
            />
          </label>
        </Space>
      }
    >
      {h && (
        <>
          <div
            data-rows={h.assets.length}
            data-total={total}
            data-scroll={h.assets.length > VISIBLE_ROWS ? 'true' : 'false'}
            data-testid="heatmap"
            style={{ height }}
          >
            <Chart
              option={heatmapOption(h, height)}
              height={height}
              label={`Hazard scores of ${h.assets.length} of ${total} assets for ${h.hazards.length} hazards`}
            />
          </div>
          {total > page.pageSize && (
            <Pagination
              size="small"
              className="crp-mt-md"
              data-testid="heatmap-pages"
              current={page.current}
              pageSize={page.pageSize}
              total={total}
              showSizeChanger
              pageSizeOptions={[50, 100, 200, 500]}
              showTotal={(t, [a, b]) => `${a}-${b} of ${t} assets`}
              onChange={(current, pageSize) => setPage({ current, pageSize })}
            />
          )}
        </>
      )}
    </Section>
  );
}
