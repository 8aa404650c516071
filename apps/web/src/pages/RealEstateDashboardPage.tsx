import { Button, Card, Empty } from 'antd';
import { useLocation, useNavigate } from 'react-router-dom';
import type { PropertyRiskResponse } from '@crp/contracts';
import { useDocumentTitle } from '../lib/useDocumentTitle';
import { PageHeader } from '../ui/PageHeader';
import { PropertyRiskView } from '../features/realestate/PropertyRiskView';
import { projectNameOf } from '../features/realestate/usePropertyRisk';
import '../features/realestate/realestate.css';

/** Real-estate dashboard (/realestate-dashboard): reached after creating a property-risk project, carrying its response data. */
export function RealEstateDashboardPage() {
  useDocumentTitle('Real-estate dashboard');
  const location = useLocation();
  const navigate = useNavigate();
  const name = projectNameOf(location.state);
  const initial = ((location.state ?? {}) as { data?: PropertyRiskResponse }).data ?? null;
  return (
    <div className="crp-page crp-page-wide">
      <PageHeader
        title="Property Risk Analysis"
        subtitle={name ? `Project: ${name}` : undefined}
        extra={<Button onClick={() => navigate('/realestate')}>New property-risk project</Button>}
      />
      {name ? (
        <PropertyRiskView projectName={name} initial={initial} />
      ) : (
        <Card className="crp-card">
          <Empty description="Open this dashboard by creating a property-risk project on the Real Estate page.">
            <Button type="primary" onClick={() => navigate('/realestate')}>
              Go to Real Estate
            </Button>
          </Empty>
        </Card>
      )}
    </div>
  );
}
