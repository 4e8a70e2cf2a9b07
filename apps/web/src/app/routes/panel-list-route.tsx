import { useState } from 'react';
import type { Painel } from '@paineis/contract/panels';
import { useAuth } from '../../features/auth/auth-context.ts';
import { useDeleteClassification } from '../../features/classifications/api/delete-classification.ts';
import { LinkUsersModal } from '../../features/panel-access/components/link-users-modal.tsx';
import { RlsModal } from '../../features/panel-access/components/rls-modal.tsx';
import { PanelListPage } from '../../features/panels/components/panel-list-page.tsx';

/** '/': the panel list, with the access modals and classification deletion it offers admins. */
export function PanelListRoute() {
  const [usersFor, setUsersFor] = useState<Painel | null>(null);
  const [rlsFor, setRlsFor] = useState<Painel | null>(null);
  const deleteClassification = useDeleteClassification();
  const { isAdmin } = useAuth();
  return (
    <>
      <PanelListPage
        isAdmin={isAdmin}
        onManageUsers={setUsersFor}
        onManageRls={setRlsFor}
        onDeleteClassification={(id) => deleteClassification.mutateAsync(id)}
      />
      <LinkUsersModal painel={usersFor} onHide={() => setUsersFor(null)} />
      <RlsModal painel={rlsFor} onHide={() => setRlsFor(null)} />
    </>
  );
}
