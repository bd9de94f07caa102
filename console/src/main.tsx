import { QueryClient, QueryClientProvider, useQueryClient } from '@tanstack/preact-query';
import { render } from 'preact';
import { lazy, Suspense } from 'preact/compat';
import { useEffect, useRef, useState } from 'preact/hooks';
import { signOut, switchWorkspace } from './api';
import { Link, match, navigate, SESSION_INVITE_PATH, useLocation } from './router';
import { DF_SECTIONS, ORG_SECTIONS, TMT_SECTIONS } from './sections';
import { SessionProvider, useSession } from './session-context';
import { Loading } from './ui';
import { ActivatePage, ForgotPage, ProfilePage, ResetPage, SignInPage, SignUpPage, SsoLandingPage } from './pages/account';
import { DeviceDetailPage, DevicesPage } from './pages/devices';
import './styles.css';

/**
 * Pages a person opens less often load on demand, so the first paint carries only what it needs: the
 * named exports of the module `load` answers, each a component that loads the module when first drawn.
 */
function onDemand<M, K extends keyof M>(load: () => Promise<M>, ...names: K[]): Pick<M, K> {
  return Object.fromEntries(names.map((name) => [name, lazy(() => load().then((m) => m[name]))])) as Pick<M, K>;
}

const { SessionPage, SessionInvitePage } = onDemand(() => import('./pages/session'), 'SessionPage', 'SessionInvitePage');
const { ReservationsPage } = onDemand(() => import('./pages/reservations'), 'ReservationsPage');
const { HostsPage } = onDemand(() => import('./pages/hosts'), 'HostsPage');
const { FilesPage } = onDemand(() => import('./pages/files'), 'FilesPage');
const { TestRunsPage, TestRunPage } = onDemand(() => import('./pages/test-runs'), 'TestRunsPage', 'TestRunPage');
const { ReportsPage } = onDemand(() => import('./pages/reports'), 'ReportsPage');
const { AccessibilityPage, AccessibilityAuditPage } = onDemand(() => import('./pages/accessibility'), 'AccessibilityPage', 'AccessibilityAuditPage');
const { DebugPage } = onDemand(() => import('./pages/debug'), 'DebugPage');
const { TestSessionsPage, TestSessionPage } = onDemand(() => import('./pages/test-sessions'), 'TestSessionsPage', 'TestSessionPage');
const { OrgPage } = onDemand(() => import('./pages/org'), 'OrgPage');
const { NoWorkspacePage } = onDemand(() => import('./pages/no-workspace'), 'NoWorkspacePage');

const queryClient = new QueryClient({
  defaultOptions: { queries: { staleTime: 10_000, retry: 1, refetchOnWindowFocus: false } },
});

const PUBLIC = ['/sign-in', '/sign-up', '/forgot-password', '/reset-password', '/activate', '/sso'];
/** Pages that work without a workspace; every other one says how to get one. */
const WITHOUT_WORKSPACE = (path: string) => path === '/profile' || path.startsWith(SESSION_INVITE_PATH);


