import { lazy, Suspense, useCallback, useState, type SyntheticEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Painel } from '@paineis/contract/panels';
import { useAuth } from '../../features/auth/auth-context.ts';
import { useDeleteClassification } from '../../features/classifications/api/delete-classification.ts';
import { activeUsersQuery } from '../../lib/api/get-active-users.ts';
import { groupsQuery } from '../../lib/api/get-groups.ts';
import { linkedGroupsQuery } from '../../features/panel-access/api/get-linked-groups.ts';
import { linkedUsersQuery } from '../../features/panel-access/api/get-linked-users.ts';
import { PanelListPage } from '../../features/panels/components/panel-list-page.tsx';
import { usePowerBiPreload } from '../use-power-bi-preload.ts';
import { useKeepPowerBiStatusFresh } from '../../lib/power-bi-status.ts';

// The access modals are for admins only: their code is fetched when first wanted, not with the list.
const LinkUsersModal = lazy(() =>
  import('../../features/panel-access/components/link-users-modal.tsx').then((m) => ({ default: m.LinkUsersModal })),
);
const RlsModal = lazy(() =>
  import('../../features/panel-access/components/rls-modal.tsx').then((m) => ({ default: m.RlsModal })),
);
const PanelAccessModal = lazy(() =>
  import('../../features/panel-access/components/panel-access-modal.tsx').then((m) => ({
    default: m.PanelAccessModal,
  })),
);

type AccessModal = 'usuarios' | 'rls' | 'acesso';
const isAccessModal = (which: string | null | undefined): which is AccessModal =>
  which === 'usuarios' || which === 'rls' || which === 'acesso';

/**
 * An admin pointing at (or tabbing to) a panel's 'Usuários', 'RLS' or 'Acesso' button is about to open its modal. It is
 * mounted then, closed, so that its code loads (and React has it ready: a lazy component first rendered on the
 * click would wait for Suspense to reveal it); for the links modal the directory (people and groups) and the panel's
 * links start loading too. The modal then opens at once on the click.
 */
function useWarmUp(isAdmin: boolean, mount: (modal: AccessModal) => void) {
  const queryClient = useQueryClient();
  const loadLinks = useCallback(
    (painelId: number) => {
      void queryClient.prefetchQuery(activeUsersQuery);
      void queryClient.prefetchQuery(linkedUsersQuery(painelId));
      void queryClient.prefetchQuery(groupsQuery);
      void queryClient.prefetchQuery(linkedGroupsQuery(painelId));
    },
    [queryClient],
  );
  const warmUp = useCallback(
    (event: SyntheticEvent) => {
      if (!isAdmin || !(event.target instanceof Element)) return;
      const button = event.target.closest('[data-access]');
      const which = button?.getAttribute('data-access');
      if (!isAccessModal(which)) return;
      mount(which);
      const painelId = Number(button!.closest('[data-painel-id]')?.getAttribute('data-painel-id'));
      if (which === 'usuarios' && Number.isInteger(painelId) && painelId > 0) loadLinks(painelId);
    },
    [isAdmin, mount, loadLinks],
  );
  return { warmUp, loadLinks };
}

/** '/': the panel list, with the access modals and classification deletion it offers admins. */
export function PanelListRoute() {
  // Power BI's scripts warmed in the browser cache once the list is idle (docs/requirements.md#report-loading).
  usePowerBiPreload(true);
  const [usersFor, setUsersFor] = useState<Painel | null>(null);
  const [rlsFor, setRlsFor] = useState<Painel | null>(null);
  const [accessFor, setAccessFor] = useState<Painel | null>(null);
  // Each modal is mounted from when it is first wanted on (see useWarmUp), so that it can also fade out when closed.
  const [mounted, setMounted] = useState<ReadonlySet<AccessModal>>(() => new Set());
  const mount = useCallback(
    (modal: AccessModal) => setMounted((current) => (current.has(modal) ? current : new Set(current).add(modal))),
    [],
  );
  const deleteClassification = useDeleteClassification();
  const { isAdmin } = useAuth();
  const { warmUp, loadLinks } = useWarmUp(isAdmin, mount);
  // Each row's 'Atualizado há …' (and the admins' badges), asked for with the list, never waited for.
  useKeepPowerBiStatusFresh(isAdmin);

  const manageUsers = useCallback(
    (painel: Painel) => {
      mount('usuarios');
      // Loads along with the modal's code when that was not warmed up.
      loadLinks(painel.id);
      setUsersFor(painel);
    },
    [mount, loadLinks],
  );
  const manageRls = useCallback(
    (painel: Painel) => {
      mount('rls');
      setRlsFor(painel);
    },
    [mount],
  );
  const showAccess = useCallback(
    (painel: Painel) => {
      mount('acesso');
      setAccessFor(painel);
    },
    [mount],
  );
  const hideUsers = useCallback(() => setUsersFor(null), []);
  const hideRls = useCallback(() => setRlsFor(null), []);
  const hideAccess = useCallback(() => setAccessFor(null), []);
  const { mutateAsync: deleteClassificationById } = deleteClassification;

  return (
    // display: contents: the wrapper only listens, it adds no box to the layout.
    <div style={{ display: 'contents' }} onPointerOver={warmUp} onFocus={warmUp}>
      <PanelListPage
        isAdmin={isAdmin}
        onManageUsers={manageUsers}
        onManageRls={manageRls}
        onShowAccess={showAccess}
        onDeleteClassification={deleteClassificationById}
      />
      {mounted.has('usuarios') && (
        <Suspense fallback={null}>
          <LinkUsersModal painel={usersFor} onHide={hideUsers} />
        </Suspense>
      )}
      {mounted.has('rls') && (
        <Suspense fallback={null}>
          <RlsModal painel={rlsFor} onHide={hideRls} />
        </Suspense>
      )}
      {mounted.has('acesso') && (
        <Suspense fallback={null}>
          <PanelAccessModal painel={accessFor} onHide={hideAccess} />
        </Suspense>
      )}
    </div>
  );
}
