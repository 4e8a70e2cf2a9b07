import type { ClassificacaoAdmin } from '@paineis/contract/classifications';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { formatInteger } from '../../../lib/format.ts';

interface ClassificationsTableProps {
  classificacoes: ClassificacaoAdmin[];
  editingId: number | null;
  onEdit: (classificacao: ClassificacaoAdmin) => void;
  onDelete: (classificacao: ClassificacaoAdmin) => void;
}

export function panelCountLabel(quantidade: number): string {
  if (quantidade === 0) return 'Nenhum painel';
  if (quantidade === 1) return '1 painel';
  return `${formatInteger(quantidade)} painéis`;
}

/** Nome (with its panel count), Descrição, Status and Ações (docs/requirements.md#screen-classifications). */
export function ClassificationsTable({ classificacoes, editingId, onEdit, onDelete }: ClassificationsTableProps) {
  return (
    <Table responsive hover className="mb-0 align-middle">
      <thead className="table-light">
        <tr>
          {/* Minimum widths keep words whole on phones; the table scrolls sideways instead. */}
          <th scope="col" className="ps-3" style={{ minWidth: '9rem' }}>
            Nome
          </th>
          <th scope="col" style={{ minWidth: '14rem' }}>
            Descrição
          </th>
          <th scope="col">Status</th>
          <th scope="col" className="text-end pe-3">
            Ações
          </th>
        </tr>
      </thead>
      <tbody>
        {classificacoes.map((c) => (
          <tr key={c.id} className={c.id === editingId ? 'table-active' : undefined}>
            <td className="ps-3">
              <div className="fw-semibold">{c.nome}</div>
              <div className="small text-body-secondary text-nowrap">{panelCountLabel(c.quantidadePaineis)}</div>
            </td>
            <td>{c.descricao || <span className="text-body-secondary fst-italic">Sem descrição</span>}</td>
            <td>
              <Badge bg={c.ativo ? 'success' : 'secondary'}>{c.ativo ? 'Ativo' : 'Inativo'}</Badge>
            </td>
            <td className="text-end pe-3">
              <div className="d-inline-flex gap-2">
                <Button size="sm" variant="outline-primary" aria-label={`Editar ${c.nome}`} onClick={() => onEdit(c)}>
                  Editar
                </Button>
                <Button size="sm" variant="outline-danger" aria-label={`Excluir ${c.nome}`} onClick={() => onDelete(c)}>
                  Excluir
                </Button>
              </div>
            </td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