function Shell({ children }: { children: preact.ComponentChildren }) {
  const { me, workspaces, auth, can, permissionsKnown } = useSession();
  const { path } = useLocation();
  const qc = useQueryClient();
  const org = ORG_SECTIONS.filter((s) => can(s.key));
  // The links appear together once the permission keys are known: links added one by one would move the
  // ones already there from under a pointer about to click them.
  const nav = permissionsKnown
    ? [
        { href: '/devices', label: 'Devices' },
        { href: '/reservations', label: 'Reservations' },
        ...DF_SECTIONS.filter((s) => can(s.key)).map((s) => ({ href: s.path, label: s.label })),
        ...TMT_SECTIONS.filter((s) => can(s.key)).map((s) => ({ href: s.path, label: s.label })),
        ...(org.length > 0 ? [{ href: org[0]!.path, label: 'Organization' }] : []),
        { href: '/api-keys', label: 'API keys' },
      ]
    : [];
  // On a phone the navigation and the bar's own controls fold behind a menu button (styles.css).
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  useEffect(() => setMenuOpen(false), [path]);
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header
        class={menuOpen ? 'topbar menu-open' : 'topbar'}
        onKeyDown={(e) => {
          if (e.key !== 'Escape' || !menuOpen) return;
          setMenuOpen(false);
          menuButton.current?.focus();
        }}
      >
        <Link href="/devices" class="brand">
          QA Platform
        </Link>
        <button type="button" class="menu-toggle" ref={menuButton} aria-expanded={menuOpen} aria-controls="main-nav" onClick={() => setMenuOpen(!menuOpen)}>
          Menu
        </button>
        <nav aria-label="Main" id="main-nav">
          {nav.map((n) => (
            <Link href={n.href} aria-current={path.startsWith(n.href.split('/').slice(0, 2).join('/')) ? 'page' : undefined}>
              {n.label}
            </Link>
          ))}
        </nav>
        <div class="spacer" />
        <label class="ws">
          <span class="sr-only">Workspace</span>
          <select
            aria-label="Workspace"
            value={String(auth?.workspaceId ?? '')}
            onChange={async (e) => {
              await switchWorkspace(Number((e.target as HTMLSelectElement).value));
              await qc.resetQueries();
            }}
          >
            {workspaces.map((w) => (
              <option value={String(w.id)}>{w.name}</option>
            ))}
          </select>
        </label>
        <Link href="/profile" class="who">
          {me?.name ?? '…'}
        </Link>
        <button
          type="button"
          onClick={async () => {
            navigate('/sign-in');
            await signOut();
            qc.clear();
          }}
        >
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        <Suspense fallback={<Loading />}>{auth && !auth.workspaceId && !WITHOUT_WORKSPACE(path) ? <NoWorkspacePage /> : children}</Suspense>
      </main>
    </>
  );
}

function Routes() {
  const { path } = useLocation();
  const { auth } = useSession();
  const isPublic = PUBLIC.includes(path);
  useEffect(() => {
    if (!auth && !PUBLIC.includes(location.pathname)) navigate(`/sign-in?next=${encodeURIComponent(location.pathname + location.search)}`, { replace: true });
    if (path === '/' && auth) navigate('/devices', { replace: true });
  }, [auth, isPublic, path]);

  if (isPublic) {
    const page = { '/sign-in': SignInPage, '/sign-up': SignUpPage, '/forgot-password': ForgotPage, '/reset-password': ResetPage, '/activate': ActivatePage, '/sso': SsoLandingPage }[path]!;
    const Page = page;
    return (
      <main id="main" class="narrow" tabIndex={-1}>
        <p class="brand-lg">QA Platform</p>
        <Page />
      </main>
    );
  }
  if (!auth) return null;
  let m: Record<string, string> | null;
  let page: preact.ComponentChildren;
  if (path === '/devices' || path === '/') page = <DevicesPage />;
  else if ((m = match('/devices/:id', path))) page = <DeviceDetailPage id={m.id!} />;
  else if ((m = match('/sessions/:id', path))) page = <SessionPage id={m.id!} />;
  else if ((m = match('/sessions/:id/debug', path))) page = <DebugPage id={m.id!} />;
  else if ((m = match(`${SESSION_INVITE_PATH}:token`, path))) page = <SessionInvitePage token={m.token!} />;
  else if (path === '/reservations') page = <ReservationsPage />;
  else if (path === '/files') page = <FilesPage />;
  else if (path === '/test-runs') page = <TestRunsPage />;
  else if ((m = match('/test-runs/:id', path))) page = <TestRunPage id={m.id!} />;
  else if (path === '/reports') page = <ReportsPage />;
  else if (path === '/accessibility') page = <AccessibilityPage />;
  else if ((m = match('/accessibility/:id', path))) page = <AccessibilityAuditPage id={m.id!} />;
  else if (path === '/hosts') page = <HostsPage />;
  else if (path === '/test-sessions') page = <TestSessionsPage />;
  else if ((m = match('/test-sessions/:id', path))) page = <TestSessionPage id={m.id!} />;
  else if (path === '/profile') page = <ProfilePage />;
  else if (path === '/api-keys' || path.startsWith('/org/')) page = <OrgPage path={path} />;
  else
    page = (
      <section>
        <h1>Not found</h1>
        <p>
          Nothing lives at this address. <Link href="/devices">Go to the devices</Link>.
        </p>
      </section>
    );
  return <Shell>{page}</Shell>;
}

render(
  <QueryClientProvider client={queryClient}>
    <SessionProvider>
      <Routes />
    </SessionProvider>
  </QueryClientProvider>,
  document.getElementById('app')!,
);
