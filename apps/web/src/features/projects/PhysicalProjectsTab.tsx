import { useMemo, useState } from 'react';
import { Alert, Badge, Button, Col, Empty, Row, Skeleton } from 'antd';
import { FilterOutlined, PlusOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router-dom';
import type { PhysicalProject } from '../../api/projects';
import { firstErrorMessage } from '../../api/http';
import { ButtonLink } from '../../ui/ButtonLink';
import { AdvancedFilterPanel } from './AdvancedFilterPanel';
import { DownloadCsvModal } from './DownloadCsvModal';
import { ProjectCard, type ProjectCardHandlers } from './ProjectCard';
import { RenameProjectModal } from './RenameProjectModal';
import { SlideReportModal } from './SlideReportModal';
import { ShareProjectModal } from './ShareProjectModal';
import { activeFilterCount, analyseState, applyProjectFilters, EMPTY_FILTERS, type ProjectFilters } from './projectFilters';
import { useProjectActions } from './useProjectActions';
import { useProjectList } from './useProjectList';

export function PhysicalProjectsTab() {
  const navigate = useNavigate();
  const list = useProjectList();
  const { remove, summary, gis } = useProjectActions();
  const [filters, setFilters] = useState<ProjectFilters>(EMPTY_FILTERS);
  const [showFilters, setShowFilters] = useState(false);
  const [csvFor, setCsvFor] = useState<PhysicalProject | null>(null);
  const [shareFor, setShareFor] = useState<PhysicalProject | null>(null);
  const [renameFor, setRenameFor] = useState<PhysicalProject | null>(null);
  const [reportFor, setReportFor] = useState<PhysicalProject | null>(null);

  const shown = useMemo(() => applyProjectFilters(list.data?.data ?? [], filters), [list.data, filters]);
  const projects = list.data?.data ?? [];
  const active = activeFilterCount(filters);

  const handlers: ProjectCardHandlers = {
    // Company-location portfolios open the company dashboard (per-company roll-up), the others the dashboard.
    onAnalyse: (p) => navigate(p.company_portfolio ? '/company-dashboard' : '/dashboard', { state: analyseState(p) }),
    onReport: setReportFor,
    onDownloadCsv: setCsvFor,
    onDownloadSummary: (p) => summary.mutate(p),
    onDownloadGis: (p, format) => gis.mutate({ projectId: p.project_id, format }),
    onShare: setShareFor,
    onRename: setRenameFor,
    onDelete: (p) => remove.mutateAsync(p).catch(() => undefined),
    summaryLoadingId: summary.isPending ? (summary.variables?.project_id ?? null) : null,
  };

  return (
    <div>
      <div className="crp-tab-header">
        <div>
          <div className="crp-tab-owner" data-testid="project-owner">
            {list.data?.username ?? '\u00a0'}
          </div>
          <div className="crp-muted" data-testid="project-count">
            {list.data ? `${list.data.count} ${list.data.count === 1 ? 'project' : 'projects'}` : 'Loading projects...'}
          </div>
        </div>
        <div className="crp-tab-header-actions">
          <Badge count={active} size="small">
            <Button icon={<FilterOutlined />} onClick={() => setShowFilters((s) => !s)} aria-expanded={showFilters}>
              Advanced Filter
            </Button>
          </Badge>
          <ButtonLink type="primary" icon={<PlusOutlined />} to="/location">
            Create New Project
          </ButtonLink>
        </div>
      </div>

      {showFilters && <AdvancedFilterPanel value={filters} onChange={setFilters} />}

      {list.isError && (
        <Alert
          type="error"
          showIcon
          title="Projects could not be loaded"
          description={firstErrorMessage(list.error, 'Try again in a moment.')}
          className="crp-mb"
        />
      )}

      {list.isPending ? (
        <Row gutter={[20, 20]}>
          {[0, 1].map((i) => (
            <Col xs={24} xl={12} key={i}>
              <Skeleton active paragraph={{ rows: 5 }} />
            </Col>
          ))}
        </Row>
      ) : projects.length === 0 && !list.isError ? (
        <Empty
          className="crp-empty"
          description="No projects yet. Create a portfolio of asset locations to analyse its physical climate risk."
          data-testid="projects-empty"
        >
          <ButtonLink type="primary" icon={<PlusOutlined />} to="/location">
            Create New Project
          </ButtonLink>
        </Empty>
      ) : shown.length === 0 ? (
        <Empty className="crp-empty" description="No project matches these filters.">
          <Button onClick={() => setFilters(EMPTY_FILTERS)}>Reset filters</Button>
        </Empty>
      ) : (
        <Row gutter={[20, 20]}>
          {shown.map((p) => (
            <Col xs={24} xl={12} key={p.project_id}>
              <ProjectCard project={p} handlers={handlers} />
            </Col>
          ))}
        </Row>
      )}

      <DownloadCsvModal project={csvFor} onClose={() => setCsvFor(null)} />
      <ShareProjectModal project={shareFor} members={list.data?.members ?? []} onClose={() => setShareFor(null)} />
      <RenameProjectModal project={renameFor} onClose={() => setRenameFor(null)} />
      <SlideReportModal project={reportFor} onClose={() => setReportFor(null)} />
    </div>
  );
}
