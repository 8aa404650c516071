import { Suspense, useState } from 'react';
import { Layout } from 'antd';
import { Outlet } from 'react-router-dom';
import { readPreference, writePreference } from '../../lib/storage';
import { PageLoading } from '../../ui/PageLoading';
import { useAuth } from '../../lib/AuthProvider';
import { Sidebar } from './Sidebar';

/** Signed-in layout: the collapsible sidebar and the routed page. */
export function AppShell() {
  const { user, signOut } = useAuth();
  const [collapsed, setCollapsed] = useState(() => readPreference('sidebar_collapsed') === '1');

  const onCollapsedChange = (next: boolean) => {
    setCollapsed(next);
    writePreference('sidebar_collapsed', next ? '1' : '0');
  };

  // On narrow screens the sidebar starts collapsed; on wide ones it follows the saved preference.
  const onBreakpoint = (narrow: boolean) => setCollapsed(narrow || readPreference('sidebar_collapsed') === '1');

  // Dropping the session sends RequireAuth to /login (without an origin after a deliberate logout).
  const onLogout = () => void signOut();

  const fullName = user ? `${user.first_name} ${user.last_name}`.trim() || user.username : undefined;

  return (
    <Layout className="crp-shell" hasSider>
      <Sidebar
        collapsed={collapsed}
        onCollapsedChange={onCollapsedChange}
        onBreakpoint={onBreakpoint}
        onLogout={onLogout}
        userLabel={fullName}
        companyLabel={user?.company_name}
      />
      <Layout className="crp-shell-main">
        <Layout.Content className="crp-content" id="main-content">
          <Suspense fallback={<PageLoading />}>
            <Outlet />
          </Suspense>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
