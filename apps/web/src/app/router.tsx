import { Suspense, lazy } from 'react';
import { Navigate, Outlet, ScrollRestoration, createBrowserRouter, type RouteObject } from 'react-router-dom';
import { SIGNED_IN_ROUTES } from '@crp/contracts';
import { AuthProvider, useAuth } from '../lib/AuthProvider';
import { RequireAuth } from '../features/auth/RequireAuth';
import { IdleWarning } from '../features/auth/IdleWarning';
import { AppShell } from '../features/shell/AppShell';
import { useLastAccessedPing } from '../features/shell/useLastAccessedPing';
import { NotFoundPage } from '../pages/NotFoundPage';
import { PageLoading } from '../ui/PageLoading';

// Pages load on demand so the landing page does not carry the signed-in app (and later maps and charts).
const LandingPage = lazy(() => import('../pages/LandingPage').then((m) => ({ default: m.LandingPage })));
const LoginPage = lazy(() => import('../pages/LoginPage').then((m) => ({ default: m.LoginPage })));
const RegisterPage = lazy(() => import('../pages/RegisterPage').then((m) => ({ default: m.RegisterPage })));
const ForgotPasswordPage = lazy(() => import('../pages/ForgotPasswordPage').then((m) => ({ default: m.ForgotPasswordPage })));
const ResetPasswordPage = lazy(() => import('../pages/ResetPasswordPage').then((m) => ({ default: m.ResetPasswordPage })));
const SetupPage = lazy(() => import('../pages/SetupPage').then((m) => ({ default: m.SetupPage })));
const DataPage = lazy(() => import('../pages/DataPage').then((m) => ({ default: m.DataPage })));
const LocationPage = lazy(() => import('../pages/LocationPage').then((m) => ({ default: m.LocationPage })));
const ProjectPage = lazy(() => import('../pages/ProjectPage').then((m) => ({ default: m.ProjectPage })));
const DashboardPage = lazy(() => import('../pages/DashboardPage').then((m) => ({ default: m.DashboardPage })));
const CompanyDashboardPage = lazy(() => import('../pages/CompanyDashboardPage').then((m) => ({ default: m.CompanyDashboardPage })));
const FaqPage = lazy(() => import('../pages/FaqPage').then((m) => ({ default: m.FaqPage })));
const ChangelogPage = lazy(() => import('../pages/ChangelogPage').then((m) => ({ default: m.ChangelogPage })));
const MethodologyPage = lazy(() => import('../pages/MethodologyPage').then((m) => ({ default: m.MethodologyPage })));
const PivotTablePage = lazy(() => import('../pages/PivotTablePage').then((m) => ({ default: m.PivotTablePage })));
const TcfdPage = lazy(() => import('../pages/TcfdPage').then((m) => ({ default: m.TcfdPage })));
const RealEstatePage = lazy(() => import('../pages/RealEstatePage').then((m) => ({ default: m.RealEstatePage })));
const RealEstateDashboardPage = lazy(() => import('../pages/RealEstateDashboardPage').then((m) => ({ default: m.RealEstateDashboardPage })));
const PropertyRiskPage = lazy(() => import('../pages/PropertyRiskPage').then((m) => ({ default: m.PropertyRiskPage })));
const CreateMapPage = lazy(() => import('../pages/CreateMapPage').then((m) => ({ default: m.CreateMapPage })));
const MapPage = lazy(() => import('../pages/MapPage').then((m) => ({ default: m.MapPage })));
const ToolkitPage = lazy(() => import('../pages/ToolkitPage').then((m) => ({ default: m.ToolkitPage })));
const TransitionPage = lazy(() => import('../pages/TransitionPage').then((m) => ({ default: m.TransitionPage })));
const TransitionAnalysisPage = lazy(() => import('../pages/TransitionAnalysisPage').then((m) => ({ default: m.TransitionAnalysisPage })));
const EditTransitionPage = lazy(() => import('../pages/EditTransitionPage').then((m) => ({ default: m.EditTransitionPage })));

/** Signed-in pages that exist; every other signed-in route shows its coming-soon body. */
/** Every signed-in route of the spec has its page: a route added to SIGNED_IN_ROUTES without one is a type error. */
const BUILT: Record<(typeof SIGNED_IN_ROUTES)[number], React.ReactNode> = {
  '/setup': <SetupPage />,
  '/data': <DataPage />,
  '/project': <ProjectPage />,
  '/location': <LocationPage />,
  '/dashboard': <DashboardPage />,
  '/company-dashboard': <CompanyDashboardPage />,
  '/faq': <FaqPage />,
  '/changelog': <ChangelogPage />,
  '/methodology': <MethodologyPage />,
  '/toolkit': <ToolkitPage />,
  '/pivottable': <PivotTablePage />,
  '/tcfd': <TcfdPage />,
  '/transition': <TransitionPage />,
  '/transition-analysis': <TransitionAnalysisPage />,
  '/edit-transition': <EditTransitionPage />,
  '/realestate': <RealEstatePage />,
  '/realestate-dashboard': <RealEstateDashboardPage />,
  '/property-risk': <PropertyRiskPage />,
  '/create-map': <CreateMapPage />,
  '/map': <MapPage />,
};

function SessionEffects() {
  const { token } = useAuth();
  useLastAccessedPing(token);
  return <IdleWarning />;
}

function Root() {
  return (
    <AuthProvider>
      <SessionEffects />
      <ScrollRestoration />
      <Suspense fallback={<PageLoading fullScreen />}>
        <Outlet />
      </Suspense>
    </AuthProvider>
  );
}

/** Signed-in visitors of / go to /location (spec 000 §2). */
function Landing() {
  const { isAuthenticated } = useAuth();
  return isAuthenticated ? <Navigate to="/location" replace /> : <LandingPage />;
}

const signedInRoutes: RouteObject[] = [
  ...SIGNED_IN_ROUTES.map((path) => ({ path, element: BUILT[path] })),
  // A map's own address (docs/maps.md "Map ids in the URL"): a reload keeps the open map.
  { path: '/map/:id', element: <MapPage /> },
];

export const routes: RouteObject[] = [
  {
    element: <Root />,
    children: [
      { path: '/', element: <Landing /> },
      { path: '/login', element: <LoginPage /> },
      { path: '/register', element: <RegisterPage /> },
      { path: '/forgot-password', element: <ForgotPasswordPage /> },
      { path: '/reset-password', element: <ResetPasswordPage /> },
      {
        element: (
          <RequireAuth>
            <AppShell />
          </RequireAuth>
        ),
        children: signedInRoutes,
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
