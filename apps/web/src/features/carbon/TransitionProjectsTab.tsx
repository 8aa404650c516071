import { DeleteOutlined, DownloadOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Col, Empty, Modal, Popconfirm, Radio, Row, Skeleton, Space, Tooltip, Typography } from 'antd';
import type { ButtonProps } from 'antd';
import { useState } from 'react';
import { deleteCarbonAnalysis, downloadCarbonFile, type CarbonProject } from '../../api/carbon';
import { firstErrorMessage } from '../../api/http';
import { queryKeys } from '../../api/queryKeys';
import { saveBlob } from '../../lib/openFileLink';
import { readUserId } from '../../lib/storage';
import { ButtonLink } from '../../ui/ButtonLink';
import { useCarbonProjects } from './useCarbon';

function DownloadModal({ project, onClose }: { project: CarbonProject | null; onClose: () => void }) {
  const userId = readUserId();
  const [format, setFormat] = useState<'csv' | 'xlsx'>('csv');
  const dl = useMutation({
    mutationFn: () => downloadCarbonFile(userId!, project!.project_name, format),
    onSuccess: (f) => {
      saveBlob(f.blob, f.fileName);
      onClose();
    },
  });
  return (
    <Modal
      title={project ? `Download ${project.project_name}` : 'Download'}
      open={!!project}
      onCancel={() => {
        dl.reset();
        onClose();
      }}
      okText="Download"
      onOk={() => dl.mutate()}
      okButtonProps={{ loading: dl.isPending, 'data-testid': 'carbon-download-ok' } as ButtonProps}
      destroyOnHidden
    >
      <Space direction="vertical">
        <Radio.Group
          value={format}
          onChange={(e) => setFormat(e.target.value)}
          options={[
            { value: 'csv', label: 'CSV' },
            { value: 'xlsx', label: 'Excel (.xlsx)' },
          ]}
        />
        {dl.error ? (
          <Typography.Text type="danger">{firstErrorMessage(dl.error, 'The download failed.')}</Typography.Text>
        ) : (
          <Typography.Text className="crp-muted">Inputs and outputs per company, then the portfolio total row.</Typography.Text>
        )}
      </Space>
    </Modal>
  );
}

/** Transition tab of /project: cards with project_name and created_at; Analyse, Delete and a Download modal (spec 000 §2). */
export function TransitionProjectsTab({ active = true }: { active?: boolean }) {
  const userId = readUserId();
  const qc = useQueryClient();
  const { message } = App.useApp();
  const list = useCarbonProjects(active);
  const [downloading, setDownloading] = useState<CarbonProject | null>(null);
  const del = useMutation({
    mutationFn: (name: string) => deleteCarbonAnalysis(userId!, name),
    onSuccess: (r) => {
      void message.success(r.detail);
      void qc.invalidateQueries({ queryKey: queryKeys.carbon });
    },
    onError: (e) => void message.error(firstErrorMessage(e, 'The project could not be deleted.')),
  });
  if (list.isPending) return <Skeleton active />;
  if (list.isError)
    return (
      <Alert type="error" showIcon title="Transition projects could not be loaded" description={firstErrorMessage(list.error, 'Try again in a moment.')} />
    );
  if (list.data.data.length === 0) {
    return (
      <Empty className="crp-empty" description="No transition projects yet" data-testid="transition-empty">
        <p className="crp-muted">Carbon analyses of financial portfolios will be listed here.</p>
        <ButtonLink type="primary" to="/transition">
          Start a transition analysis
        </ButtonLink>
      </Empty>
    );
  }
  return (
    <>
      <div className="crp-muted" style={{ marginBottom: 12 }}>
        {list.data.username} · {list.data.count} transition project{list.data.count === 1 ? '' : 's'}{' '}
        <ButtonLink size="small" style={{ marginLeft: 12 }} to="/transition">
          Create New Project
        </ButtonLink>
      </div>
      <Row gutter={[20, 20]}>
        {list.data.data.map((p) => (
          <Col xs={24} md={12} xl={8} key={p.project_id}>
            <Card className="crp-card" title={<Tooltip title={p.project_name}>{p.project_name}</Tooltip>} data-testid="transition-card">
              <div className="crp-muted">Created {p.created_at.slice(0, 10)}</div>
              <div>
                {p.companies} compan{p.companies === 1 ? 'y' : 'ies'}
                {p.permission !== 'owner' ? ` · shared by ${p.owner.username} (${p.permission})` : ''}
              </div>
              <Space style={{ marginTop: 12 }}>
                <ButtonLink type="primary" to="/edit-transition" state={{ project_name: p.project_name }}>
                  Analyse
                </ButtonLink>
                <Tooltip title="Download">
                  <Button icon={<DownloadOutlined />} aria-label="Download" onClick={() => setDownloading(p)} />
                </Tooltip>
                {p.permission === 'owner' && (
                  <Popconfirm
                    title={`Delete ${p.project_name}?`}
                    description="Its companies and results are removed."
                    okText="Yes"
                    cancelText="No"
                    okButtonProps={{ danger: true }}
                    onConfirm={() => del.mutate(p.project_name)}
                  >
                    <Tooltip title="Delete">
                      <Button danger icon={<DeleteOutlined />} aria-label="Delete" loading={del.isPending && del.variables === p.project_name} />
                    </Tooltip>
                  </Popconfirm>
                )}
              </Space>
            </Card>
          </Col>
        ))}
      </Row>
      <DownloadModal project={downloading} onClose={() => setDownloading(null)} />
    </>
  );
}
