import { lazy, Suspense } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import { FullPageSpinner } from '../components/full-page-spinner.tsx';
import { LoginPage } from '../features/auth/components/login-page.tsx';
import { ClassificationsPage } from '../features/classifications/components/classifications-page.tsx';
import { AppLayout } from './app-layout.tsx';
import { RequireAdmin, RequireAuth } from './require-auth.tsx';
import { Root } from './root.tsx';
import { EditPanelRoute, NewPanelRoute } from './routes/panel-form-routes.tsx';
import { PanelListRoute } from './routes/panel-list-route.tsx';

// The viewer (and the Power BI library it loads) is its own chunk, fetched only on that route.
const ViewerRoute = lazy(() => import('./routes/viewer-route.tsx'));

/** docs/requirements.md#screens: these routes and no others. */
export const routes: RouteObject[] = [
  {
    element: <Root />,
    children: [
      { path: '/login', element: <LoginPage /> },
      {
        element: <RequireAuth />,
        children: [
          {
            element: <AppLayout />,
            children: [
              { path: '/', element: <PanelListRoute /> },
              {
                path: '/visualizar/:id',
                element: (
                  <Suspense fallback={<FullPageSpinner />}>
                    <ViewerRoute />
                  </Suspense>
                ),
              },
              {
                element: <RequireAdmin />,
                children: [
                  { path: '/cadastro', element: <NewPanelRoute /> },
                  { path: '/editar/:id', element: <EditPanelRoute /> },
                  { path: '/classificacoes', element: <ClassificationsPage /> },
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
