import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { matchRoutes, Navigate, type RouteObject } from 'react-router';
import { FullPageSpinner } from '../components/full-page-spinner.tsx';
import { LoadingSpinner } from '../components/loading-spinner.tsx';
import { readLiveSession } from '../lib/token.ts';
import { AppLayout } from './app-layout.tsx';
import { RequireAdmin, RequireAuth } from './require-auth.tsx';
import { Root } from './root.tsx';

/**
 * A screen of its own chunk, fetched on its first visit. `preload()` fetches it ahead: once it has arrived the screen
 * renders at once, without suspending (React.lazy takes a thenable that is already resolved synchronously).
 */
function lazyScreen(load: () => Promise<ComponentType>) {
  let loaded: ComponentType | undefined;
  let loading: Promise<ComponentType> | undefined;
  const preload = () =>
    (loading ??= load().then(
      (screen) => (loaded = screen),
      (error: unknown) => {
        // Asked again on the next visit.
        loading = undefined;
        throw error;
      },
    ));
  const Screen = lazy(() => {
    if (!loaded) return preload().then((screen) => ({ default: screen }));
    const module = { default: loaded };
    return { then: (resolve: (value: typeof module) => void) => resolve(module) } as Promise<typeof module>;
  });
  return { Screen, preload, ready: () => loaded !== undefined };
}

/**
 * Every screen is a chunk of its own: the panel list (the screen everyone opens, fetched with the entry and evaluated
 * after it, see main.tsx), the sign-in page, the admin screens, and the viewer (with the Power BI library it loads).
 */
const panelList = lazyScreen(() => import('./routes/panel-list-route.tsx').then((m) => m.PanelListRoute));
const login = lazyScreen(() => import('../features/auth/components/login-page.tsx').then((m) => m.LoginPage));
const viewer = lazyScreen(() => import('./routes/viewer-route.tsx').then((m) => m.default));
const newPanel = lazyScreen(() => import('./routes/panel-form-routes.tsx').then((m) => m.NewPanelRoute));
const editPanel = lazyScreen(() => import('./routes/panel-form-routes.tsx').then((m) => m.EditPanelRoute));
const classifications = lazyScreen(() =>
  import('../features/classifications/components/classifications-page.tsx').then((m) => m.ClassificationsPage),
);
// The usage page brings the chart and CSV libraries with it: only its own chunk loads them.
const usage = lazyScreen(() => import('../features/usage/components/usage-page.tsx').then((m) => m.UsagePage));
const audit = lazyScreen(() => import('../features/audit/components/audit-page.tsx').then((m) => m.AuditPage));
const access = lazyScreen(() =>
  import('../features/panel-access/components/access-page.tsx').then((m) => m.AccessPage),
);

const importFromPowerBi = lazyScreen(() =>
  import('../features/power-bi-import/components/import-page.tsx').then((m) => m.ImportPage),
);

const mySubscriptions = lazyScreen(() =>
  import('../features/subscriptions/components/my-subscriptions-page.tsx').then((m) => m.MySubscriptionsPage),
);
// The page a message's link opens when its file was too large to attach.
const subscriptionFile = lazyScreen(() =>
  import('../features/subscriptions/components/subscription-file-page.tsx').then((m) => m.SubscriptionFilePage),
);
const allSubscriptions = lazyScreen(() =>
  import('../features/subscriptions/components/all-subscriptions-page.tsx').then((m) => m.AllSubscriptionsPage),
);
// Like the usage page, it brings the chart library: only its own chunk loads it.
const capacity = lazyScreen(() =>
  import('../features/capacity/components/capacity-page.tsx').then((m) => m.CapacityPage),
);
const demoOutbox = lazyScreen(() =>
  import('../features/demo-outbox/components/demo-outbox-page.tsx').then((m) => m.DemoOutboxPage),
);

/** A lazily loaded screen, with the spinner shown while its chunk arrives. */
const load = ({ Screen }: { Screen: ComponentType }, fallback: ReactNode = <LoadingSpinner />) => (
  <Suspense fallback={fallback}>
    <Screen />
  </Suspense>
);

/** docs/requirements.md#screens: these routes and no others. */
export const routes: RouteObject[] = [
  {
    element: <Root />,
    children: [
      { path: '/login', element: load(login, <FullPageSpinner />) },
      {
        element: <RequireAuth />,
        children: [
          {
            element: <AppLayout />,
            children: [
              { path: '/', element: load(panelList), handle: panelList },
              { path: '/visualizar/:id', element: load(viewer, <FullPageSpinner />), handle: viewer },
              { path: '/assinaturas', element: load(mySubscriptions), handle: mySubscriptions },
              { path: '/assinaturas/arquivos/:id', element: load(subscriptionFile), handle: subscriptionFile },
              {
                element: <RequireAdmin />,
                children: [
                  { path: '/cadastro', element: load(newPanel), handle: newPanel },
                  { path: '/editar/:id', element: load(editPanel), handle: editPanel },
                  { path: '/classificacoes', element: load(classifications), handle: classifications },
                  { path: '/uso', element: load(usage), handle: usage },
                  { path: '/auditoria', element: load(audit), handle: audit },
                  { path: '/acessos', element: load(access), handle: access },
                  { path: '/importar', element: load(importFromPowerBi), handle: importFromPowerBi },
                  { path: '/assinaturas/todas', element: load(allSubscriptions), handle: allSubscriptions },
                  { path: '/caixa-de-saida', element: load(demoOutbox), handle: demoOutbox },
                  { path: '/capacidade', element: load(capacity), handle: capacity },
                ],
              },
            ],
          },
        ],
      },
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];

/**
 * The viewer's code, fetched and evaluated ahead: the list asks for it once idle (use-power-bi-preload.ts), so that a
 * click on a panel renders the viewer at once instead of waiting for its chunks (docs/requirements.md#report-loading).
 */
export function preloadViewer(): Promise<unknown> {
  return viewer.preload();
}

/** Whether the viewer's code has arrived: a click on a panel then renders it without waiting. */
export function viewerReady(): boolean {
  return viewer.ready();
}

/**
 * Fetches the code of the screen the app opens on, when it is a chunk of its own, so that start.tsx can render it
 * directly. Rendered before, it would first show its spinner, and React holds back what replaces a spinner it has just
 * shown for 300 ms. Signed out, every route leads to the sign-in page.
 */
export function preloadFirstScreen(pathname: string): Promise<unknown> {
  let signedIn = false;
  try {
    signedIn = readLiveSession() !== null;
  } catch {
    // Settled by AuthProvider.
  }
  if (!signedIn) return login.preload();
  const screen = matchRoutes(routes, pathname)?.at(-1)?.route.handle as
    { preload?: () => Promise<unknown> } | undefined;
  return screen?.preload?.() ?? Promise.resolve();
}
