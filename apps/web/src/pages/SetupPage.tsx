import { useDocumentTitle } from '../lib/useDocumentTitle';
import { Col, Row } from 'antd';
import { PageHeader } from '../ui/PageHeader';
import { TwoFactorSetupCard } from '../features/twofa/TwoFactorSetupCard';
import { AccountCard } from '../features/company/AccountCard';
import { CompanyMembersCard } from '../features/company/CompanyMembersCard';
import { ActivityLogCard } from '../features/company/ActivityLogCard';
import { PublishedDatasetsCard } from '../features/company/PublishedDatasetsCard';
import { StreetBasemapCard } from '../features/company/StreetBasemapCard';
import { UpgradeRequestsCard } from '../features/plans/UpgradeRequestsCard';
import { ApiTokensCard } from '../features/apitokens/ApiTokensCard';
import { useAuth } from '../lib/AuthProvider';

export function SetupPage() {
  useDocumentTitle('Settings');
  const { user } = useAuth();
  return (
    <div className="crp-page">
      {/* "Settings", as the sidebar names it: the page holds 2FA, the account, API tokens and the company's settings (issue 37 item 7) */}
      <PageHeader
        title="Settings"
        subtitle="Two-factor authentication, your account and API tokens; for administrators, the company's data settings, members and activity log."
      />
      <Row gutter={[24, 24]}>
        <Col xs={24} xl={14}>
          <TwoFactorSetupCard />
        </Col>
        <Col xs={24} xl={10}>
          <AccountCard />
        </Col>
        {user && (
          <Col xs={24}>
            <ApiTokensCard admin={user.is_company_admin} />
          </Col>
        )}
        {user?.is_company_admin && (
          <Col xs={24}>
            <CompanyMembersCard companyCode={user.company_code} />
          </Col>
        )}
        {user?.is_operator && (
          <Col xs={24}>
            <UpgradeRequestsCard />
          </Col>
        )}
        {user?.is_operator && (
          <Col xs={24}>
            {/* the installation's operators only (the server answers 403 to anyone else; not asked, so no console error) */}
            <PublishedDatasetsCard />
          </Col>
        )}
        {user?.is_operator && (
          <Col xs={24}>
            <StreetBasemapCard />
          </Col>
        )}
        {user?.is_company_admin && (
          <Col xs={24}>
            <ActivityLogCard />
          </Col>
        )}
      </Row>
    </div>
  );
}
