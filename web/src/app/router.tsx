import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { Navigate, useParams, useRoutes, type RouteObject } from 'react-router-dom';
import { CenteredSpinner } from '../components/CenteredStatus';
import { canAccess } from './access';
import { AREAS, PAGES, pageTitleKey, type PageDef } from './areas';
import { RequireAuth } from './auth/RequireAuth';
import { useSession } from './auth/session';
import { useT } from './i18n';
import { defaultLandingPath, isMobileBrowser } from './use-narrow';

// Every screen is its own chunk, so the first load carries only the shell.
const LoginPage = lazy(() => import('../features/auth/LoginPage'));
const HomePage = lazy(() => import('../features/home/HomePage'));
const ComingSoonPage = lazy(() => import('../features/pages/ComingSoonPage'));
const ForbiddenPage = lazy(() => import('../features/pages/ForbiddenPage'));
const NotFoundPage = lazy(() => import('../features/pages/NotFoundPage'));

type ScreenProps = { def: PageDef; id?: string };

/**
 * Built screens by route path (lazy, one chunk each). Every other row of the route table shows
 * ComingSoonPage: the real title and an honest 準備中 state.
 */
const EmployeesPage = lazy(() => import('../features/employees/EmployeesPage'));
const EmployeeDetailPage = lazy(() => import('../features/employees/EmployeeDetailPage'));

const SCREENS: Partial<Record<string, LazyExoticComponent<ComponentType<ScreenProps>>>> = {
  // master data (employees, departments) and devices
  '/employees': EmployeesPage,
  '/employees/new': EmployeeDetailPage,
  '/employees/:id': EmployeeDetailPage,
};

/** One row of the route table: the role check of spec section 6, then the screen. */
function PageRoute({ def }: { def: PageDef }) {
  const t = useT();
  const { id } = useParams();
  const { user } = useSession();
  if (!canAccess(user.role, AREAS[def.area].access)) return <ForbiddenPage page={t(pageTitleKey(def, id))} />;
  const Screen = SCREENS[def.path] ?? ComingSoonPage;
  return <Screen key={def.path} def={def} id={id} />;
}

/** "/" goes to the staff list (spec); roles that may not see it land on the schedule instead. */
function RootRedirect() {
  const { user } = useSession();
  return <Navigate to={canAccess(user.role, 'admin') ? '/employees' : defaultLandingPath()} replace />;
}

/** On a mobile browser /blog opens the mobile list (spec section 2). */
function MobileRedirect({ to, children }: { to: string; children: React.ReactNode }) {
  return isMobileBrowser() ? <Navigate to={to} replace /> : children;
}

function LoginRoute() {
  const t = useT();
  return (
    <Suspense fallback={<CenteredSpinner label={t('common.loading')} />}>
      <LoginPage />
    </Suspense>
  );
}

const pageRoutes: RouteObject[] = PAGES.map((def) => ({
  path: def.path,
  element: def.path === '/blog' ? (
    <MobileRedirect to="/blog/sp">
      <PageRoute def={def} />
    </MobileRedirect>
  ) : (
    <PageRoute def={def} />
  ),
}));

export const routes: RouteObject[] = [
  { path: '/login', element: <LoginRoute /> },
  {
    element: <RequireAuth />,
    children: [{ index: true, element: <RootRedirect /> }, { path: '/home', element: <HomePage /> }, ...pageRoutes, { path: '*', element: <NotFoundPage /> }],
  },
];

/** The route table; rendered inside <BrowserRouter> (declarative mode keeps the data-router code out of the first chunk). */
export function AppRoutes() {
  return useRoutes(routes);
}
