import { useEffect, useState } from 'react';
import { Alert, Button, Card, Progress, Space, Steps, Typography } from 'antd';
import { useNavigate } from 'react-router-dom';
import type { ProjectStatus } from '@crp/contracts';
import { fetchProjectStatus, followProjectProgress } from '../../api/projects';
import { ButtonLink } from '../../ui/ButtonLink';

/**
 * The analysis progress of a created portfolio from the server-sent events (fetch + stream reader, since
 * EventSource cannot send the token). Opens /dashboard when done; shows the message when it failed.
 */
/**
 * The stages of a portfolio from file to results (issue 22): the file read in the browser, the rows checked and the
 * assets stored by the server (both done once create_project answered), then the analysis (computed and stored
 * chunk by chunk, with the server's progress), then done. `rows` is the number of rows read from the file.
 */
export function pipelineStages(status: ProjectStatus, rows?: number) {
  const n = status.assets.toLocaleString('en-US');
  const analysing =
    status.status === 'queued'
      ? 'waiting for a worker'
      : status.status === 'running'
        ? `${Math.round(status.progress * 100)} %`
        : status.status === 'done'
          ? 'done'
          : 'failed';
  return {
    current: status.status === 'done' ? 4 : 3,
    failed: status.status === 'failed',
    items: [
      { title: 'Parsed', description: rows !== undefined ? `${rows.toLocaleString('en-US')} rows` : 'read' },
      { title: 'Validated', description: 'no row problems' },
      { title: 'Stored', description: `${n} assets` },
      { title: 'Analysed', description: analysing },
    ],
  };
}

export function AnalysisProgress({
  project,
  onStartOver,
  target = '/dashboard',
  rows,
}: {
  project: ProjectStatus;
  onStartOver: () => void;
  target?: '/dashboard' | '/company-dashboard';
  rows?: number;
}) {
  const navigate = useNavigate();
  const [status, setStatus] = useState<ProjectStatus>(project);

  useEffect(() => {
    const ctrl = new AbortController();
    let stopped = false;
    const finish = (s: ProjectStatus) => {
      if (s.status === 'done' && !stopped) {
        stopped = true;
        setTimeout(() => navigate(target, { state: { project_name: s.name, project_id: s.project_id } }), 1000);
      }
    };
    const poll = async () => {
      // Fallback when the stream breaks: poll the status.
      while (!ctrl.signal.aborted && !stopped) {
        try {
          const s = await fetchProjectStatus(project.project_id);
          setStatus(s);
          finish(s);
          if (s.status === 'done' || s.status === 'failed') return;
        } catch (err) {
          console.warn('Progress check failed', err);
        }
        await new Promise((r) => setTimeout(r, 1500));
      }
    };
    followProjectProgress(
      project.project_id,
      (s) => {
        setStatus(s);
        finish(s);
      },
      ctrl.signal,
    )
      .then((last) => {
        if (!last || (last.status !== 'done' && last.status !== 'failed')) return poll();
        return undefined;
      })
      .catch((err: unknown) => {
        if (ctrl.signal.aborted) return;
        console.warn('Progress stream failed; polling instead', err);
        return poll();
      });
    return () => ctrl.abort();
  }, [project.project_id, navigate, target]);

  const percent = Math.round(Math.min(1, Math.max(0, status.progress)) * 100);
  const stages = pipelineStages(status, rows);
  return (
    <Card className="crp-card crp-progress-card" data-testid="analysis-progress" data-status={status.status} data-percent={percent}>
      <Typography.Title level={4} className="crp-progress-title">
        Analysing {status.name}
      </Typography.Title>
      <Typography.Paragraph className="crp-muted">
        {status.assets.toLocaleString('en-US')} {status.assets === 1 ? 'asset' : 'assets'} · the dashboard opens when the analysis is done.
      </Typography.Paragraph>
      <Steps
        className="crp-mb"
        size="small"
        current={stages.current}
        status={stages.failed ? 'error' : stages.current === 4 ? 'finish' : 'process'}
        items={stages.items}
        data-testid="pipeline-stages"
      />
      <Progress
        percent={percent}
        status={status.status === 'failed' ? 'exception' : status.status === 'done' ? 'success' : 'active'}
        aria-label="Analysis progress"
      />
      <div className="crp-muted crp-small" data-testid="analysis-message">
        {status.status === 'queued' ? 'Queued' : status.status === 'running' ? 'Running' : status.status === 'done' ? 'Done' : 'Failed'}
        {status.message ? `: ${status.message}` : ''}
      </div>
      {status.status === 'failed' && (
        <Alert className="crp-mt" type="error" showIcon title="Analysis failed" description={status.message ?? 'The analysis could not be completed.'} />
      )}
      <Space className="crp-mt">
        <ButtonLink to="/project">Go to projects</ButtonLink>
        {status.status === 'failed' && <Button onClick={onStartOver}>Create another portfolio</Button>}
      </Space>
    </Card>
  );
}
