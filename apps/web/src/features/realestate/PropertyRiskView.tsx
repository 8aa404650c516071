import { Alert, Button, Card, Empty, Progress, Result } from 'antd';
import { useNavigate } from 'react-router-dom';
import type { PropertyRiskResponse } from '@crp/contracts';
import { ApiError } from '../../api/http';
import { PageLoading } from '../../ui/PageLoading';
import { PropertyRiskAnalysis } from './PropertyRiskAnalysis';
import { usePropertyRisk } from './usePropertyRisk';

/** Loads a property-risk project by name and shows its analysis, its progress, or why it cannot. */
export function PropertyRiskView({ projectName, initial }: { projectName: string; initial?: PropertyRiskResponse | null }) {
  const navigate = useNavigate();
  const q = usePropertyRisk(projectName, initial);
  if (q.isPending) return <PageLoading />;
  if (q.isError) {
    const notFound = q.error instanceof ApiError && q.error.status === 404;
    return (
      <Result
        status={notFound ? '404' : 'error'}
        title={notFound ? `No property-risk project named '${projectName}'` : 'The property-risk results could not be loaded'}
        subTitle={notFound ? 'It may have been deleted or renamed, or it is not shared with you.' : 'Check your connection and try again.'}
        extra={
          <Button type="primary" onClick={() => navigate('/realestate')}>
            Go to Real Estate
          </Button>
        }
      />
    );
  }
  const r = q.data;
  if (r.status === 'failed') return <Alert type="error" showIcon message="The property-risk computation failed" description={r.message} />;
  if (r.status !== 'done') {
    return (
      <Card className="crp-card" data-testid="property-risk-progress">
        <Empty description={r.message ?? 'Computing property risk'}>
          <Progress percent={Math.round(r.progress * 100)} style={{ maxWidth: 360 }} />
        </Empty>
      </Card>
    );
  }
  return <PropertyRiskAnalysis result={r} />;
}
