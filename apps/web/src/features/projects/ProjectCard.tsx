import { Button, Card, Dropdown, Popconfirm, Progress, Space, Tag, Tooltip, Typography } from 'antd';
import {
  BarChartOutlined,
  DeleteOutlined,
  EditOutlined,
  FileExcelOutlined,
  FilePptOutlined,
  FileTextOutlined,
  GlobalOutlined,
  LockOutlined,
  ShareAltOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { UPGRADE_TEXT } from '../../ui/UpgradePanel';
import { useTierData } from '../../lib/useTierData';
import { CLIMATE_SCORE_COLOURS, climateScoreLevel, formatMillions, PLAN_INCLUDES, SCENARIO_LABELS, type AnalysisType, type ScenarioCode } from '@crp/contracts';
import { fetchProjectStatus, type PhysicalProject } from '../../api/projects';
import { cardAbilities } from './projectFilters';

export interface ProjectCardHandlers {
  onAnalyse: (p: PhysicalProject) => void;
  onReport: (p: PhysicalProject) => void;
  onDownloadCsv: (p: PhysicalProject) => void;
  onDownloadSummary: (p: PhysicalProject) => void;
  /** The assets with their results for GIS (GeoJSON or GeoPackage); absent: no GIS menu. */
  onDownloadGis?: (p: PhysicalProject, format: 'geojson' | 'gpkg') => void;
  onShare: (p: PhysicalProject) => void;
  onRename: (p: PhysicalProject) => void;
  onDelete: (p: PhysicalProject) => Promise<unknown>;
  summaryLoadingId: number | null;
}

const LEVEL_LABEL = { low: 'Low risk', medium: 'Medium risk', high: 'High risk' } as const;

function ScoreBlock({ project }: { project: PhysicalProject }) {
  const failed = project.status === 'failed';
  const status = useQuery({
    queryKey: ['projects', 'status', project.project_id],
    queryFn: () => fetchProjectStatus(project.project_id),
    enabled: failed,
    staleTime: 60_000,
  });
  if (project.overall !== null) {
    const level = climateScoreLevel(project.overall);
    return (
      <div className="crp-score" data-testid="project-score" data-level={level}>
        <span className="crp-score-value" style={{ color: CLIMATE_SCORE_COLOURS[level] }}>
          {project.overall.toFixed(1)}
          <span className="crp-score-of"> / 100</span>
        </span>
        <span className="crp-score-label" style={{ color: CLIMATE_SCORE_COLOURS[level] }}>
          {LEVEL_LABEL[level]}
        </span>
      </div>
    );
  }
  if (failed) {
    return (
      <div className="crp-score" data-testid="project-score" data-level="failed">
        <Typography.Text type="danger" strong>
          Analysis failed
        </Typography.Text>
        {status.data?.message && <div className="crp-small crp-danger">{status.data.message}</div>}
      </div>
    );
  }
  if (project.status === 'done') {
    return (
      <div className="crp-score" data-testid="project-score" data-level="none">
        <span className="crp-muted">No score</span>
      </div>
    );
  }
  return (
    <div className="crp-score" data-testid="project-score" data-level="pending">
      <span className="crp-muted">Analysing...</span>
      <Progress percent={Math.round(project.progress * 100)} size="small" status="active" aria-label="Analysis progress" />
    </div>
  );
}

function Metric({ label, value, locked = false }: { label: string; value: string; locked?: boolean }) {
  return (
    <div className="crp-metric">
      <div className="crp-metric-label">{label}</div>
      {locked ? (
        <Tooltip title={`${UPGRADE_TEXT}: ${PLAN_INCLUDES.professional}`}>
          <div className="crp-metric-value crp-metric-locked" data-testid="metric-locked">
            <LockOutlined aria-hidden /> Locked
          </div>
        </Tooltip>
      ) : (
        <div className="crp-metric-value">{value}</div>
      )}
    </div>
  );
}

export function ProjectCard({ project: p, handlers: h }: { project: PhysicalProject; handlers: ProjectCardHandlers }) {
  const can = cardAbilities(p.permission);
  const analysed = p.status === 'done';
  // money figures are not part of the Free plan: the server sends null, the card says why (issue 37 item 1)
  const moneyLocked = useTierData()?.tier_permissions.portfolio_losses !== true;
  return (
    <Card className="crp-card crp-project-card" data-testid="project-card" data-project={p.name}>
      <div className="crp-project-head">
        <div className="crp-project-title">
          <Typography.Title level={4} className="crp-project-name" ellipsis={{ tooltip: p.name }}>
            {p.name}
          </Typography.Title>
          <div className="crp-muted crp-small">
            {p.date}
            {' · '}
            {p.permission === 'owner' ? (
              <span>
                <UserOutlined /> {p.owner.username}
              </span>
            ) : (
              <span data-testid="shared-note">
                {p.owner.username} shared with you ({p.permission})
              </span>
            )}
            {p.permission === 'owner' && p.shared_with.length > 0 && (
              <Tooltip title={p.shared_with.map((s) => `${s.username} (${s.permission})`).join(', ')}>
                <Tag className="crp-share-tag" icon={<ShareAltOutlined />}>
                  shared with {p.shared_with.length}
                </Tag>
              </Tooltip>
            )}
          </div>
        </div>
        <ScoreBlock project={p} />
      </div>
      {p.overall !== null && (
        <div className="crp-muted crp-small" data-testid="card-scenario">
          Score and losses at {SCENARIO_LABELS[p.default_filters.analysis_type as AnalysisType][p.default_filters.scenario as ScenarioCode]},{' '}
          {p.default_filters.year}
        </div>
      )}
      <div className="crp-metrics">
        <Metric label="Maximum exposure" value={p.value === null ? '—' : formatMillions(p.value)} locked={moneyLocked && p.value === null} />
        <Metric label="Assets" value={String(p.assets)} />
        <Metric label="Residual 20-year expected loss" value={p.loss === null ? '—' : formatMillions(p.loss)} locked={moneyLocked && p.loss === null} />
      </div>
      <div className="crp-hazard-tags" aria-label="Hazards">
        {p.variables.map((v) => (
          <Tag key={v}>{v}</Tag>
        ))}
      </div>
      <div className="crp-project-actions">
        <Button type="primary" icon={<BarChartOutlined />} onClick={() => h.onAnalyse(p)} disabled={!analysed}>
          Analyse
        </Button>
        <Button icon={<FilePptOutlined />} onClick={() => h.onReport(p)} disabled={!analysed}>
          Report
        </Button>
        <Button icon={<FileExcelOutlined />} onClick={() => h.onDownloadCsv(p)} disabled={!analysed}>
          Download XLSX
        </Button>
        <Button icon={<FileTextOutlined />} onClick={() => h.onDownloadSummary(p)} disabled={!analysed} loading={h.summaryLoadingId === p.project_id}>
          Download Summary
        </Button>
        {h.onDownloadGis && (
          <Dropdown
            disabled={!analysed}
            menu={{
              items: [
                { key: 'geojson', label: 'GeoJSON (.geojson)' },
                { key: 'gpkg', label: 'GeoPackage (.gpkg)' },
              ],
              onClick: ({ key }) => h.onDownloadGis?.(p, key as 'geojson' | 'gpkg'),
            }}
          >
            {/* above the button: the menu opens below it, and a tooltip there took the click meant for a menu item */}
            <Tooltip title="Download for GIS (QGIS, ArcGIS)" placement="top">
              <Button icon={<GlobalOutlined />} aria-label="Download for GIS" disabled={!analysed} />
            </Tooltip>
          </Dropdown>
        )}
        <Space size={4} className="crp-project-actions-right">
          {can.share && (
            <Tooltip title="Share" placement="bottom">
              <Button icon={<ShareAltOutlined />} aria-label="Share" onClick={() => h.onShare(p)} />
            </Tooltip>
          )}
          {can.rename && (
            <Tooltip title="Edit (rename)" placement="bottom">
              <Button icon={<EditOutlined />} aria-label="Edit" onClick={() => h.onRename(p)} />
            </Tooltip>
          )}
          {can.delete && (
            <Popconfirm
              title={`Delete ${p.name}?`}
              description="Its assets, results and shares are removed."
              okText="Yes"
              cancelText="No"
              okButtonProps={{ danger: true }}
              onConfirm={() => h.onDelete(p)}
            >
              <Tooltip title="Delete" placement="bottom">
                <Button danger icon={<DeleteOutlined />} aria-label="Delete" />
              </Tooltip>
            </Popconfirm>
          )}
        </Space>
      </div>
    </Card>
  );
}
