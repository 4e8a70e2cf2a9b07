import { useAuth } from '../../features/auth/auth-context.ts';
import ViewerPage from '../../features/viewer/components/viewer-page.tsx';
import { useKeepPowerBiStatusFresh } from '../../lib/power-bi-status.ts';

/**
 * '/visualizar/{id}': the viewer, where admins may also choose the RLS role to preview the panel as, and read what
 * is wrong with it in Power BI.
 */
export default function ViewerRoute() {
  const { isAdmin } = useAuth();
  useKeepPowerBiStatusFresh(isAdmin);
  return <ViewerPage canChooseRole={isAdmin} isAdmin={isAdmin} />;
}
