import { Suspense } from 'react';
import { matchRoutes, Navigate, useParams, useRoutes, type RouteObject } from 'react-router-dom';
import { CenteredSpinner } from '../components/CenteredStatus';
import { canAccess } from './access';
import { AREAS, PAGES, pageTitleKey, type PageDef } from './areas';
import { loadAppShell, RequireAuth, startSessionCheck } from './auth/RequireAuth';
import { useSession } from './auth/session';
import { useT } from './i18n';
import { lazyScreen as screen, type LazyScreen } from './lazy-screen';
import { defaultLandingPath, isMobileBrowser } from './use-narrow';

type ScreenProps = { def: PageDef; id?: string };

// Every screen is its own chunk, so the first load carries only the shell.
const LoginPage = screen(() => import('../features/auth/LoginPage'));
const HomePage = screen(() => import('../features/home/HomePage'));
const ForbiddenPage = screen(() => import('../features/pages/ForbiddenPage'));
const NotFoundPage = screen(() => import('../features/pages/NotFoundPage'));
const SchedulesPage = screen(() => import('../features/schedules/SchedulesPage'));
const SchedulesSpPage = screen(() => import('../features/schedules/SchedulesSpPage'));

/** The screen of each row of the route table, by path (lazy, one chunk each). */
const EmployeesPage = screen(() => import('../features/employees/EmployeesPage'));
const EmployeeDetailPage = screen(() => import('../features/employees/EmployeeDetailPage'));
const DepartmentsPage = screen(() => import('../features/departments/DepartmentsPage'));
const DepartmentDetailPage = screen(() => import('../features/departments/DepartmentDetailPage'));
const ComputersPage = screen(() => import('../features/devices/ComputersPage'));
const ComputerDetailPage = screen(() => import('../features/devices/ComputerDetailPage'));
const SmartphonesPage = screen(() => import('../features/devices/SmartphonesPage'));
const SmartphoneDetailPage = screen(() => import('../features/devices/SmartphoneDetailPage'));
const OfficeAccountsPage = screen(() => import('../features/devices/OfficeAccountsPage'));
const OfficeAccountDetailPage = screen(() => import('../features/devices/OfficeAccountDetailPage'));
const BlogFeedPage = screen(() => import('../features/blog/BlogFeedPage'));
const BlogCategoriesPage = screen(() => import('../features/blog/categories/BlogCategoriesPage'));
const BlogCategoryDetailPage = screen(() => import('../features/blog/categories/BlogCategoryDetailPage'));
const BlogEditorPage = screen(() => import('../features/blog/editor/BlogEditorPage'));
const ApiKeysPage = screen(() => import('../features/api-keys/ApiKeysPage'));
const BlogStatisticsPage = screen(() => import('../features/blog/statistics/BlogStatisticsPage'));
const ProfileListPage = screen(() => import('../features/profiles/ProfileListPage'));
const ProfilePage = screen(() => import('../features/profiles/ProfilePage'));

const SCREENS: Record<string, LazyScreen<ScreenProps>> = {
  // schedule
  '/schedules': SchedulesPage,
  '/schedules/sp': SchedulesSpPage,
  // blog
  '/blog': BlogFeedPage,
  '/blog/sp': BlogFeedPage,
  '/blog/statistics': BlogStatisticsPage,
  '/blog_category': BlogCategoriesPage,
  '/blog_category/new': BlogCategoryDetailPage,
  '/blog_category/:id': BlogCategoryDetailPage,
  '/blog/new': BlogEditorPage,
  '/blog/sp/new': BlogEditorPage,
  '/blog/:id': BlogEditorPage,
  '/blog/sp/:id': BlogEditorPage,
  // profiles
  '/profile_list': ProfileListPage,
  '/profile_list/sp': ProfileListPage,
  '/profile': ProfilePage,
  '/profile/sp': ProfilePage,
  '/profile/:id': ProfilePage,
  '/profile/sp/:id': ProfilePage,
  // master data (employees, departments) and devices
  '/employees': EmployeesPage,
  '/employees/new': EmployeeDetailPage,
  '/employees/:id': EmployeeDetailPage,
  '/departments': DepartmentsPage,
  '/departments/detail/:id?': DepartmentDetailPage,
  '/departments/:id': DepartmentDetailPage,
  '/api_keys': ApiKeysPage,
  '/computers': ComputersPage,
  '/computers/sp': ComputersPage,
  '/computers/new': ComputerDetailPage,
  '/computers/sp/new': ComputerDetailPage,
  '/computers/:id': ComputerDetailPage,
  '/computers/sp/:id': ComputerDetailPage,
  '/smartphones': SmartphonesPage,
  '/smartphones/sp': SmartphonesPage,
  '/smartphones/new': SmartphoneDetailPage,
  '/smartphones/sp/new': SmartphoneDetailPage,
  '/smartphones/:id': SmartphoneDetailPage,
  '/smartphones/sp/:id': SmartphoneDetailPage,
  '/microsoft_office': OfficeAccountsPage,
  '/microsoft_office/new': OfficeAccountDetailPage,
  '/microsoft_office/:id': OfficeAccountDetailPage,
};

/** One row of the route table: the role check of spec section 6, then the screen. */
function PageRoute({ def }: { def: PageDef }) {
  const t = useT();
  const { id } = useParams();
  const { user } = useSession();
  if (!canAccess(user.role, AREAS[def.area].access)) return <ForbiddenPage page={t(pageTitleKey(def, id))} />;
  const Screen = SCREENS[def.path];
  if (!Screen) return <NotFoundPage />;
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
  element:
    def.path === '/blog' ? (
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
    children: [
      { index: true, element: <RootRedirect /> },
      { path: '/home', element: <HomePage /> },
      ...pageRoutes,
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

/** The route table; rendered inside the app's HistoryRouter (declarative mode keeps the data-router code out of the first chunk). */
export function AppRoutes() {
  return useRoutes(routes);
}

const SCREEN_ROUTES = PAGES.map((p) => ({ path: p.path }));

/**
 * Starts the session check and fetching the chunks the first screen at `pathname` needs (the shell
 * and the page) together, instead of one after the other once the check answers: on a phone's
 * network each step of that chain costs a round trip. Resolves when the first render may start.
 */
export function preloadRoute(pathname: string): Promise<void> {
  const ignore = () => undefined; // a failed fetch is retried, and reported, by the render that needs it
  // The sign-in page is pre-rendered whole (web/scripts/prerender.mjs): the first render waits for
  // its chunk, or it would replace that page with a loading fallback.
  if (pathname === '/login') return LoginPage.preload().then(ignore, ignore);
  const path = matchRoutes(SCREEN_ROUTES, pathname)?.[0]?.route.path;
  const target = pathname === '/home' ? HomePage : path ? SCREENS[path] : undefined;
  // The session check, then each chunk loader (a <link> per chunk it still needs), in tasks of their
  // own: the first query sets up Apollo's machinery, which would otherwise run inside the first
  // render, and a phone's main thread would otherwise be held for all of them at once.
  setTimeout(() => void startSessionCheck().catch(ignore));
  setTimeout(() => void loadAppShell().catch(ignore));
  setTimeout(() => void target?.preload().catch(ignore));
  // Elsewhere the first render is the session check's screen, which needs no chunk: after those tasks.
  return new Promise((resolve) => setTimeout(resolve));
}
