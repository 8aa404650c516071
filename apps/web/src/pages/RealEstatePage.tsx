import { useCallback, useEffect, useMemo, useState } from 'react';
import { App, Button, Card, Col, Modal, Row, Space, Tabs, Typography } from 'antd';
import { FolderAddOutlined, QuestionCircleOutlined, RadarChartOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router-dom';
import { assetLimitMessage, isAssetLimitMessage, type PropertyRiskResponse } from '@crp/contracts';
import { fetchPermissions } from '../api/accounts';
import { firstErrorMessage } from '../api/http';
import { createPortfolio } from '../api/locations';
import { queryKeys } from '../api/queryKeys';
import { readUserId } from '../lib/storage';
import { useDocumentTitle } from '../lib/useDocumentTitle';
import { PageHeader } from '../ui/PageHeader';
import { CreatePortfolioModal } from '../features/realestate/CreatePortfolioModal';
import { CreateProjectModal } from '../features/realestate/CreateProjectModal';
import { CsvAssetPicker } from '../features/realestate/CsvAssetPicker';
import { HowToGuideModal } from '../features/realestate/HowToGuideModal';
import { MyAssetsCards, savedAssetsOf, type SavedAsset } from '../features/realestate/MyAssetsCards';
import { PropertyPickMap } from '../features/realestate/PropertyPickMap';
import { PropertyProjectsCard } from '../features/realestate/PropertyProjectsCard';
import { SelectedAssetTable } from '../features/realestate/SelectedAssetTable';
import { useCreatePropertyProject } from '../features/realestate/useCreatePropertyProject';
import { toLocations, useSelectedProperties } from '../features/realestate/useSelectedProperties';
import '../features/realestate/realestate.css';

/** Real Estate (/realestate, spec 001 §2.5): choose properties on the map or from a CSV, then create a property-risk project. */
export function RealEstatePage() {
  useDocumentTitle('Real Estate');
  const { message } = App.useApp();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const userId = readUserId();
  const perms = useQuery({
    queryKey: queryKeys.permissions(userId ?? 0),
    queryFn: () => fetchPermissions(userId!),
    enabled: userId !== null,
    staleTime: 60_000,
  });
  const limit = perms.data?.assets_allowed ?? null;
  const [restriction, setRestriction] = useState<string | null>(null);
  const onLimit = useCallback((n: number) => setRestriction(assetLimitMessage(n)), []);
  const sel = useSelectedProperties(limit, onLimit);
  const saved = useMemo(() => savedAssetsOf(location.state), [location.state]);
  const [tab, setTab] = useState('asset');
  const [howTo, setHowTo] = useState(false);
  const [projectOpen, setProjectOpen] = useState(false);
  const [portfolioOpen, setPortfolioOpen] = useState(false);
  const [portfolioBusy, setPortfolioBusy] = useState(false);
  const [portfolioError, setPortfolioError] = useState<string | null>(null);

  const create = useCreatePropertyProject(
    useCallback((res: PropertyRiskResponse) => navigate('/realestate-dashboard', { state: { project_name: res.project_name, data: res } }), [navigate]),
  );

  const addSaved = (assets: SavedAsset[]) => {
    const n = sel.addMany(
      assets.map((a) => ({
        name: a.name,
        latitude: a.latitude,
        longitude: a.longitude,
        property_type: a.property_type ?? 'Residential',
        extra: {},
        source: 'saved' as const,
      })),
    );
    if (n > 0) void message.success(`${n} asset${n === 1 ? '' : 's'} added`);
  };

  const openCreate = (which: 'project' | 'portfolio') => {
    if (limit !== null && sel.items.length > limit) return setRestriction(assetLimitMessage(limit));
    if (which === 'project') {
      create.clearProblem();
      setProjectOpen(true);
    } else {
      setPortfolioError(null);
      setPortfolioOpen(true);
    }
  };

  const submitPortfolio = async (name: string) => {
    setPortfolioBusy(true);
    setPortfolioError(null);
    try {
      await createPortfolio({ portfolio_name: name, data: toLocations(sel.items) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.projects });
      setPortfolioOpen(false);
      void message.success(`Portfolio '${name}' created; its analysis is running.`);
      navigate('/project');
    } catch (err) {
      const m = firstErrorMessage(err, 'The portfolio could not be created.');
      if (isAssetLimitMessage(m)) {
        setPortfolioOpen(false);
        setRestriction(m);
      } else setPortfolioError(m);
    } finally {
      setPortfolioBusy(false);
    }
  };

  const problem = create.problem;
  const { clearProblem } = create;
  useEffect(() => {
    // The server's asset-limit answer shows as the restriction error dialog (titled Error), not inside the form.
    if (problem?.kind !== 'limit') return;
    setProjectOpen(false);
    setRestriction(problem.message);
    clearProblem();
  }, [problem, clearProblem]);

  const actions = (
    <Space wrap>
      <Button type="primary" icon={<RadarChartOutlined />} disabled={!sel.ready} onClick={() => openCreate('project')} data-testid="open-create-project">
        Create Project
      </Button>
      <Button icon={<FolderAddOutlined />} disabled={!sel.ready} onClick={() => openCreate('portfolio')} data-testid="open-create-portfolio">
        Create Portfolio
      </Button>
    </Space>
  );

  return (
    <div className="crp-page crp-page-wide">
      <PageHeader
        title="Real Estate"
        subtitle="Choose properties on the map or from a CSV file, then create a property-risk project with flood and typhoon scores for each property and its surroundings."
        extra={
          <Button icon={<QuestionCircleOutlined />} onClick={() => setHowTo(true)}>
            How to
          </Button>
        }
      />
      {saved.length > 0 && <MyAssetsCards assets={saved} onAdd={addSaved} />}
      <Card className="crp-card">
        <Tabs
          activeKey={tab}
          onChange={setTab}
          tabBarExtraContent={actions}
          items={[
            {
              key: 'asset',
              label: 'Asset',
              children: (
                <Row gutter={16}>
                  <Col xs={24} xxl={12}>
                    <PropertyPickMap items={sel.items} onPick={sel.addPoint} />
                    <Typography.Paragraph className="crp-muted crp-gap-top">
                      Click the map to add a property; the map zooms to street level (zoom 16) at each point.
                    </Typography.Paragraph>
                  </Col>
                  <Col xs={24} xxl={12}>
                    <Typography.Title level={5}>Selected Asset ({sel.items.length})</Typography.Title>
                    <SelectedAssetTable items={sel.items} onUpdate={sel.update} onRemove={sel.remove} />
                  </Col>
                </Row>
              ),
            },
            {
              key: 'csv',
              label: 'Multiple Asset CSV',
              children: <CsvAssetPicker selected={sel.items} onAdd={sel.addMany} onRemove={sel.remove} onClearAll={sel.clear} />,
            },
          ]}
        />
      </Card>
      <PropertyProjectsCard />
      <CreateProjectModal
        open={projectOpen}
        count={sel.items.length}
        submitting={create.submitting}
        progress={create.progress}
        error={problem?.kind === 'error' ? problem.lines : null}
        onCancel={() => setProjectOpen(false)}
        onSubmit={(v) =>
          void create.submit({ project_name: v.name, overwrite: v.overwrite, min_distance: v.minKm, max_distance: v.maxKm, data: toLocations(sel.items) })
        }
      />
      <CreatePortfolioModal
        open={portfolioOpen}
        count={sel.items.length}
        submitting={portfolioBusy}
        error={portfolioError}
        onCancel={() => setPortfolioOpen(false)}
        onSubmit={(n) => void submitPortfolio(n)}
      />
      <HowToGuideModal open={howTo} onClose={() => setHowTo(false)} />
      <Modal
        open={restriction !== null}
        title="Error"
        onOk={() => setRestriction(null)}
        onCancel={() => setRestriction(null)}
        okText="OK"
        cancelButtonProps={{ style: { display: 'none' } }}
        data-testid="restriction-error"
      >
        <Typography.Paragraph>{restriction}</Typography.Paragraph>
      </Modal>
    </div>
  );
}
