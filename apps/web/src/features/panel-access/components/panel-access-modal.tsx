import { useId, useMemo, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import type { GrupoSemEfeito } from '@paineis/contract/groups';
import type { Painel } from '@paineis/contract/panels';
import { usePanelAccess } from '../api/get-panel-access.ts';
import { useShownPanel } from '../hooks/use-shown-panel.ts';
import { downloadCsv } from '../../../lib/csv.ts';
import { panelAccessCsv, panelAccessCsvName } from '../utils/access-csv.ts';
import { filterAccessRows, panelAccessRows, peopleCount, type PanelAccessPerson } from '../utils/access-reasons.ts';
import { IgnoredGroups } from './ignored-groups.tsx';
import { ModalLoadError } from './modal-load-error.tsx';
import { ModalLoading } from './modal-loading.tsx';
import { PanelAccessTable } from './panel-access-table.tsx';

import { SearchBox } from './search-box.tsx';
export const PANEL_ACCESS_LOAD_ERROR = 'Erro ao carregar o acesso ao painel';
export const NOBODY_HAS_ACCESS = 'Ninguém tem acesso a este painel.';

export interface PanelAccessModalProps {
  /** Shown while set. */
  painel: Painel | null;
  onHide: () => void;
}

/** 'Quem tem acesso - {panel name}': every active person who may open the panel, and why. */
export function PanelAccessModal({ painel, onHide }: PanelAccessModalProps) {
  const shown = useShownPanel(painel);
  const titleId = useId();
  return (
    <Modal show={painel !== null} onHide={onHide} size="xl" aria-labelledby={titleId}>
      <Modal.Header closeButton closeLabel="Fechar">
        <Modal.Title id={titleId} className="text-break">
          Quem tem acesso - {shown?.nomePainel}
        </Modal.Title>
      </Modal.Header>
      {shown && <PanelAccessContent key={shown.id} painel={shown} onHide={onHide} />}
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onHide}>
          Fechar
        </Button>
      </Modal.Footer>
    </Modal>
  );
}

function PanelAccessContent({ painel, onHide }: { painel: Painel; onHide: () => void }) {
  const access = usePanelAccess(painel.id);
  if (access.data) {
    return (
      <PanelAccessList
        painelId={painel.id}
        pessoas={access.data.pessoas}
        ignored={access.data.gruposSemEfeito}
        onHide={onHide}
      />
    );
  }
  if (access.isError) {
    return <ModalLoadError message={PANEL_ACCESS_LOAD_ERROR} onRetry={() => void access.refetch()} />;
  }
  return <ModalLoading />;
}

interface PanelAccessListProps {
  painelId: number;
  pessoas: PanelAccessPerson[];
  /** The panel's public groups that grant nothing (PUBLIC_GROUPS_GRANT). */
  ignored: GrupoSemEfeito[];
  onHide: () => void;
}

function PanelAccessList({ painelId, pessoas, ignored, onHide }: PanelAccessListProps) {
  const all = useMemo(() => panelAccessRows(pessoas), [pessoas]);
  const [query, setQuery] = useState('');
  const visible = useMemo(() => filterAccessRows(all, query), [all, query]);

  if (all.length === 0) {
    return (
      <Modal.Body>
        <IgnoredGroups grupos={ignored} className="mb-3" />
        <p className="text-center text-body-secondary py-4 mb-0">{NOBODY_HAS_ACCESS}</p>
      </Modal.Body>
    );
  }

  const exportCsv = () => downloadCsv(panelAccessCsvName(painelId), panelAccessCsv(visible.map((row) => row.person)));

  return (
    <Modal.Body>
      <IgnoredGroups grupos={ignored} className="mb-3" />
      <SearchBox
        label="Filtrar pessoas"
        placeholder="Filtrar por nome, e-mail ou grupo..."
        value={query}
        onChange={setQuery}
      />
      <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-2">
        <span className="small text-body-secondary" aria-live="polite">
          {peopleCount(visible.length, all.length)}
        </span>
        <Button size="sm" variant="outline-secondary" onClick={exportCsv} disabled={visible.length === 0}>
          Exportar CSV
        </Button>
      </div>
      <PanelAccessTable rows={visible} onOpenPerson={onHide} />
    </Modal.Body>
  );
}
