import { useAuth } from '../../features/auth/auth-context.ts';
import { SubscribeButton } from '../../features/subscriptions/components/subscribe-button.tsx';
import ViewerPage from '../../features/viewer/components/viewer-page.tsx';
import { useKeepPowerBiStatusFresh } from '../../lib/power-bi-status.ts';

/**
 * '/visualizar/{id}': the viewer, where admins may also choose the RLS role to preview the panel as, and read what
 * is wrong with it in Power BI, and everyone may subscribe to the panel by e-mail ('Assinar').
 */
export default function ViewerRoute() {
  const { isAdmin } = useAuth();
  useKeepPowerBiStatusFresh(isAdmin);
  return <ViewerPage canChooseRole={isAdmin} isAdmin={isAdmin} subscribeAction={SubscribeButton} />;
}
