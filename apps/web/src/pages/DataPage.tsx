import { Alert, Col, Row } from 'antd';
import { useDocumentTitle } from '../lib/useDocumentTitle';
import { PageHeader } from '../ui/PageHeader';
import { OwnLayersCard } from '../features/company/OwnLayersCard';
import { useAuth } from '../lib/AuthProvider';

/** Settings › Data: the company's own hazard layers (issue 38 item 4), on a page of their own rather than the 2FA page. */
export function DataPage() {
  useDocumentTitle('Data');
  const { user } = useAuth();
  return (
    <div className="crp-page">
      <PageHeader title="Data" subtitle="Your company's own hazard layers: where they cover an asset, they replace the built-in values in your analyses." />
      <Row gutter={[24, 24]}>
        <Col xs={24}>
          {user?.is_company_admin ? (
            <OwnLayersCard />
          ) : (
            <Alert
              type="info"
              showIcon
              data-testid="data-admins-only"
              title="Your company administrators manage own hazard layers"
              description="Ask one of them to upload or delete a layer; the layers they add apply to your analyses too, marked own data."
            />
          )}
        </Col>
      </Row>
    </div>
  );
}
