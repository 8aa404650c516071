import { useMemo, useState } from 'react';
import { Button, Layout, Menu, Tooltip, type MenuProps } from 'antd';
import {
  AppstoreOutlined,
  BookOutlined,
  ExportOutlined,
  DatabaseOutlined,
  FileTextOutlined,
  FolderOpenOutlined,
  GlobalOutlined,
  HistoryOutlined,
  HomeOutlined,
  LineChartOutlined,
  LogoutOutlined,
  MenuFoldOutlined,
  MenuUnfoldOutlined,
  QuestionCircleOutlined,
  SafetyCertificateOutlined,
  SettingOutlined,
  EnvironmentOutlined,
  ApiOutlined,
} from '@ant-design/icons';
import { Link, useLocation } from 'react-router-dom';
import { SIDEBAR_COLLAPSED_WIDTH_PX, SIDEBAR_WIDTH_PX, type ModuleKey } from '@crp/contracts';
import { BrandMark } from '../../ui/BrandMark';
import { useTierData } from '../../lib/useTierData';

type MenuItem = Required<MenuProps>['items'][number];

/** Module entries shown only when the tier lists the module (spec 000 §2 "Sidebar shell"). */
const MODULE_ENTRIES: { module: ModuleKey; label: string; path: string; icon: React.ReactNode }[] = [
  { module: 'physical_risk', label: 'Physical Risk', path: '/location', icon: <EnvironmentOutlined /> },
  { module: 'transition_risk', label: 'Transition Risk', path: '/transition', icon: <LineChartOutlined /> },
  { module: 'map', label: 'Map Module', path: '/create-map', icon: <GlobalOutlined /> },
];

const DOCUMENT_ENTRIES: { label: string; path: string; icon: React.ReactNode }[] = [
  { label: 'Climate Methodology', path: '/methodology', icon: <BookOutlined /> },
  { label: 'Adaptation Methodology', path: '/toolkit', icon: <SafetyCertificateOutlined /> },
  { label: 'Change logs', path: '/changelog', icon: <HistoryOutlined /> },
  { label: 'Faqs', path: '/faq', icon: <QuestionCircleOutlined /> },
];

/** The server's OpenAPI page, opened in a new tab. */
export const API_DOCS_URL = '/docs';

const link = (to: string, label: string) => <Link to={to}>{label}</Link>;

function groupOf(pathname: string): string | null {
  if (MODULE_ENTRIES.some((e) => e.path === pathname)) return 'modules';
  if (DOCUMENT_ENTRIES.some((e) => e.path === pathname)) return 'documents';
  return null;
}

export interface SidebarProps {
  collapsed: boolean;
  onCollapsedChange: (collapsed: boolean) => void;
  onBreakpoint?: (narrow: boolean) => void;
  onLogout: () => void;
  userLabel?: string | undefined;
  companyLabel?: string | undefined;
}

export function Sidebar({ collapsed, onCollapsedChange, onBreakpoint, onLogout, userLabel, companyLabel }: SidebarProps) {
  const tierData = useTierData();
  const { pathname } = useLocation();
  const [openKeys, setOpenKeys] = useState<string[]>(() => {
    const g = groupOf(pathname);
    return g && g !== 'modules' ? ['modules', g] : ['modules'];
  });

  const items = useMemo<MenuItem[]>(() => {
    const allowed = new Set(tierData?.allowed_modules ?? []);
    const modules = MODULE_ENTRIES.filter((e) => allowed.has(e.module)).map<MenuItem>((e) => ({ key: e.path, icon: e.icon, label: link(e.path, e.label) }));
    return [
      { key: '/', icon: <HomeOutlined />, label: link('/', 'Home') },
      { key: '/project', icon: <FolderOpenOutlined />, label: link('/project', 'Projects') },
      {
        key: 'modules',
        icon: <AppstoreOutlined />,
        label: 'Modules',
        children: modules.length ? modules : [{ key: 'no-modules', disabled: true, label: <span className="crp-menu-note">No modules in your plan</span> }],
      },
      {
        key: 'documents',
        icon: <FileTextOutlined />,
        label: 'Documents',
        children: [
          ...DOCUMENT_ENTRIES.map<MenuItem>((e) => ({ key: e.path, icon: e.icon, label: link(e.path, e.label) })),
          {
            key: 'api-docs',
            icon: <ApiOutlined />,
            label: (
              <a href={API_DOCS_URL} target="_blank" rel="noopener noreferrer">
                API Docs <ExportOutlined className="crp-external-icon" aria-label="opens in a new tab" />
              </a>
            ),
          },
        ],
      },
      { key: '/data', icon: <DatabaseOutlined />, label: link('/data', 'Data') },
      { key: '/setup', icon: <SettingOutlined />, label: link('/setup', 'Settings') },
      { type: 'divider' },
      {
        key: 'logout',
        icon: <LogoutOutlined />,
        // A real button, so Logout is reachable with Tab like the links above it.
        label: (
          <button type="button" className="crp-menu-button">
            Logout
          </button>
        ),
      },
    ];
  }, [tierData]);

  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key === 'logout') onLogout();
  };

  return (
    <Layout.Sider
      className="crp-sider"
      width={SIDEBAR_WIDTH_PX}
      collapsedWidth={SIDEBAR_COLLAPSED_WIDTH_PX}
      collapsible
      collapsed={collapsed}
      trigger={null}
      breakpoint="lg"
      onBreakpoint={onBreakpoint}
      theme="dark"
      aria-label="Main navigation"
      data-testid="sidebar"
      data-collapsed={collapsed ? 'true' : 'false'}
    >
      <div className="crp-sider-inner">
        <div className={collapsed ? 'crp-sider-head crp-sider-head-collapsed' : 'crp-sider-head'}>
          <Link to="/" className="crp-sider-brand" aria-label="Home">
            <BrandMark dark compact={collapsed} size={collapsed ? 34 : 30} />
          </Link>
          <Tooltip title={collapsed ? 'Expand sidebar' : 'Collapse sidebar'} placement="right">
            <Button
              type="text"
              className="crp-sider-toggle"
              aria-label={collapsed ? 'Expand sidebar' : 'Collapse sidebar'}
              aria-expanded={!collapsed}
              icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
              onClick={() => onCollapsedChange(!collapsed)}
            />
          </Tooltip>
        </div>
        <nav className="crp-sider-nav" aria-label="Sidebar">
          <Menu
            theme="dark"
            mode="inline"
            items={items}
            selectedKeys={[pathname]}
            openKeys={collapsed ? undefined : openKeys}
            onOpenChange={(keys) => {
              // While collapsed the groups open as fly-outs; keep the expanded layout's open groups as they were.
              if (!collapsed) setOpenKeys(keys);
            }}
            onClick={onClick}
          />
        </nav>
        {!collapsed && (userLabel || companyLabel) && (
          <div className="crp-sider-user" aria-label="Signed in as">
            <div className="crp-avatar" aria-hidden="true">
              {(userLabel ?? '?').slice(0, 1).toUpperCase()}
            </div>
            <div className="crp-sider-user-text">
              <div className="crp-sider-user-name">{userLabel}</div>
              <div className="crp-sider-user-company">{companyLabel}</div>
            </div>
          </div>
        )}
      </div>
    </Layout.Sider>
  );
}
