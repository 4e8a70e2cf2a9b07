import { useClassifications } from '../../lib/api/get-classifications.ts';
import { EditPanelPage } from '../../features/panels/components/edit-panel-page.tsx';
import { NewPanelPage } from '../../features/panels/components/new-panel-page.tsx';

/** /cadastro: the new-panel form, offered the active classifications. */
export function NewPanelRoute() {
  const { data } = useClassifications();
  return <NewPanelPage classifications={data ?? []} />;
}

/** /editar/{id}: the edit form, offered the active classifications. */
export function EditPanelRoute() {
  const { data } = useClassifications();
  return <EditPanelPage classifications={data ?? []} />;
}
